package org.symdyn.contact;

import java.util.function.Consumer;

/**
 * Settings of the time-stepping contact solve, immutable; {@link #defaults()} then withers.
 *
 * <table>
 * <caption>Settings and defaults</caption>
 * <tr><th>setting</th><th>default</th><th>meaning</th></tr>
 * <tr><td>{@link #solver}</td><td>ADMM</td><td>{@link ProximalAdmm} or {@link ProjectedGaussSeidel}. ADMM is the
 * default because it converged on every analytic case of the tests; PGS stalls on a box that starts to slide on
 * four corners within half a degree of tan θ = μ (1.4e-10 m/s after 500 sweeps; 423 sweeps to stick at
 * tan θ = μ − 0.5°), the redundant near-threshold case
 * Gauss-Seidel is known to be slow on</td></tr>
 * <tr><td>{@link #tolerance}</td><td>1e-12 m/s</td><td>contact-law violation a solve must reach (see
 * {@link ContactReport}); tight because a sliding contact's error accumulates in the state step after step</td></tr>
 * <tr><td>{@link #maxIterations}</td><td>500</td><td>sweeps or iterations at most; a solve that stops there is
 * reported as not converged</td></tr>
 * <tr><td>{@link #margin}</td><td>1e-3 m</td><td>a pair is a contact of the step when its gap, predicted at the
 * end of the step from the current approach speed, is at most this</td></tr>
 * <tr><td>{@link #penetrationRecovery}</td><td>0.2</td><td>the fraction β of a penetration (gap &lt; 0) or of a
 * bilateral position error removed per step (u_n ≥ −β φ / h); a gap ≥ 0 may close in one step exactly
 * (u_n ≥ −φ / h)</td></tr>
 * <tr><td>{@link #penetrationSlop}</td><td>0 m</td><td>the depth δ a contact may keep: a penetration is
 * recovered down to δ, not further (u_n ≥ −β min(0, φ + δ) / h, {@link #contactOffset}). Give a pile of bodies
 * a fraction of a micrometre: recovering the last of it asks each step for separating speeds above the solve's
 * tolerance on contacts that rounding alone makes penetrate, and a pile never comes to rest (100 boxes in a bin:
 * 100-180 sweeps a step at 1e-6 m/s, half of the solves at their bound of 200, with δ = 0; 2-3 sweeps with
 * δ = 1e-7 m, the same with 1e-6 or 1e-5; {@code PileStepBenchmark}). Zero by default: a body at rest then sits
 * at the offset's kink at φ = 0, where {@link StepDerivatives} takes the mean of the two sides' slopes
 * ({@link #contactOffsetSlope}, which lists the kinks); with δ &gt; 0 it rests near −δ instead, where the slope falls
 * from β/h to 0. Contacts only;
 * bilateral rows and joint limits are recovered fully</td></tr>
 * <tr><td>{@link #maxRecoverySpeed}</td><td>0.3 m/s</td><td>the fastest a penetration is recovered: u_n ≥
 * min(−β min(0, φ + δ) / h, v̄). The velocity that recovers a penetration stays in the state once it is recovered,
 * and without a bound it grows as 1/h: a box started 1 cm into the floor left it at 20 m/s with h = 0.1 ms and rose
 * 15 m. Bounded, a body pops up at most v̄² / 2g (4.6 mm under gravity). Penetrations that small steps make
 * (β |φ| / h below v̄) are recovered as before. 0.1 m/s recovered six boxes started interpenetrating in a pile too
 * slowly for ADMM: 70 solves of 400 stopped unconverged, against 22-36 with 0.3 m/s, 1 m/s or no bound. Contacts
 * only: joint limits are not bounded (a joint started 0.53 rad past its limit turns at 107 rad/s with h = 1 ms,
 * which {@code symdyn simulate} warns about), because bounding them stalled trajectory optimisation through the
 * step's derivatives (the iLQR sample's arm, h = 10 ms, ran out of its 200 iterations, where it converges
 * without), and bilateral rows are not (a loop is assembled before it is simulated)</td></tr>
 * <tr><td>{@link #restitutionThreshold}</td><td>1e-2 m/s</td><td>Newton's restitution applies to impacts faster
 * than this; slower ones are inelastic (no jitter at rest)</td></tr>
 * <tr><td>{@link #admmPenalty} / {@link #admmProximal}</td><td>0.1 / 1e-6</td><td>ρ₀ and η of ADMM relative to W's
 * largest diagonal entry</td></tr>
 * </table>
 */
