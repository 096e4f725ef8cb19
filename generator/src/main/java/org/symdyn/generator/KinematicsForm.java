package org.symdyn.generator;

/**
 * The forms of the methods whose unrolled source grows with n times the tree depth. PER_BODY: each body's
 * kinematics its own straight-line method from the root ({@link KinematicsMethods}), H unrolled, every fused
 * evaluation emitted. SHARED_PASSES (the large-model forms): the kinematics from straight-line passes over the tree
 * and small query methods ({@link SharedPassKinematics}), the second pass of the CRBA looped
 * ({@link LoopedMassMatrix}), the fused evaluations as the interface's separate calls; source linear in the bodies.
 */
public enum KinematicsForm {
    /**
     * Per body up to a sum over bodies of their depth of {@value SharedPassKinematics#MAX_PER_BODY_DEPTH_SUM}
     * (every shared model and sample), the large-model forms above it (long chains, large trees). The default: the
     * fastest queries where the source is affordable.
     */
    BY_SIZE,
    /**
     * Per-body kinematics, unrolled H, every fused evaluation emitted: a body's query computes its branch only, at
     * source quadratic in depth (arm7: 68 % of its class).
     */
    PER_BODY,
    /**
     * The kinematics from shared passes, the dynamics as {@link #BY_SIZE} chooses (H unrolled and the fused
     * evaluations emitted up to the bound; for a model without constraint rows one fused H and C, which the overload
     * with φ and φ̇ and the impulse system reach through the interface's defaults): a third of the source and half
     * of javac's time for a 7-dof arm, at the price of a whole-tree pass per kinematics query. Measured
     * interleaved against {@link #PER_BODY} (InterleavedAB --compare kinematics, 2 copies a side, 2026-12-02): arm7's
     * H, C, g, ID, FD equal (B/A 1.00-1.03), its tip's point Jacobian 1.41x, point position 1.45x, point velocity
     * 1.62x, a middle body's queries 1.97-2.14x. For builds that need the kinematics seldom or not in a tight loop.
     */
    COMPACT,
    /** Shared kinematics passes, looped CRBA, the fused evaluations as separate calls: linear source. */
    SHARED_PASSES;

    /** The form's name in options: lower case with hyphens ({@code per-body}). */
    public String optionName() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /**
     * The form named {@code name} in options ({@code by-size}, {@code per-body}, {@code compact},
     * {@code shared-passes}; any case, surrounding blanks ignored, as {@code ModelPart.ofOptionName} reads parts).
     *
     * @throws IllegalArgumentException naming the forms there are, if none is called so
     */
    public static KinematicsForm ofOptionName(String name) {
        for (KinematicsForm form : values()) {
            if (form.optionName().equalsIgnoreCase(name.strip())) {
                return form;
            }
        }
        throw new IllegalArgumentException("unknown form '" + name.strip() + "': the forms are by-size, per-body,"
                + " compact, shared-passes");
    }
}
