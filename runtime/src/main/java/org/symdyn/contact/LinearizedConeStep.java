package org.symdyn.contact;

import java.util.Objects;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.contract.Dynamics;
import org.symdyn.model.Model;
import org.symdyn.manifold.StateSpace;

/**
 * One time step of the velocity-level contact problem with the seed's <b>linearised friction cone</b>
 * (Stewart-Trinkle / Anitescu-Potra), solved as a linear complementarity problem by {@link Lemke}; the LCP
 * alternative to the exact-cone Delassus solvers ({@code ProjectedGaussSeidel}, {@code ProximalAdmm}).
 *
 * <h2>Equations (impulses in N·s or N·m·s, velocities in the model's units, h in s)</h2>
 * <pre>
 *   H (v⁺ − v) = h (τ − C(q, v)) + Nᵀ p_N + Dᵀ p_D + Lᵀ p_L + Gᵀ p_G
 *   0 ≤ N v⁺ + b_N               ⊥ p_N ≥ 0      b_N = φ / h  (φ ≥ 0),  β φ / h (φ &lt; 0, penetration)
 *   0 ≤ D v⁺ + E λ               ⊥ p_D ≥ 0      D: ±d_k · J per contact, d_k = cos(πk/r) t1 + sin(πk/r) t2
 *   0 ≤ μ p_N − Eᵀ p_D           ⊥ λ ≥ 0
 *   0 ≤ L v⁺ + b_L               ⊥ p_L ≥ 0      b_L = distance to the bound / h (β times it when beyond)
 *   0 = G v⁺ + β φ_G / h                          bilateral rows of a bound {@link ConstraintData}
 *   q⁺ = q ⊕ h v⁺                                 ({@link StateSpace#integrate})
 * </pre>
 * A contact whose gap φ is within the margin (default 0.01 m) is in the problem; with φ &gt; 0 its row lets the
 * point approach by at most φ in this step (a speculative contact: it carries no impulse unless the step would
 * reach the ground). u_n⁺ = N v⁺ is the normal velocity after the step: the impact is inelastic. r = 2 by default (a
 * 4-edge pyramid along t1, t2 of the contact frame); {@link #setSpanningDirections} chooses a 2r-edge polygon.
 * Friction impulses obey the polygonal cone with maximal dissipation: a sticking contact has D v⁺ = 0 (u_t⁺ = 0
 * exactly), a sliding one has its friction impulse on the polygon's boundary, opposite to the slip when the slip is
 * along an edge direction d_k.
 *
 * <p>The rows are those of {@link AccelerationProblemData} at velocity level (see {@link FrictionLcp} for the
 * reduction and the solve). A failed solve ({@link #step} returns a status other than {@link Lemke.Status#SOLVED})
 * leaves qOut and vOut untouched and says why in {@link #message()}.
 *
 * <p>Allocation-free after construction; not thread-safe.
 */
public final class LinearizedConeStep {
    private final ContactKinematics contacts;
    private final Dynamics dynamics;
    private final ConstraintData bilateral;
    private final StateSpace space;
    private final int nv;
    private final int pairCapacity; // the most contacts: pairs and shape contacts

    private final int[] limitQ;
    private final int[] limitV;
    private final double[] limitLower;
    private final double[] limitUpper;

    private double margin = 0.01;
    private double limitMargin = 0.01;
    private double stabilisation = 0.2;
    private int spanning = 2;
    private SpanningDirections span;

    private final DMatrixRMaj massMatrix;
    private final double[] bias;
    private final double[] rhs;
    private final double[] phiG;
    private final InertiaSolve inertia;
    private FrictionLcp lcp;
    private final int[] contactOf; // ContactKinematics index per problem contact

    private int nc;
    private int nnr;
    private int nu;
    private int nb;
    private String message = "no step yet";
    private Lemke.Status status = Lemke.Status.SOLVED;

    /**
     * @param contacts  contact kinematics of the model (its own instance)
     * @param dynamics  the model's dynamics
     * @param space     the model's state space (for q ⊕ h v⁺)
     * @param limitsOf  model whose single-dof joints' limits are unilateral rows, or null
     * @param bilateral bound bilateral constraints (H, C, G from one call), or null
     */
    public LinearizedConeStep(ContactKinematics contacts, Dynamics dynamics, StateSpace space, Model limitsOf,
            ConstraintData bilateral) {
        this.contacts = Objects.requireNonNull(contacts, "contacts");
        this.dynamics = Objects.requireNonNull(dynamics, "dynamics");
        this.space = Objects.requireNonNull(space, "space");
        this.bilateral = bilateral;
        this.nv = dynamics.nv();
        if (contacts.nv() != nv || space.nv() != nv) {
            throw new IllegalArgumentException("contacts (" + contacts.nv() + "), state space (" + space.nv()
                    + ") and dynamics (" + nv + ") disagree on the velocity count");
        }
        JointLimits limits = JointLimits.of(limitsOf);
        limitQ = limits.qIndex;
        limitV = limits.vIndex;
        limitLower = limits.lower;
        limitUpper = limits.upper;
        pairCapacity = contacts.capacity();
        massMatrix = new DMatrixRMaj(nv, nv);
        bias = new double[nv];
        rhs = new double[nv];
        int gb = bilateral == null ? 0 : bilateral.size();
        phiG = new double[Math.max(1, gb)];
        inertia = new InertiaSolve(nv, 1);
        contactOf = new int[Math.max(1, pairCapacity)];
        allocate();
    }

