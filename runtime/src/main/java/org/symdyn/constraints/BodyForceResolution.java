package org.symdyn.constraints;

/**
 * Resolves a bound set's multipliers into the spatial forces its constraints apply to the bodies involved (RBDL's
 * calcForces and calcImpulses): for a group with multipliers λ_group, Σ_k J_kᵀ f_k = G_groupᵀ λ_group, through the
 * group's row provider (a model group's resolver needs the set's {@link org.symdyn.model.Model} and kinematics). An
 * impulse solve's Λ enters as -Λ, since the impulse applied to the system is -Gᵀ Λ. See {@link ConstraintForces}
 * for frames and coordinates.
 */
final class BodyForceResolution {
    private final ConstraintSet set;
    private final ConstraintRows[] providers;
    private final boolean withKinematics;
    /** -Λ of every row. */
    private final double[] negatedImpulse;

    BodyForceResolution(ConstraintSet set, ConstraintRows[] providers, boolean withKinematics) {
        this.set = set;
        this.providers = providers;
        this.withKinematics = withKinematics;
        this.negatedImpulse = new double[set.size()];
    }

    /** A buffer large enough for the forces of any group. */
    ConstraintForces newForceBuffer() {
        int n = 1;
        for (ConstraintRows p : providers) {
            if (p != null) {
                n = Math.max(n, p.maxBodyForces());
            }
        }
        return new ConstraintForces(n);
    }

    /** The forces of the group's multipliers λ (all m rows given) at q. */
    void forces(int groupIndex, double[] q, double[] force, boolean inWorld, ConstraintForces out) {
        resolve(groupIndex, q, force, inWorld, out);
    }

    /** The impulses of the group's Λ (all m rows given) at q: those of -Λ. */
    void impulses(int groupIndex, double[] q, double[] impulse, boolean inWorld, ConstraintForces out) {
        for (int i = 0; i < negatedImpulse.length; i++) {
            negatedImpulse[i] = -impulse[i];
        }
        resolve(groupIndex, q, negatedImpulse, inWorld, out);
    }

    private void resolve(int groupIndex, double[] q, double[] multipliers, boolean inWorld, ConstraintForces out) {
        ConstraintGroup group = set.group(groupIndex);
        ConstraintRows p = providers[groupIndex];
        if (p == null) {
            throw new UnsupportedOperationException("constraint group '" + group.name() + "' (" + group.type()
                    + ") cannot be resolved into body forces here: "
                    + (!withKinematics ? "the data was bound without kinematics"
                    : "the set was built without the Model, whose constraint geometry this needs"));
        }
        p.bodyForces(q, multipliers, group.rowOffset(), inWorld, out);
    }
}
