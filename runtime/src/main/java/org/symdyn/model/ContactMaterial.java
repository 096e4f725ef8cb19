package org.symdyn.model;

/**
 * The contact material of one collision shape ({@code <symdyn:contact friction restitution/>} inside a
 * {@code <collision>}): Coulomb's μ ≥ 0 and Newton's restitution e in [0, 1], and the rule by which its friction
 * combines with another shape's.
 *
 * <p>Two shapes that touch combine their materials by {@link #combine}: e = max(e_a, e_b) (the bouncier material
 * decides, as MuJoCo and Bullet do for restitution), and μ by the {@link FrictionRule} both materials name, the
 * harmonic mean μ = 2 μ_a μ_b / (μ_a + μ_b) where they name different ones. SymDyn's own is the harmonic mean (as
 * Drake combines dissipation-free friction; 0 when either is 0, and μ when both are μ); an MJCF file's geoms take
 * MuJoCo's ({@link FrictionRule#MAXIMUM}): the geom of higher {@code priority} decides, and between equal priorities
 * the larger coefficient and the larger {@code condim}, a pair of {@code condim} 1 being frictionless (a box of
 * μ 0.3 on MuJoCo's default floor of μ 1 holds with μ = 1, not 0.46); an SDFormat file's collisions take Gazebo's
 * ({@link FrictionRule#MINIMUM}: the smaller μ, as Gazebo's ODE and DART engines combine {@code <mu>}; a box of
 * μ 0.3 on a plane of μ 1 slides with μ = 0.3). A shape touching a {@code <symdyn:ground>} combines with the
 * ground's numbers, whose rule is the harmonic mean.
 *
 * @param friction     Coulomb's coefficient μ, finite and ≥ 0 (0: frictionless)
 * @param restitution  Newton's coefficient e in [0, 1] (0: an inelastic impact)
 * @param frictionRule how μ combines with another material's
 * @param priority     MuJoCo's geom {@code priority} (0 for other materials): under {@link FrictionRule#MAXIMUM}
 *                     the material of higher priority decides the pair's friction
 * @param condim       MuJoCo's geom {@code condim} (3 for other materials): under {@link FrictionRule#MAXIMUM} a
 *                     pair whose deciding {@code condim} is 1 is frictionless (torsional and rolling friction, 4
 *                     and 6, are not modelled: they act as 3)
 */
public record ContactMaterial(double friction, double restitution, FrictionRule frictionRule, int priority,
        int condim) {
    /** The material of a shape that states none: μ = 1, e = 0. */
    public static final ContactMaterial DEFAULT = new ContactMaterial(1, 0);

    /** How two materials' friction coefficients combine into a contact's. */
    public enum FrictionRule {
        /** μ = 2 μ_a μ_b / (μ_a + μ_b), 0 when both are 0: SymDyn's (URDF, code, and pairs of different rules). */
        HARMONIC_MEAN,
        /** MuJoCo's: the higher priority's μ, or max(μ_a, μ_b) between equal priorities; see {@code condim}. */
        MAXIMUM,
        /** Gazebo's (ODE and DART engines; SDFormat files): μ = min(μ_a, μ_b). */
        MINIMUM
    }

    /**
     * @throws IllegalArgumentException if μ is negative or not finite, or e is outside [0, 1]
     */
    public ContactMaterial {
        if (!(friction >= 0) || Double.isInfinite(friction)) {
            throw new IllegalArgumentException("friction " + friction + " must be a finite number >= 0");
        }
        if (!(restitution >= 0 && restitution <= 1)) {
            throw new IllegalArgumentException("restitution " + restitution + " must be in [0, 1]");
        }
        java.util.Objects.requireNonNull(frictionRule, "frictionRule");
        if (condim < 1) {
            throw new IllegalArgumentException("condim " + condim + " must be at least 1");
        }
    }

    /** A material whose friction combines by the harmonic mean. */
    public ContactMaterial(double friction, double restitution) {
        this(friction, restitution, FrictionRule.HARMONIC_MEAN);
    }

    /** A material of that rule, priority 0 and condim 3. */
    public ContactMaterial(double friction, double restitution, FrictionRule frictionRule) {
        this(friction, restitution, frictionRule, 0, 3);
    }

    /**
     * The combined material of a contact between this shape and {@code other} (see the class comment): the pair's
     * friction, the larger restitution, the harmonic-mean rule.
     */
    public ContactMaterial combine(ContactMaterial other) {
        return new ContactMaterial(combinedFriction(this, other), Math.max(restitution, other.restitution));
    }

    /** The friction of a contact between materials a and b (see the class comment), without allocating. */
    public static double combinedFriction(ContactMaterial a, ContactMaterial b) {
        if (a.frictionRule != b.frictionRule || a.frictionRule == FrictionRule.HARMONIC_MEAN) {
            return combineFriction(a.friction, b.friction);
        }
        if (a.frictionRule == FrictionRule.MINIMUM) {
            return Math.min(a.friction, b.friction);
        }
        if (a.priority != b.priority) {
            ContactMaterial decides = a.priority > b.priority ? a : b;
            return decides.condim == 1 ? 0 : decides.friction;
        }
        return Math.max(a.condim, b.condim) == 1 ? 0 : Math.max(a.friction, b.friction);
    }

    /** μ = 2 μ_a μ_b / (μ_a + μ_b), 0 when both are 0. */
    public static double combineFriction(double a, double b) {
        double sum = a + b;
        return sum == 0 ? 0 : 2 * a * b / sum;
    }
}
