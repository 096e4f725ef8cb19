package org.symdyn.contact;

import java.util.Arrays;
import java.util.Objects;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.contract.Dynamics;
import org.symdyn.model.Model;

/**
 * The acceleration-level constraint problem of one state (q, v, τ): the data of the seed's
 * {@code ConstraintAccelProblemData} (Drake), computed with {@link ContactKinematics}, for
 * {@link AccelerationProblemSolver}.
 *
 * <h2>Equations (the seed's sign conventions; SI units: v̇ in the model's velocity units per second, forces in N
 * along unit contact directions, N·m or N for joint limits)</h2>
 * <pre>
 *   H v̇ = τ̂ + (Nᵀ − μQᵀ) f_N + Fᵀ f_F⁺ − Fᵀ f_F⁻ + Lᵀ f_L + Gᵀ f_G          τ̂ = τ − C(q, v)
 *   0 ≤ N v̇ + kN             ⊥ f_N ≥ 0            every contact (nc)
 *   0 ≤ ±F v̇ ± kF + λ e      ⊥ f_F± ≥ 0           non-sliding contacts: r spanning directions, negated by the
 *                                                  solver (2r edges of a polygonal cone, Anitescu and Potra 1997)
 *   0 ≤ μ f_N − eᵀ (f_F⁺ + f_F⁻) ⊥ λ ≥ 0          non-sliding contacts with μ &gt; 0
 *   0 ≤ L v̇ + kL             ⊥ f_L ≥ 0            joints at a limit
 *   0 = G v̇ + kG                                   bilateral rows (a bound {@link ConstraintData}: kG = −γ)
 * </pre>
 * The friction of a sliding contact is −μ f_N along its unit sliding direction: the row of Q is the Jacobian of
 * the tangential velocity's direction ŝ = u_t / |u_t| (u_t = J_t v, world), so Q v = |u_t| &gt; 0 and the force
 * −μ f_N ŝ opposes the slip. Rows of Q of non-sliding contacts are zero.
 *
 * <h2>Which constraints are in the problem ({@link #update})</h2>
 * <ul>
 * <li>a contact (a candidate-ground pair of the {@link ContactSet}) whose gap φ ≤ {@link #setContactMargin margin}
 * (default 1e-6 m) and whose normal velocity u_n = n · ṗ ≤ {@link #setNormalVelocityTolerance tolerance} (default
 * 1e-6 m/s; a separating contact is not in the problem);</li>
 * <li>it is <b>sliding</b> when its tangential speed |u_t| exceeds the {@link #setSlidingTolerance sliding tolerance}
 * (default 1e-6 m/s), else <b>non-sliding</b>, with r spanning directions (default 2: t1 and t2 of the contact frame,
 * a 4-edge pyramid; {@link #setSpanningDirections r}: d_k = cos(πk/r) t1 + sin(πk/r) t2, k = 0 … r−1, a 2r-edge
 * polygon inscribed in the circle). A non-sliding contact with μ = 0 has r = 0 (no friction rows);</li>
 * <li>a <b>joint limit</b> (single-degree-of-freedom joints of the model given at construction, each finite bound
 * on its own) when q_j is within the limit margin (default 1e-6) of the bound, or beyond it, and v_j does not leave
 * it by more than the tolerance: lower bound row L = +e_j, upper bound row −e_j, kL = 0 (L is constant);</li>
 * <li>the <b>bilateral</b> rows of a bound {@link ConstraintData} (all of them, every state): G and kG = −γ
 * (γ with its Baumgarte terms, if enabled).</li>
 * </ul>
 * A caller may instead fix the contacts and their sliding state pair by pair ({@link #setPairModes}), and the
 * contacts between collision shapes as held material points, each with its mode
 * ({@link #setPairModes(int[], double[], HeldShapeContacts)}); the continuous-time system does, to keep them over an
 * integrator step.
 * The k-terms of the contacts are the bias accelerations of {@link ContactKinematics#accelerationBias} projected
 * on the rows (k = row · (J̇_c v − r α_b × n)), so that u̇ = row · v̇ + k is the contact point's acceleration along
 * the row; no stabilisation is added unless {@link #setContactStabilization} asks for it.
 *
 * <h2>Seed name → accessor</h2>
 * <table>
 * <caption>ConstraintAccelProblemData fields</caption>
 * <tr><th>seed</th><th>here</th></tr>
 * <tr><td>sliding_contacts</td><td>{@link #slidingContacts()} (first {@link #slidingCount()} entries, sorted)</td></tr>
 * <tr><td>non_sliding_contacts</td><td>{@link #nonSlidingContacts()} (first {@link #nonSlidingCount()}, sorted)</td></tr>
 * <tr><td>r</td><td>{@link #spanningDirections(int)} per non-sliding contact</td></tr>
 * <tr><td>mu_sliding, mu_non_sliding</td><td>{@link #muSliding(int)}, {@link #muNonSliding(int)}; {@link #mu(int)} by contact</td></tr>
 * <tr><td>tau</td><td>{@link #tau()} = τ − C(q, v)</td></tr>
 * <tr><td>solve_inertia</td><td>{@link #solveInertia()} (factored H; {@link InertiaSolve#solve})</td></tr>
 * <tr><td>N_mult, kN</td><td>{@link #N()} (nc x nv), {@link #kN()}</td></tr>
 * <tr><td>N_minus_muQ_transpose_mult</td><td>{@link #Q()} (nc x nv) with {@link #mu(int)}: Nᵀ − μ Qᵀ</td></tr>
 * <tr><td>F_mult, F_transpose_mult, kF</td><td>{@link #F()} (nnr x nv), {@link #kF()}; row owner {@link #frictionContact(int)}</td></tr>
 * <tr><td>L_mult, L_transpose_mult, kL</td><td>{@link #L()} (nu x nv), {@link #kL()}</td></tr>
 * <tr><td>G_mult, G_transpose_mult, kG</td><td>{@link #G()} (nb x nv), {@link #kG()}</td></tr>
 * <tr><td>use_complementarity_problem_solver</td><td>always true here (the solver is Lemke's)</td></tr>
 * </table>
 * Matrices are row-major {@code double[]} with nv columns, valid up to their counts; they are live buffers (read
 * only). Contact indices 0 … nc−1 are this problem's; {@link #kinematicsIndex(int)} gives the
 * {@link ContactKinematics} index and {@link #contactName(int)} the pair's name.
 *
 * <p>Allocated at construction for every pair of the set; {@link #update} does not allocate. Not thread-safe.
 */
