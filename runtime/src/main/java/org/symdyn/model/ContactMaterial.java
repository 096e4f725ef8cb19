package org.symdyn.model;

/**
 * The contact material of one collision shape ({@code <symdyn:contact friction restitution/>} inside a
 * {@code <collision>}): Coulomb's μ ≥ 0 and Newton's restitution e in [0, 1].
 *
 * <p>Two shapes that touch combine their materials by {@link #combine}: μ = 2 μ_a μ_b / (μ_a + μ_b) (the harmonic
 * mean, as Drake combines dissipation-free friction; 0 when either is 0, and μ when both are μ), e = max(e_a, e_b)
 * (the bouncier material decides, as MuJoCo and Bullet do for restitution). A shape touching a
 * {@code <symdyn:ground>} combines with the ground's numbers by the same rule.
 *
 * @param friction    Coulomb's coefficient μ, finite and ≥ 0 (0: frictionless)
 * @param restitution Newton's coefficient e in [0, 1] (0: an inelastic impact)
 */
public record ContactMaterial(double friction, double restitution) {
    /** The material of a shape that states none: μ = 1, e = 0. */
    public static final ContactMaterial DEFAULT = new ContactMaterial(1, 0);

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
    }

    /** The combined material of a contact between this shape and {@code other} (see the class comment). */
    public ContactMaterial combine(ContactMaterial other) {
        return new ContactMaterial(combineFriction(friction, other.friction),
                Math.max(restitution, other.restitution));
    }

    /** μ = 2 μ_a μ_b / (μ_a + μ_b), 0 when both are 0. */
    public static double combineFriction(double a, double b) {
        double sum = a + b;
        return sum == 0 ? 0 : 2 * a * b / sum;
    }
}
