package org.symdyn.constraints;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.symdyn.contract.ConstraintType;

/**
 * The groups of a {@link ConstraintSet} being built and the names and ids that find them: each group's index by
 * constraint name, by user-defined id and by assigned id (the count of rows added before one add call's rows, one
 * per row), the row names (unique in the set; a row is named after its add call, {@code name[k]} for several rows,
 * or {@code type#assignedId} without a name).
 */
final class GroupRegistry {
    final List<GroupDraft> drafts = new ArrayList<>();
    final Map<String, Integer> groupByName = new HashMap<>();
    final Map<Integer, Integer> groupByUserId = new HashMap<>();
    final Map<Integer, Integer> groupByAssignedId = new HashMap<>();
    private final Set<String> rowNameSet = new HashSet<>();
    private int nextAssignedId;

    /** Forgets every group, name and assigned id (user ids are only given to groups added in code). */
    void clear() {
        drafts.clear();
        groupByName.clear();
        groupByAssignedId.clear();
        rowNameSet.clear();
        nextAssignedId = 0;
    }

    /** A new group added in code, named after its type and assigned id when no name is given. */
    GroupDraft newCodeGroup(ConstraintType type, String name, int userId) {
        GroupDraft d = newGroupDraft(name != null ? name : defaultName(type, nextAssignedId), type, userId, -1);
        if (userId != ConstraintSet.NO_ID) {
            groupByUserId.put(userId, drafts.size() - 1);
        }
        return d;
    }

    /** A new group under a name no group has yet. */
    GroupDraft newGroupDraft(String name, ConstraintType type, int userId, int modelConstraint) {
        if (groupByName.containsKey(name)) {
            throw new IllegalArgumentException("duplicate constraint name '" + name + "'");
        }
        GroupDraft d = new GroupDraft(name, type, userId, nextAssignedId, modelConstraint);
        drafts.add(d);
        groupByName.put(name, drafts.size() - 1);
        return d;
    }

    /** Rows of one add call joining the existing group {@code d}; returns the first row's assigned id. */
    int addRowsToGroup(GroupDraft d, String name, int userId, int count) {
        int assigned = nextAssignedId;
        int index = drafts.indexOf(d);
        if (name != null) {
            groupByName.put(name, index);
        }
        if (userId != ConstraintSet.NO_ID) {
            groupByUserId.put(userId, index);
        }
        registerRows(d, name, count);
        return assigned;
    }

    /** Names the rows of one add call and consumes their assigned ids. */
    void registerRows(GroupDraft d, String name, int count) {
        int index = drafts.indexOf(d);
        for (int k = 0; k < count; k++) {
            int assigned = nextAssignedId++;
            String rowName = name == null ? defaultName(d.type, assigned) : count == 1 ? name : name + "[" + k + "]";
            if (!rowNameSet.add(rowName)) {
                throw new IllegalArgumentException("duplicate constraint row name '" + rowName + "'");
            }
            d.rowNames.add(rowName);
            groupByAssignedId.put(assigned, index);
        }
    }

    /** The name of a row or group added without one: {@code type#assignedId}. */
    static String defaultName(ConstraintType type, int assigned) {
        return type.name().toLowerCase(java.util.Locale.ROOT) + "#" + assigned;
    }

    /** Refuses a name or user id already given in the set. */
    void checkNameAndId(String name, int userId) {
        if (name != null && (groupByName.containsKey(name) || rowNameSet.contains(name))) {
            throw new IllegalArgumentException("duplicate constraint name '" + name + "'");
        }
        if (userId != ConstraintSet.NO_ID && groupByUserId.containsKey(userId)) {
            throw new IllegalArgumentException("duplicate constraint id " + userId);
        }
    }
}