public final class AccelerationProblemData {
    /** {@link #setPairModes} mode: the pair is not in the problem. */
    public static final int PAIR_OUT = 0;
    /** {@link #setPairModes} mode: the pair is a non-sliding contact (friction rows of the polygonal cone). */
    public static final int PAIR_NON_SLIDING = 1;
    /** {@link #setPairModes} mode: the pair is a sliding contact (friction −μ f_N ŝ). */
    public static final int PAIR_SLIDING = 2;
    /** {@link #setPairModes} mode: a sliding contact whose friction −μ f_N ŝ_ref keeps the reference direction. */
    public static final int PAIR_SLIDING_FIXED = 3;

    private final ContactKinematics contacts;
    private final Dynamics dynamics;
    private final ConstraintData bilateral;
    private final int nv;
    private final int pairCapacity;
    private final int contactCapacity; // pairs and shape contacts

    private final LimitRows limits;
    private final FrictionRows friction;

    private double contactMargin = 1e-6;
    private double normalVelocityTolerance = 1e-6;
    private double slidingTolerance = 1e-6;
    private double stabilization;
    private int[] pairModes;
    private double[] slideReference;
    private HeldShapeContacts held;
    private final boolean[] pairSelected;

    private final DMatrixRMaj massMatrix;
    private final double[] bias;
    private final double[] tau;
    private final InertiaSolve inertia;
    private final double[] contactVelocity;
    private final double[] contactBias;

