package org.symdyn.constraints;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.symdyn.contract.ConstraintType;
import org.symdyn.spatial.Pose;

/**
 * A group of a {@link ConstraintSet} while it is being built: its name, type, ids, row names and Baumgarte defaults,
 * and what its rows are made of (a contact's body point and normals, a loop's frames and axes, or a supplier of
 * providers), from which every bind makes fresh row providers.
 */
final class GroupDraft {
    final String name;
    final ConstraintType type;
    final int userId;
    final int assignedId;
    final int modelConstraint;
    final List<String> rowNames = new ArrayList<>();
    boolean baumgarte;
    double alpha = 1 / ConstraintGroup.DEFAULT_TIME_CONSTANT;
    double beta = 1 / ConstraintGroup.DEFAULT_TIME_CONSTANT;
    // Code groups: what the rows are made of (one of these).
    int contactBody = -2;
    double[] contactPoint;
    final List<double[]> directions = new ArrayList<>();
    int loopPredecessor;
    Pose loopPredecessorFrame;
    int loopSuccessor;
    Pose loopSuccessorFrame;
    Supplier<ConstraintRows> supplier;

    GroupDraft(String name, ConstraintType type, int userId, int assignedId, int modelConstraint) {
        this.name = name;
        this.type = type;
        this.userId = userId;
        this.assignedId = assignedId;
        this.modelConstraint = modelConstraint;
    }

    void setTimeConstant(double t) {
        alpha = beta = 1 / t;
    }

    /** Fresh providers per bind, so that one set binds many data (one per thread). */
    Supplier<ConstraintRows> rowsSupplier() {
        if (modelConstraint >= 0) {
            return null;
        }
        if (type == ConstraintType.CONTACT && supplier == null) {
            int body = contactBody;
            double[] point = contactPoint;
            List<double[]> normals = List.copyOf(directions);
            return () -> {
                ContactRows r = new ContactRows(body, point, normals.get(0));
                for (int k = 1; k < normals.size(); k++) {
                    r.addNormal(normals.get(k));
                }
                return r;
            };
        }
        if (type == ConstraintType.LOOP && supplier == null) {
            int p = loopPredecessor;
            int s = loopSuccessor;
            Pose pf = loopPredecessorFrame;
            Pose sf = loopSuccessorFrame;
            List<double[]> axes = List.copyOf(directions);
            return () -> {
                LoopRows r = new LoopRows(p, pf, s, sf, axes.get(0));
                for (int k = 1; k < axes.size(); k++) {
                    r.addAxis(axes.get(k));
                }
                return r;
            };
        }
        return supplier;
    }
}
