package org.symdyn.contact;

/**
 * The exact Coulomb friction cone K_μ = {(λ_n, λ_t) : ‖λ_t‖ ≤ μ λ_n} in a contact's [n; t1; t2] coordinates, its
 * dual K_μ* = {(σ_n, σ_t) : μ ‖σ_t‖ ≤ σ_n}, and Euclidean projections on both (closed form for a second-order
 * cone). μ = 0 is the frictionless case: K_0 is the ray λ_t = 0, λ_n ≥ 0 and K_0* the half-space σ_n ≥ 0.
 */
public final class CoulombCone {
    private CoulombCone() {
    }

    /** Projects (x[o], x[o+1], x[o+2]) = (n, t1, t2) onto K_μ in place. */
    public static void project(double mu, double[] x, int o) {
        double n = x[o], a = x[o + 1], b = x[o + 2];
        double s = Math.sqrt(a * a + b * b);
        if (s <= mu * n) {
            return;
        }
        if (mu * s <= -n) {
            x[o] = 0;
            x[o + 1] = 0;
            x[o + 2] = 0;
            return;
        }
        double p = (n + mu * s) / (1 + mu * mu);
        x[o] = p;
        if (s > 0) {
            double f = mu * p / s;
            x[o + 1] = a * f;
            x[o + 2] = b * f;
        }
    }

    /** The distance of (n, t1, t2) from K_μ. */
    public static double distance(double mu, double n, double a, double b) {
        double s = Math.sqrt(a * a + b * b);
        if (s <= mu * n) {
            return 0;
        }
        if (mu * s <= -n) {
            return Math.sqrt(n * n + s * s);
        }
        // distance to the boundary ray of the (n, s) half-plane picture
        return Math.abs(s - mu * n) / Math.sqrt(1 + mu * mu);
    }

    /** The distance of (n, t1, t2) from the dual cone K_μ* = K_{1/μ} (the half-space n ≥ 0 for μ = 0). */
    public static double dualDistance(double mu, double n, double a, double b) {
        if (mu == 0) {
            return Math.max(-n, 0);
        }
        double s = Math.sqrt(a * a + b * b);
        double k = 1 / mu;
        if (s <= k * n) {
            return 0;
        }
        if (k * s <= -n) {
            return Math.sqrt(n * n + s * s);
        }
        return Math.abs(s - k * n) / Math.sqrt(1 + k * k);
    }

    /** Projects (t1, t2) = (x[o], x[o+1]) onto the disk of radius {@code radius} ≥ 0 in place. */
    static void projectDisk(double radius, double[] x, int o) {
        double a = x[o], b = x[o + 1];
        double s2 = a * a + b * b;
        if (s2 > radius * radius) {
            double f = radius / Math.sqrt(s2);
            x[o] = a * f;
            x[o + 1] = b * f;
        }
    }
}