    private int nc;
    private int ns;
    private int nns;
    private int nb;
    private final int[] kinIndex;
    private final int[] sliding;
    private final int[] nonSliding;
    private final boolean[] isSliding;
    private final double[] muByContact;
    private final int[] rByContact;
    private final int[] frictionStart;
    private final double[] slideDirection; // 3 per contact, world (zero for non-sliding)
    private final double[] n;
    private final double[] qRows;
    private final double[] kn;
    private final double[] g;
    private final double[] kg;

    /** Contacts only (no limits, no bilateral rows). */
    public AccelerationProblemData(ContactKinematics contacts, Dynamics dynamics) {
        this(contacts, dynamics, null, null);
    }

    /**
     * @param contacts  the contact kinematics of the model (its own instance: {@link #update} updates it)
     * @param dynamics  the model's dynamics (H and C), any backend
     * @param limitsOf  the model whose single-dof joints' position limits become unilateral rows, or null
     * @param bilateral bound bilateral constraints of the same model, or null; when given, its
     *                  {@link ConstraintData#computeSystem} provides H, C, G and γ in one call
     */
    public AccelerationProblemData(ContactKinematics contacts, Dynamics dynamics, Model limitsOf,
            ConstraintData bilateral) {
        this.contacts = Objects.requireNonNull(contacts, "contacts");
        this.dynamics = Objects.requireNonNull(dynamics, "dynamics");
        this.bilateral = bilateral;
        this.nv = dynamics.nv();
        if (contacts.nv() != nv) {
            throw new IllegalArgumentException("contact kinematics has " + contacts.nv() + " velocities, the dynamics "
                    + nv);
        }
        if (bilateral != null && bilateral.nv() != nv) {
            throw new IllegalArgumentException("bilateral constraints have " + bilateral.nv() + " velocities, the"
                    + " dynamics " + nv);
        }
        if (limitsOf != null && limitsOf.nv() != nv) {
            throw new IllegalArgumentException("model " + limitsOf.name() + " has " + limitsOf.nv()
                    + " velocities, the dynamics " + nv);
        }
        limits = new LimitRows(JointLimits.of(limitsOf), nv);
        pairCapacity = contacts.set().pairCount();
        contactCapacity = contacts.capacity();
        massMatrix = new DMatrixRMaj(nv, nv);
        bias = new double[nv];
        tau = new double[nv];
        inertia = new InertiaSolve(nv, 1);
        contactVelocity = new double[3 * Math.max(1, contactCapacity)];
        contactBias = new double[3 * Math.max(1, contactCapacity)];
        int pc = Math.max(1, contactCapacity);
        kinIndex = new int[pc];
        pairSelected = new boolean[pairCapacity];
        sliding = new int[pc];
        nonSliding = new int[pc];
        isSliding = new boolean[pc];
        muByContact = new double[pc];
        rByContact = new int[pc];
        frictionStart = new int[pc];
        slideDirection = new double[3 * pc];
        n = new double[pc * nv];
        qRows = new double[pc * nv];
        kn = new double[pc];
        int gb = bilateral == null ? 0 : bilateral.size();
        g = new double[Math.max(1, gb) * nv];
        kg = new double[Math.max(1, gb)];
        friction = new FrictionRows(nv, contactCapacity);
    }

    // ------------------------------------------------------------------ settings (set-up calls)

    /** Contacts with gap ≤ margin (m) are candidates for the problem. */
    public void setContactMargin(double margin) {
        contactMargin = requireNonNegative(margin, "contact margin");
    }

    /** Contacts separating faster than this (m/s) are not in the problem. */
    public void setNormalVelocityTolerance(double tolerance) {
        normalVelocityTolerance = requireNonNegative(tolerance, "normal velocity tolerance");
    }