    private void allocate() {
        int rows = pairCapacity * (1 + 2 * spanning) + 2 * limitQ.length + (bilateral == null ? 0 : bilateral.size());
        int maxIterations = lcp == null ? -1 : lcp.lemke.maximumIterations();
        lcp = new FrictionLcp(nv, rows, pairCapacity, inertia);
        if (maxIterations > 0) {
            lcp.lemke.setMaximumIterations(maxIterations);
        }
        span = new SpanningDirections(spanning);
    }

    /** r ≥ 1 spanning directions per contact (2r edges); a set-up call (reallocates). Default 2. */
    public void setSpanningDirections(int r) {
        if (r < 1) {
            throw new IllegalArgumentException("spanning directions " + r + " must be >= 1");
        }
        spanning = r;
        allocate();
    }

    /** Contacts with gap ≤ margin (m) enter the problem (default 0.01). */
    public void setContactMargin(double margin) {
        if (!(margin >= 0) || Double.isInfinite(margin)) {
            throw new IllegalArgumentException("contact margin " + margin + " must be a finite number >= 0");
        }
        this.margin = margin;
    }

    /** Joints within this of a bound (rad or m) get a limit row (default 0.01). */
    public void setLimitMargin(double margin) {
        if (!(margin >= 0) || Double.isInfinite(margin)) {
            throw new IllegalArgumentException("limit margin " + margin + " must be a finite number >= 0");
        }
        this.limitMargin = margin;
    }

    /** β in [0, 1]: the share of a penetration (or bilateral error) removed per step (default 0.2). */
    public void setStabilisation(double beta) {
        if (!(beta >= 0 && beta <= 1)) {
            throw new IllegalArgumentException("stabilisation " + beta + " must be in [0, 1]");
        }
        stabilisation = beta;
    }

    /** The Lemke solver (pivot limit, tolerance). */
    public Lemke lemke() {
        return lcp.lemke;
    }

    /**
     * One step: v⁺ from the LCP, then qOut = q ⊕ h v⁺. Allocation-free. qOut may alias q and vOut may alias v.
     *
     * @param tau applied generalised forces (nv), constant over the step
     * @return {@link Lemke.Status#SOLVED}, or the failure (then qOut and vOut are untouched; see {@link #message()})
     */
    public Lemke.Status step(double[] q, double[] v, double[] tau, double h, double[] qOut, double[] vOut) {
        if (!(h > 0) || Double.isInfinite(h)) {
            throw new IllegalArgumentException("time step " + h + " must be positive and finite");
        }
        if (bilateral != null) {
            bilateral.computeSystem(q, v);
            System.arraycopy(bilateral.H().data, 0, massMatrix.data, 0, nv * nv);
            System.arraycopy(bilateral.C(), 0, bias, 0, nv);
            nb = bilateral.size();
            if (nb > 0) { // phiG has nb entries then (one, unused, for a set without rows)
                bilateral.positionError(q, phiG);
            }
        } else {
            dynamics.massMatrix(q, massMatrix);
            dynamics.biasForces(q, v, bias);
            nb = 0;
        }
        inertia.factor(massMatrix);
        contacts.update(q, margin);
        int count = contacts.count();
        nnr = 0;
        nc = 0;
        for (int k = 0; k < count; k++) {
            contactOf[nc++] = k;
            nnr += contacts.friction(k) > 0 ? spanning : 0;
        }
        nu = 0;
        for (int i = 0; i < limitQ.length; i++) {
            if (q[limitQ[i]] - limitLower[i] <= limitMargin) {
                nu++;
            }
            if (limitUpper[i] - q[limitQ[i]] <= limitMargin) {
                nu++;
            }
        }
        lcp.setSizes(nc, 2 * nnr, nu, nb);
        double[] jac = contacts.jacobian();
        double[] rowV = lcp.rowV;
        double[] rowF = lcp.rowF;
        int fr = nc;
        for (int c = 0; c < nc; c++) {
            int k = contactOf[c];
            System.arraycopy(jac, 3 * k * nv, rowV, c * nv, nv);
            System.arraycopy(jac, 3 * k * nv, rowF, c * nv, nv);
            double phi = contacts.gap(k);
            lcp.offset[c] = (phi >= 0 ? phi : stabilisation * phi) / h;
            double mu = contacts.friction(k);
            lcp.mu[c] = mu;
            int r = mu > 0 ? spanning : 0;
            lcp.frictionStart[c] = fr;
            lcp.frictionCount[c] = 2 * r;
            int o1 = (3 * k + 1) * nv;
            int o2 = (3 * k + 2) * nv;
            for (int d = 0; d < r; d++) {
                int plus = fr + d;
                int minus = plus + r;
                double cs = span.cos[d];
                double sn = span.sin[d];
                for (int j = 0; j < nv; j++) {
                    double x = cs * jac[o1 + j] + sn * jac[o2 + j];
                    rowV[plus * nv + j] = x;
                    rowF[plus * nv + j] = x;
                    rowV[minus * nv + j] = -x;
                    rowF[minus * nv + j] = -x;
                }
                lcp.offset[plus] = 0;
                lcp.offset[minus] = 0;
            }
            fr += 2 * r;
        }
        int row = nc + 2 * nnr;
        for (int i = 0; i < limitQ.length; i++) {
            double below = q[limitQ[i]] - limitLower[i];
            if (below <= limitMargin) {
                limitRow(row++, limitV[i], +1, below, h);
            }
            double above = limitUpper[i] - q[limitQ[i]];
            if (above <= limitMargin) {
                limitRow(row++, limitV[i], -1, above, h);
            }
        }
        if (nb > 0) {
            double[] G = bilateral.G().data;
            for (int i = 0; i < nb; i++) {
                System.arraycopy(G, i * nv, rowV, (row + i) * nv, nv);
                System.arraycopy(G, i * nv, rowF, (row + i) * nv, nv);
                lcp.offset[row + i] = stabilisation * phiG[i] / h;
            }
        }
        for (int j = 0; j < nv; j++) {
            rhs[j] = h * (tau[j] - bias[j]);
        }
        inertia.solve(rhs, lcp.free);
        for (int j = 0; j < nv; j++) {
            lcp.free[j] += v[j];
        }
        status = lcp.solve();
        if (status != Lemke.Status.SOLVED) {
            message = "Lemke: " + status + " after " + lcp.lemke.iterations() + " pivots on an LCP of size "
                    + lcp.lcpSize + " (" + nc + " contacts)";
            return status;
        }
        if (nb > 0 && !(lcp.bilateralResidual <= 1e-8)) {
            message = "the bilateral rows are inconsistent: |G v⁺ + b_G| = " + lcp.bilateralResidual;
            status = Lemke.Status.NUMERICAL_FAILURE;
            return status;
        }
        message = "solved";
        System.arraycopy(lcp.solution, 0, vOut, 0, nv);
        space.integrate(q, vOut, h, qOut);
        return status;
    }