public record ContactSettings(Solver solver, double tolerance, int maxIterations, double margin,
        double penetrationRecovery, double penetrationSlop, double maxRecoverySpeed, double restitutionThreshold,
        double admmPenalty, double admmProximal) {

    /** The contact solver. */
    public enum Solver {
        /** Block projected Gauss-Seidel on the exact cone ({@link ProjectedGaussSeidel}). */
        PGS,
        /** Proximal ADMM on the exact cone with De Saxcé's correction ({@link ProximalAdmm}). */
        ADMM
    }

    public ContactSettings {
        if (solver == null) {
            throw new IllegalArgumentException("solver is null");
        }
        if (!(tolerance > 0) || Double.isInfinite(tolerance)) {
            throw new IllegalArgumentException("tolerance " + tolerance + " must be a positive number (m/s)");
        }
        if (maxIterations < 1) {
            throw new IllegalArgumentException("maxIterations " + maxIterations + " must be at least 1");
        }
        if (!(margin >= 0) || Double.isInfinite(margin)) {
            throw new IllegalArgumentException("margin " + margin + " must be a finite number >= 0 (m)");
        }
        if (!(penetrationRecovery >= 0 && penetrationRecovery <= 1)) {
            throw new IllegalArgumentException("penetrationRecovery " + penetrationRecovery + " must be in [0, 1]");
        }
        if (!(penetrationSlop >= 0) || Double.isInfinite(penetrationSlop)) {
            throw new IllegalArgumentException("penetrationSlop " + penetrationSlop + " must be a finite number >= 0 (m)");
        }
        if (!(maxRecoverySpeed > 0)) {
            throw new IllegalArgumentException("maxRecoverySpeed " + maxRecoverySpeed + " must be > 0 (m/s; infinity:"
                    + " unbounded)");
        }
        if (!(restitutionThreshold >= 0) || Double.isInfinite(restitutionThreshold)) {
            throw new IllegalArgumentException("restitutionThreshold " + restitutionThreshold + " must be >= 0 (m/s)");
        }
        if (!(admmPenalty > 0) || !(admmProximal >= 0) || Double.isInfinite(admmPenalty)
                || Double.isInfinite(admmProximal)) {
            throw new IllegalArgumentException("admmPenalty must be positive and admmProximal >= 0, both finite; got "
                    + admmPenalty + " and " + admmProximal);
        }
    }

    /** The defaults of the table above. */
    public static ContactSettings defaults() {
        return new ContactSettings(Solver.ADMM, 1e-12, 500, 1e-3, 0.2, 0, 0.3, 1e-2, 0.1, 1e-6);
    }

    /** These settings with another solver. */
    public ContactSettings solver(Solver s) {
        return with(d -> d.solver = s);
    }

    /** These settings with another tolerance (m/s). */
    public ContactSettings tolerance(double t) {
        return with(d -> d.tolerance = t);
    }

    /** These settings with another iteration limit. */
    public ContactSettings maxIterations(int n) {
        return with(d -> d.maxIterations = n);
    }

    /** These settings with another margin (m). */
    public ContactSettings margin(double m) {
        return with(d -> d.margin = m);
    }

    /** These settings with another penetration recovery β. */
    public ContactSettings penetrationRecovery(double beta) {
        return with(d -> d.penetrationRecovery = beta);
    }

    /** These settings with another penetration slop δ (m). */
    public ContactSettings penetrationSlop(double delta) {
        return with(d -> d.penetrationSlop = delta);
    }

    /** These settings with another bound v̄ on a penetration's recovery speed (m/s; infinity: unbounded). */
    public ContactSettings maxRecoverySpeed(double speed) {
        return with(d -> d.maxRecoverySpeed = speed);
    }

    /**
     * The offset ω of a contact's normal row at gap φ for a step h: its law is u_n + ω ≥ 0 (u_n the normal
     * velocity at the end of the step). ω = φ / h for φ ≥ 0 (the gap may close within the step, never more),
     * ω = max(β min(0, φ + δ) / h, −v̄) for a penetration (β {@link #penetrationRecovery}, δ
     * {@link #penetrationSlop}, v̄ {@link #maxRecoverySpeed}). Restitution may lower it further ({@link TimeStepper}).
     */
    public double contactOffset(double gap, double h) {
        return gap >= 0 ? gap / h : Math.max(penetrationRecovery * Math.min(0, gap + penetrationSlop) / h,
                -maxRecoverySpeed);
    }

    /**
     * How close to a kink of {@link #contactOffset} or {@link #limitOffset} a gap counts as at it (m, or rad for a
     * revolute limit), for the slopes: a contact or a limit at rest sits at a kink to rounding. Exact contact keeps
     * a resting body at φ = 0 (u_n = 0), and a recovered penetration tends to 0 (or −δ) by 1 − β a step, so the gap
     * of a body at rest is a few ulps either side of the kink; the slope there was β/h or 1/h by the sign of that
     * rounding (a box resting on another: ∂v_z⁺/∂z −200 or −1000 at h = 1 ms). Within this band a contact's slope
     * is the mean of the kink's two sides ({@link #contactOffsetSlope}) and a limit's that of the range's side
     * ({@link #limitOffsetSlope}).
     */
    public static final double KINK_BAND = 1e-12;

    /**
     * ∂ω/∂φ of {@link #contactOffset} at gap φ: 1/h, β/h below −δ, 0 between and where the recovery speed is bounded.
     * At the kinks where a body rests, φ = 0 and φ = −δ (within {@link #KINK_BAND}), the slope is the mean of the
     * two sides' ((1 + β) / 2h at 0 without slop): what central differences of the step give there, for every
     * direction at once. A one-sided slope matches the one-sided differences only of directions that move every
     * resting contact the same way: a tilt lifts some contacts and presses others, and a settled solo12 gave
     * ∂ω_x⁺/∂roll 62.3 on the gap's side where both one-sided differences give 37.4. At the bound of the recovery
     * speed, β (φ + δ) / h = −v̄, where nothing rests, the slope is β/h.
     */
    public double contactOffsetSlope(double gap, double h) {
        double beta = penetrationRecovery / h;
        if (gap > KINK_BAND) {
            return 1 / h;
        }
        if (gap >= -KINK_BAND) {
            // just below 0 the slope is 0 within a slop wider than the band, else β/h
            return (1 / h + (penetrationSlop > KINK_BAND ? 0 : beta)) / 2;
        }
        double recovered = gap + penetrationSlop;
        if (recovered > KINK_BAND) {
            return 0;
        }
        if (recovered >= -KINK_BAND) {
            return beta / 2; // the mean of the slop's 0 and the recovery's β/h
        }
        return penetrationRecovery * recovered / h < -maxRecoverySpeed ? 0 : beta;
    }

    /**
     * The offset of a joint-limit row at its distance φ from the bound (negative past it): φ / h for φ ≥ 0, β φ / h
     * past the bound (no slop, and not bounded by {@link #maxRecoverySpeed}: see there).
     */
    public double limitOffset(double gap, double h) {
        return gap >= 0 ? gap / h : penetrationRecovery * gap / h;
    }

    /**
     * ∂/∂φ of {@link #limitOffset}: 1/h, β/h past the bound; at the bound (φ within {@link #KINK_BAND} of 0: a joint
     * resting on its limit) 1/h, the side within the range. Unlike a contact's ({@link #contactOffsetSlope}), one
     * side serves: a limit's φ is one joint's coordinate, so every direction moves it one way, and the derivative is
     * the one-sided limit into the range of every direction that moves it. (The mean of the two sides, tried, moved
     * the arm of the iLQR sample off its target's stop: 0.19 rad/s left at t = 1 s.)
     */
    public double limitOffsetSlope(double gap, double h) {
        return gap >= -KINK_BAND ? 1 / h : penetrationRecovery / h;
    }

    /** These settings with another restitution threshold (m/s). */
    public ContactSettings restitutionThreshold(double speed) {
        return with(d -> d.restitutionThreshold = speed);
    }

    /** These settings with another ADMM penalty ρ₀ and proximal weight η. */
    public ContactSettings admm(double penalty, double proximal) {
        return with(d -> {
            d.admmPenalty = penalty;
            d.admmProximal = proximal;
        });
    }

    /** A copy of these settings with what {@code change} sets in its draft, checked by the constructor. */
    private ContactSettings with(Consumer<Draft> change) {
        Draft d = new Draft(this);
        change.accept(d);
        return new ContactSettings(d.solver, d.tolerance, d.maxIterations, d.margin, d.penetrationRecovery,
                d.penetrationSlop, d.maxRecoverySpeed, d.restitutionThreshold, d.admmPenalty, d.admmProximal);
    }

    /** The record's components, writable: what a wither changes before the copy is made. */
    private static final class Draft {
        Solver solver;
        double tolerance;
        int maxIterations;
        double margin;
        double penetrationRecovery;
        double penetrationSlop;
        double maxRecoverySpeed;
        double restitutionThreshold;
        double admmPenalty;
        double admmProximal;

        Draft(ContactSettings s) {
            solver = s.solver;
            tolerance = s.tolerance;
            maxIterations = s.maxIterations;
            margin = s.margin;
            penetrationRecovery = s.penetrationRecovery;
            penetrationSlop = s.penetrationSlop;
            maxRecoverySpeed = s.maxRecoverySpeed;
            restitutionThreshold = s.restitutionThreshold;
            admmPenalty = s.admmPenalty;
            admmProximal = s.admmProximal;
        }
    }

    /**
     * A solver of these settings for problems of at most {@code capacity} rows (with a dense W). ADMM's solves that do
     * not converge are solved again by PGS from the same warm start, and the answer that violates the contact law
     * less is kept ({@code FallbackSolver}).
     */
    public ContactSolver newSolver(int capacity) {
        return solver == Solver.PGS ? new ProjectedGaussSeidel(capacity, tolerance, maxIterations)
                : new FallbackSolver(new ProximalAdmm(capacity, tolerance, maxIterations, admmPenalty, admmProximal),
                        new ProjectedGaussSeidel(capacity, tolerance, maxIterations), capacity);
    }

    /**
     * A solver of these settings for problems whose W is a {@link SparseDelassus} of {@code nv} dofs, at most
     * {@code capacity} rows and {@code maxEntries} support entries: PGS as for a dense W; ADMM with a
     * {@link SparseNormalMatrix} whose factor may hold min(nv², {@value #SPARSE_FACTOR_BOUND}) numbers (nv² always
     * suffices; the bound keeps its arrays, three of doubles and two of ints of that length, within 64 MB for a
     * model beyond 1,448 dofs, whose solve then says so if its contacts fill more; a pile of 100 boxes, 600 dofs,
     * filled 6,624).
     */
    public ContactSolver newSparseSolver(int capacity, int nv, int maxEntries) {
        if (solver == Solver.PGS) {
            return new ProjectedGaussSeidel(capacity, tolerance, maxIterations);
        }
        int nonZeros = (int) Math.max(1, Math.min((long) nv * nv, SPARSE_FACTOR_BOUND));
        return new FallbackSolver(new ProximalAdmm(capacity, new SparseNormalMatrix(nv, capacity, maxEntries,
                nonZeros), tolerance, maxIterations, admmPenalty, admmProximal),
                new ProjectedGaussSeidel(capacity, tolerance, maxIterations), capacity);
    }

    /** The most numbers the factor of a sparse ADMM solver of {@link #newSparseSolver} holds: 2²¹. */
    public static final int SPARSE_FACTOR_BOUND = 1 << 21;
}