    /** Contacts whose tangential speed exceeds this (m/s) are sliding. */
    public void setSlidingTolerance(double tolerance) {
        slidingTolerance = requireNonNegative(tolerance, "sliding tolerance");
    }

    /**
     * Baumgarte stabilisation of the contacts' normal rows with time constant T (s; 0, the default, is none): the
     * normal condition becomes 0 ≤ u̇_n + 2 u_n / T + φ / T² ⊥ f_N ≥ 0, i.e. kN += 2 u_n / T + φ / T², so that a
     * contact's drift in gap and normal velocity (rounding, or an integrator's error) decays with T instead of
     * accumulating. Zero at an exact contact (φ = u_n = 0).
     */
    public void setContactStabilization(double timeConstant) {
        stabilization = requireNonNegative(timeConstant, "contact stabilisation time constant");
    }

    /** A joint within this distance of a bound (rad or m) is at its limit. */
    public void setLimitMargin(double margin) {
        limits.setMargin(requireNonNegative(margin, "limit margin"));
    }

    /** A joint leaving its bound faster than this (rad/s or m/s) is not limited. */
    public void setLimitVelocityTolerance(double tolerance) {
        limits.setVelocityTolerance(requireNonNegative(tolerance, "limit velocity tolerance"));
    }

    /**
     * The number r ≥ 1 of spanning directions per non-sliding contact (a 2r-edge polygon); reallocates the F
     * buffers (a set-up call). Default 2.
     */
    public void setSpanningDirections(int r) {
        if (r < 1) {
            throw new IllegalArgumentException("spanning directions " + r + " must be >= 1");
        }
        friction.setSpanning(r);
    }

    /**
     * Fixes which pairs are in the problem and how, in place of the gap, margin and sliding-speed tests of
     * {@link #update} (a caller that keeps the active set over an interval, such as an integrator step; null
     * restores the automatic choice). A pair marked {@link #PAIR_NON_SLIDING} or {@link #PAIR_SLIDING} is a contact
     * whatever its gap and normal velocity for as long as the modes say so (dropped where an intermediate state, such
     * as a Runge-Kutta stage, shows it separating, a box landing tilted on two corners would sink);
     * a closed pair that separates faster than the {@link #setNormalVelocityTolerance normal velocity tolerance}
     * gets no stabilisation term, only f_N ≥ 0 ⊥ u̇_n ≥ 0. A sliding pair
     * slides along its current tangential velocity ŝ = u_t / |u_t| while u_t · ŝ_ref &gt; 0, and along its reference
     * ŝ_ref once the slip has stopped or turned by 90° or more (the caller's event: the mode is out of date there); a
     * {@link #PAIR_SLIDING_FIXED} pair always along ŝ_ref. The arrays are the caller's and are read at every update
     * (live).
     *
     * @param modes          one of {@link #PAIR_OUT}, {@link #PAIR_NON_SLIDING}, {@link #PAIR_SLIDING},
     *                       {@link #PAIR_SLIDING_FIXED} per pair of the {@link ContactSet}, or null
     * @param slideReference two per pair: the (t1, t2) components of the unit reference direction ŝ_ref of a sliding
     *                       pair (contact frame of {@link ContactKinematics}); read for sliding pairs only
     */
    public void setPairModes(int[] modes, double[] slideReference) {
        held = null;
        if (modes == null) {
            pairModes = null;
            this.slideReference = null;
            return;
        }
        if (modes.length != pairCapacity || slideReference == null || slideReference.length != 2 * pairCapacity) {
            throw new IllegalArgumentException("pair modes need " + pairCapacity + " modes and " + 2 * pairCapacity
                    + " reference components, got " + modes.length + " and "
                    + (slideReference == null ? "null" : String.valueOf(slideReference.length)));
        }
        pairModes = modes;
        this.slideReference = slideReference;
    }