    private void limitRow(int row, int vIndex, int side, double distance, double h) {
        double[] rowV = lcp.rowV;
        double[] rowF = lcp.rowF;
        for (int j = 0; j < nv; j++) {
            rowV[row * nv + j] = 0;
            rowF[row * nv + j] = 0;
        }
        rowV[row * nv + vIndex] = side;
        rowF[row * nv + vIndex] = side;
        lcp.offset[row] = (distance >= 0 ? distance : stabilisation * distance) / h;
    }

    /** The status of the last step. */
    public Lemke.Status status() {
        return status;
    }

    /** "solved", or why the last step failed. */
    public String message() {
        return message;
    }

    /** Lemke's pivots in the last step. */
    public int iterations() {
        return lcp.lemke.iterations();
    }

    /** Lemke's relative residual in the last step. */
    public double residual() {
        return lcp.lemke.residual();
    }

    /** Contacts in the last step's problem (the {@link ContactKinematics} contacts, same order). */
    public int contactCount() {
        return nc;
    }

    /** Limit rows in the last step. */
    public int limitCount() {
        return nu;
    }

    /** The normal impulse p_N of contact k of the last step (N·s). */
    public double normalImpulse(int k) {
        return lcp.z[k];
    }

    /**
     * The friction impulse of contact k of the last step along frame row d (1: t1, 2: t2), N·s: Σ over the edges
     * of p_D,e (d_e · t_d).
     */
    public double frictionImpulse(int k, int d) {
        int count = lcp.frictionCount[k];
        if (count == 0) {
            return 0;
        }
        int r = count / 2;
        int start = lcp.frictionStart[k];
        double s = 0;
        for (int e = 0; e < r; e++) {
            double net = lcp.z[start + e] - lcp.z[start + e + r];
            s += net * (d == 1 ? span.cos[e] : span.sin[e]);
        }
        return s;
    }

    /** Anitescu's λ of contact k (m/s: the slip speed when sliding, 0 when sticking). */
    public double lambda(int k) {
        if (lcp.frictionCount[k] == 0) {
            return 0;
        }
        int index = nc + 2 * nnr + nu;
        for (int c = 0; c < k; c++) {
            if (lcp.frictionCount[c] > 0) {
                index++;
            }
        }
        return lcp.z[index];
    }

    /** The limit impulse of limit row i of the last step. */
    public double limitImpulse(int i) {
        return lcp.z[nc + 2 * nnr + i];
    }

    /** The bilateral impulse of row i (H (v⁺ − v) = … + Gᵀ p_G). */
    public double bilateralImpulse(int i) {
        return lcp.bilateralForce[i];
    }
}
