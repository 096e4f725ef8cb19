package org.symdyn.contact;

import java.util.ArrayList;
import java.util.List;
import org.symdyn.model.Body;
import org.symdyn.model.Joint;
import org.symdyn.model.Model;

/**
 * The position limits of a model's single-coordinate joints (revolute, prismatic) that have at least one finite
 * bound, in body order, as the contact problems' unilateral rows read them: one index per limited joint into
 * {@link #qIndex}, {@link #vIndex}, {@link #lower}, {@link #upper} (NaN for a missing bound, which never activates:
 * every comparison with NaN is false).
 */
final class JointLimits {
    static final JointLimits NONE = new JointLimits(List.of());

    final String[] name;
    final int[] qIndex;
    final int[] vIndex;
    final double[] lower;
    final double[] upper;

    private JointLimits(List<Joint> limited) {
        int n = limited.size();
        name = new String[n];
        qIndex = new int[n];
        vIndex = new int[n];
        lower = new double[n];
        upper = new double[n];
        for (int i = 0; i < n; i++) {
            Joint j = limited.get(i);
            name[i] = j.name();
            qIndex[i] = j.qIndex();
            vIndex[i] = j.vIndex();
            lower[i] = j.lower();
            upper[i] = j.upper();
        }
    }

    /** The limits of {@code model}'s joints; {@link #NONE} for null. */
    static JointLimits of(Model model) {
        if (model == null) {
            return NONE;
        }
        List<Joint> limited = new ArrayList<>();
        for (Body body : model.bodies()) {
            Joint j = body.joint();
            if (j.isLimited()) {
                limited.add(j);
            }
        }
        return new JointLimits(limited);
    }

    /** The number of limited joints. */
    int count() {
        return qIndex.length;
    }
}