    /**
     * As {@link #setPairModes(int[], double[])}, and the contacts between collision shapes are the held ones whose
     * mode is not {@link #PAIR_OUT} ({@link HeldShapeContacts}: fixed as material points by the caller, each with its
     * mode and reference direction, read the same way as a pair's), after the pairs. Live: read at every update.
     *
     * @param held the held shape contacts, or null: none (as {@link #setPairModes(int[], double[])})
     * @throws IllegalArgumentException as {@link #setPairModes(int[], double[])}, or for held contacts of another set
     *                                  or without modes
     */
    public void setPairModes(int[] modes, double[] slideReference, HeldShapeContacts held) {
        if (held != null && modes == null) {
            throw new IllegalArgumentException("held shape contacts need pair modes");
        }
        if (held != null && held.set() != contacts.set()) {
            throw new IllegalArgumentException("the held shape contacts are of another contact set (of "
                    + held.set().modelName() + ") than this problem's contact kinematics");
        }
        setPairModes(modes, slideReference);
        this.held = held;
    }

    private static double requireNonNegative(double x, String what) {
        if (!(x >= 0) || Double.isInfinite(x)) {
            throw new IllegalArgumentException(what + " " + x + " must be a finite number >= 0");
        }
        return x;
    }

    // ------------------------------------------------------------------ update

    /**
     * Computes the problem data at (q, v) with applied generalised forces τ (nv; not including C): H and its
     * factor, τ̂ = τ − C, the contacts and their rows, the limits and the bilateral rows. Allocation-free.
     *
     * @throws IllegalStateException if H is not positive definite
     */
    public void update(double[] q, double[] v, double[] tauApplied) {
        if (bilateral != null) {
            bilateral.computeSystem(q, v);
            System.arraycopy(bilateral.H().data, 0, massMatrix.data, 0, nv * nv);
            System.arraycopy(bilateral.C(), 0, bias, 0, nv);
            nb = bilateral.size();
            System.arraycopy(bilateral.G().data, 0, g, 0, nb * nv);
            double[] gamma = bilateral.gamma();
            for (int i = 0; i < nb; i++) {
                kg[i] = -gamma[i];
            }
        } else {
            dynamics.massMatrix(q, massMatrix);
            dynamics.biasForces(q, v, bias);
            nb = 0;
        }
        for (int i = 0; i < nv; i++) {
            tau[i] = tauApplied[i] - bias[i];
        }
        inertia.factor(massMatrix);

        int[] modes = pairModes;
        if (modes != null) {
            for (int p = 0; p < pairCapacity; p++) {
                pairSelected[p] = modes[p] == PAIR_NON_SLIDING || modes[p] == PAIR_SLIDING
                        || modes[p] == PAIR_SLIDING_FIXED;
            }
            if (held == null) {
                contacts.update(q, pairSelected);
            } else {
                contacts.update(q, pairSelected, held, true);
            }
        } else {
            contacts.update(q, contactMargin);
        }
        contacts.velocity(v, contactVelocity);
        contacts.accelerationBias(q, v, contactBias);
        double[] jac = contacts.jacobian();
        nc = 0;
        ns = 0;
        nns = 0;
        friction.clear();
        for (int k = 0; k < contacts.count(); k++) {
            double un = contactVelocity[3 * k];
            // With modes given, a closed pair stays in the problem for the whole segment, as the caller decided at its
            // start: dropped where an intermediate state (a Runge-Kutta stage) separates, a tilted landing sinks.
            if (modes == null && !(un <= normalVelocityTolerance)) {
                continue;
            }
            int c = nc++;
            kinIndex[c] = k;
            double mu = contacts.friction(k);
            muByContact[c] = mu;
            System.arraycopy(jac, 3 * k * nv, n, c * nv, nv);
            kn[c] = contactBias[3 * k];
            // Baumgarte's push-out only for a pair not already separating: a closed pair kept for its segment (modes
            // given) that separates at an intermediate state must not be held back by the stabilisation.
            if (stabilization > 0 && un <= normalVelocityTolerance) {
                kn[c] += baumgarte(un, contacts.gap(k), stabilization);
            }
            double u1 = contactVelocity[3 * k + 1];
            double u2 = contactVelocity[3 * k + 2];
            double speed = Math.hypot(u1, u2);
            int qo = c * nv;
            boolean slides;
            double s1 = 0;
            double s2 = 0;
            if (modes != null) {
                int p = contacts.pair(k);
                int mode;
                double r1;
                double r2;
                if (p >= 0) {
                    mode = modes[p];
                    r1 = slideReference[2 * p];
                    r2 = slideReference[2 * p + 1];
                } else {
                    int i = contacts.heldIndex(k);
                    mode = held.mode(i);
                    r1 = held.reference(i, 0);
                    r2 = held.reference(i, 1);
                }
                slides = mode == PAIR_SLIDING || mode == PAIR_SLIDING_FIXED;
                if (slides) {
                    if (mode == PAIR_SLIDING && u1 * r1 + u2 * r2 > 0) {
                        s1 = u1 / speed;
                        s2 = u2 / speed;
                    } else {
                        s1 = r1;
                        s2 = r2;
                    }
                }
            } else {
                slides = speed > slidingTolerance;
                if (slides) {
                    s1 = u1 / speed;
                    s2 = u2 / speed;
                }
            }
            if (slides) {
                isSliding[c] = true;
                sliding[ns++] = c;
                rByContact[c] = 0;
                frictionStart[c] = -1;
                int o1 = (3 * k + 1) * nv;
                int o2 = (3 * k + 2) * nv;
                for (int j = 0; j < nv; j++) {
                    qRows[qo + j] = s1 * jac[o1 + j] + s2 * jac[o2 + j];
                }
                for (int i = 0; i < 3; i++) {
                    slideDirection[3 * c + i] = s1 * contacts.frame(k, 1, i) + s2 * contacts.frame(k, 2, i);
                }
            } else {
                isSliding[c] = false;
                nonSliding[nns++] = c;
                Arrays.fill(qRows, qo, qo + nv, 0);
                Arrays.fill(slideDirection, 3 * c, 3 * c + 3, 0);
                int r = mu > 0 ? friction.spanning() : 0;
                rByContact[c] = r;
                frictionStart[c] = friction.add(c, k, r, contacts, contactBias);
            }
        }
        limits.update(q, v);
    }

    // ------------------------------------------------------------------ the data

    public int nv() {
        return nv;
    }

    /** The contact kinematics (its last update is this problem's). */
    public ContactKinematics contactKinematics() {
        return contacts;
    }

    /** nc: contacts in the problem. */
    public int contactCount() {
        return nc;
    }

    /** ns. */
    public int slidingCount() {
        return ns;
    }

    /** nns. */
    public int nonSlidingCount() {
        return nns;
    }

    /** nnr: rows of F (Σ r over non-sliding contacts). */
    public int frictionRowCount() {
        return friction.count();
    }

    /** nu: limit rows. */
    public int limitCount() {
        return limits.count();
    }

    /** nb: bilateral rows. */
    public int bilateralCount() {
        return nb;
    }

    /** The seed's sliding_contacts (live buffer, first {@link #slidingCount()} entries, ascending). */
    public int[] slidingContacts() {
        return sliding;
    }

    /** The seed's non_sliding_contacts (live buffer, first {@link #nonSlidingCount()} entries, ascending). */
    public int[] nonSlidingContacts() {
        return nonSliding;
    }

    public boolean isSliding(int contact) {
        return isSliding[contact];
    }

    /** μ of contact c (sliding or not). */
    public double mu(int contact) {
        return muByContact[contact];
    }

    /** mu_sliding[i]: μ of the i-th sliding contact. */
    public double muSliding(int i) {
        return muByContact[sliding[i]];
    }

    /** mu_non_sliding[i]: μ of the i-th non-sliding contact. */
    public double muNonSliding(int i) {
        return muByContact[nonSliding[i]];
    }

    /** r of a contact (0 for a sliding contact or μ = 0). */
    public int spanningDirections(int contact) {
        return rByContact[contact];
    }

    /** The first row of F of a non-sliding contact (−1 for a sliding one). */
    public int frictionStart(int contact) {
        return frictionStart[contact];
    }

    /** The contact a row of F belongs to. */
    public int frictionContact(int row) {
        return friction.contact(row);
    }

    /** Component i (world) of the spanning direction of row {@code row} of F. */
    public double frictionDirection(int row, int i) {
        return friction.direction(row, i);
    }

    /** Component i (world) of the unit sliding direction ŝ of a sliding contact (0 otherwise). */
    public double slidingDirection(int contact, int i) {
        return slideDirection[3 * contact + i];
    }

    /** The {@link ContactKinematics} index of a problem contact. */
    public int kinematicsIndex(int contact) {
        return kinIndex[contact];
    }

    /**
     * The contact stabilisation term of a normal row, (2 u_n + φ / T) / T: with it the row's law 0 ≤ u̇_n + term ⊥
     * f_N ≥ 0 drives φ and u_n back to zero with the critically damped time constant T (m/s²).
     */
    public static double baumgarte(double un, double gap, double timeConstant) {
        return (2 * un + gap / timeConstant) / timeConstant;
    }

    /** "candidate@ground" of a problem contact. */
    public String contactName(int contact) {
        return contacts.name(kinIndex[contact]);
    }

    /** τ̂ = τ − C(q, v) (nv): the seed's tau (applied, Coriolis, centrifugal and gravity forces). */
    public double[] tau() {
        return tau;
    }

    /** H(q) of the last update. */
    public DMatrixRMaj massMatrix() {
        return massMatrix;
    }

    /** The seed's solve_inertia: H factored at the last update. */
    public InertiaSolve solveInertia() {
        return inertia;
    }

    /** N (nc x nv): row c is contact c's normal row n · J_c. */
    public double[] N() {
        return n;
    }

    /** kN (nc). */
    public double[] kN() {
        return kn;
    }

    /** Q (nc x nv): row c is ŝ · J_c for a sliding contact, zero otherwise. */
    public double[] Q() {
        return qRows;
    }

    /** F (nnr x nv): the spanning directions' rows d · J_c of the non-sliding contacts. */
    public double[] F() {
        return friction.f();
    }

    /** kF (nnr). */
    public double[] kF() {
        return friction.kf();
    }

    /** L (nu x nv). */
    public double[] L() {
        return limits.l();
    }

    /** kL (nu). */
    public double[] kL() {
        return limits.kl();
    }

    /** The joint name of limit row i. */
    public String limitName(int row) {
        return limits.name(row);
    }

    /** +1 if limit row i is a lower bound (row +e_j), −1 for an upper bound (row −e_j). */
    public int limitSide(int row) {
        return limits.side(row);
    }

    /** The velocity index j of limit row i. */
    public int limitVelocityIndex(int row) {
        return limits.velocityIndex(row);
    }

    /** G (nb x nv). */
    public double[] G() {
        return g;
    }

    /** kG (nb) = −γ. */
    public double[] kG() {
        return kg;
    }

    /** The most friction rows a problem can have (for solvers' capacities). */
    int frictionRowCapacity() {
        return friction.capacity();
    }

    int contactCapacity() {
        return contactCapacity;
    }

    int limitRowCapacity() {
        return limits.capacity();
    }

    int bilateralCapacity() {
        return bilateral == null ? 0 : bilateral.size();
    }

    int spanningSetting() {
        return friction.spanning();
    }
}
