package org.symdyn.systems;

import java.util.Arrays;
import java.util.Objects;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contact.ContactKinematics;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.TurningContact;
import org.symdyn.contract.Kinematics;
import org.symdyn.contract.ModelInfo;

/**
 * Compliant (penalty) contact over a {@link ContactSet}'s candidate × ground pairs, as the design note writes it:
 * for each pair in penetration (gap φ ≤ 0; geometry, frames and signs of {@link ContactKinematics}),
 * <pre>
 *   f_n = max(−k φ − b φ̇, 0)                                  (N; φ̇ = u_n the normal speed of the contact point)
 *   f_t = −min(b_t ‖u_t‖, μ f_n) u_t / ‖u_t‖                   (regularised Coulomb; 0 at u_t = 0)
 *   τ  += J_cᵀ [f_n; f_t1; f_t2]
 * </pre>
 * with u = J_c v the contact point's velocity in the contact frame [n; t1; t2] and μ the ground's friction. The
 * friction is viscous below the slip speed μ f_n / b_t and Coulomb's above it: there is no sticking, so a body on a
 * slope creeps at about m g sin θ / b_t; choose b_t large for a small creep (and a time step small against
 * m / b_t with explicit integrators). The max(·, 0) makes the ground push and never pull; the force is continuous in
 * φ at φ = 0 only when φ̇ ≤ 0 there, as the note's law has it.
 *
 * <p>Its derivatives ({@link #addForceDerivatives}), per contact pushing (f_n &gt; 0), with M = ∂f/∂u and
 * g = ∂f/∂φ of the law above (f_n: −b along u_n, −k along φ; the friction viscous, −b_t on u_t, while
 * b_t ‖u_t‖ ≤ μ f_n, at u_t = 0 too; else Coulomb's −μ f_n û_t, whose ∂/∂u_t is −μ f_n (I − û_t û_tᵀ) / ‖u_t‖):
 * <pre>
 *   ∂τ/∂v = J_cᵀ M J_c,   ∂τ/∂q = ∂(J_cᵀ f)/∂q at fixed f + J_cᵀ (g ∂φ/∂q + M ∂(J_c v)/∂q)
 * </pre>
 * with the contact frame fixed in the world (but for the turning contacts below) and ∂φ/∂q its normal row of J_c.
 * Exact for points and spheres on the planes of the set's grounds, and for sphere and capsule shapes on planes and
 * flat faces (a rounded side's contact point moves with its centre and the body's rotation,
 * {@link ContactKinematics#radius}, {@link PointForceDerivatives}; on a moving face the face's point of contact
 * follows the centre, or a box's corner over the face, and the frame turns with the face; for two spheres or capsules
 * the normal turns with their centres: {@link TurningContact}); otherwise, the witness points are taken as material points of
 * their bodies and the normal as fixed, as the contact step's derivatives take them
 * ({@link org.symdyn.contact.StepDerivatives}). A contact whose law gives f_n = 0 has zero derivative (at f_n = 0
 * exactly, the side without force).
 *
 * <p>An actuator: a system with it needs no rigid {@code ContactSet} (the smooth alternative to
 * {@link ContinuousTimeSystem}'s hybrid rigid contact). The last evaluation's forces per pair are kept ({@link ContactForces}), for
 * {@link ContactForceSensor}. No allocation per evaluation; not thread-safe.
 */
public final class CompliantContact implements Actuator, ContactForces {
    private final String name;
    private final ContactKinematics contacts;
    private final double stiffness;
    private final double damping;
    private final double frictionDamping;
    private final int nv;
    private final double[] u;
    private final double[] pairForce;
    private final double[] contactForce; // 3 per contact of the last evaluation
    private final Kinematics kinematics;
    /** Created on the first derivative call: ∂(J_c v)/∂q of one contact's point (3 x nv), its [n; t1; t2] rows. */
    private PointForceDerivatives derivatives;
    private double[] pointDq;
    private double[] rowsDq;
    /** A turning contact ({@link TurningContact}): each side's centre and angular Jacobians (3 x nv). */
    private TurningContact turning;
    private double[] centreJacobianB;
    private double[] angularB;
    private double[] centreJacobianA;
    private double[] angularA;
    private double[] relative;
    private final double[] omegaB = new double[3];
    private final double[] omegaA = new double[3];
    private final double[] relativeVelocity = new double[3];
    private final double[] axisA = new double[3];
    private final double[] axisB = new double[3];
    private final double[] anchor = new double[3];
    private final double[] offset = new double[3];
    private final double[] bodyAnchor = new double[3];
    private final double[] force = new double[3];
    private final double[] torque = new double[3];
    private final double[] m = new double[9];
    private final double[] g = new double[3];

    /**
     * @param set             the grounds and candidates
     * @param kinematics      the model's kinematics
     * @param stiffness       k &gt; 0 per contact (N/m)
     * @param damping         b ≥ 0 per contact (N·s/m)
     * @param frictionDamping b_t &gt; 0, the slope of the regularised friction (N·s/m)
     */
    public CompliantContact(String name, ContactSet set, Kinematics kinematics, double stiffness, double damping,
            double frictionDamping) {
        this.name = Checks.name(name);
        Objects.requireNonNull(set, "set");
        Objects.requireNonNull(kinematics, "kinematics");
        if (!set.modelName().equals(kinematics.modelName())) {
            throw new IllegalArgumentException(name + ": the contact set is for model " + set.modelName() + ", not "
                    + kinematics.modelName());
        }
        this.nv = kinematics.nv();
        this.kinematics = kinematics;
        this.contacts = new ContactKinematics(set, kinematics, nv);
        this.stiffness = Checks.positive(name, "stiffness", stiffness);
        this.damping = Checks.nonNegative(name, "damping", damping);
        this.frictionDamping = Checks.positive(name, "frictionDamping", frictionDamping);
        this.u = new double[Math.max(1, 3 * contacts.capacity())];
        this.pairForce = new double[3 * set.pairCount()];
        this.contactForce = new double[Math.max(1, 3 * contacts.capacity())];
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void addForces(double t, double[] q, double[] v, double[] tau) {
        Arrays.fill(pairForce, 0);
        int nc = contactsAt(q, v);
        if (nc == 0) {
            return;
        }
        double[] jac = contacts.jacobian();
        for (int k = 0; k < nc; k++) {
            double phi = contacts.gap(k);
            double un = u[3 * k], ut1 = u[3 * k + 1], ut2 = u[3 * k + 2];
            double fn = Math.max(-stiffness * phi - damping * un, 0);
            double ft1 = 0, ft2 = 0;
            double slip = Math.sqrt(ut1 * ut1 + ut2 * ut2);
            if (slip > 0 && fn > 0) {
                double ft = Math.min(frictionDamping * slip, contacts.friction(k) * fn);
                ft1 = -ft * ut1 / slip;
                ft2 = -ft * ut2 / slip;
            }
            contactForce[3 * k] = fn;
            contactForce[3 * k + 1] = ft1;
            contactForce[3 * k + 2] = ft2;
            int p = contacts.pair(k);
            if (p >= 0) { // shape contacts have no fixed pair: their forces are read by contact
                pairForce[3 * p] = fn;
                pairForce[3 * p + 1] = ft1;
                pairForce[3 * p + 2] = ft2;
            }
            int o = 3 * k * nv;
            for (int c = 0; c < nv; c++) {
                tau[c] += jac[o + c] * fn + jac[o + nv + c] * ft1 + jac[o + 2 * nv + c] * ft2;
            }
        }
    }

    @Override
    public void addForceDerivatives(double t, double[] q, double[] v, DMatrixRMaj dq, DMatrixRMaj dv) {
        if (derivatives == null) {
            derivatives = new PointForceDerivatives(kinematics);
            pointDq = new double[3 * nv];
            rowsDq = new double[3 * nv];
            turning = new TurningContact(nv);
            centreJacobianB = new double[3 * nv];
            angularB = new double[3 * nv];
            centreJacobianA = new double[3 * nv];
            angularA = new double[3 * nv];
            relative = new double[3 * nv];
        }
        int nc = contactsAt(q, v);
        if (nc == 0) {
            return;
        }
        double[] jac = contacts.jacobian();
        double[] oq = dq.data;
        double[] ov = dv.data;
        for (int k = 0; k < nc; k++) {
            double phi = contacts.gap(k);
            double un = u[3 * k], ut1 = u[3 * k + 1], ut2 = u[3 * k + 2];
            double fn = -stiffness * phi - damping * un;
            if (!(fn > 0)) {
                continue;
            }
            double mu = contacts.friction(k);
            double slip = Math.sqrt(ut1 * ut1 + ut2 * ut2);
            double ft1, ft2;
            Arrays.fill(m, 0);
            m[0] = -damping;
            g[0] = -stiffness;
            if (frictionDamping * slip <= mu * fn) {
                ft1 = -frictionDamping * ut1;
                ft2 = -frictionDamping * ut2;
                m[4] = -frictionDamping;
                m[8] = -frictionDamping;
                g[1] = 0;
                g[2] = 0;
            } else {
                double t1 = ut1 / slip, t2 = ut2 / slip;
                ft1 = -mu * fn * t1;
                ft2 = -mu * fn * t2;
                // ∂f_t/∂(φ, u_n) through f_n, ∂f_t/∂u_t = −μ f_n (I − t̂ t̂ᵀ) / s
                g[1] = mu * stiffness * t1;
                g[2] = mu * stiffness * t2;
                m[3] = mu * damping * t1;
                m[6] = mu * damping * t2;
                double c = -mu * fn / slip;
                m[4] = c * (1 - t1 * t1);
                m[5] = -c * t1 * t2;
                m[7] = -c * t1 * t2;
                m[8] = c * (1 - t2 * t2);
            }
            for (int i = 0; i < 3; i++) {
                force[i] = fn * contacts.frame(k, 0, i) + ft1 * contacts.frame(k, 1, i) + ft2 * contacts.frame(k, 2, i);
            }
            // ∂(J_c v)/∂q of the contact point on B, less A's, and ∂(J_cᵀ f)/∂q at fixed f
            Arrays.fill(pointDq, 0);
            int kind = TurningContact.kind(contacts, k);
            int a = contacts.otherBody(k);
            side(q, v, k, false, kind != TurningContact.NONE, dq);
            if (a >= 0) {
                side(q, v, k, true, kind != TurningContact.NONE, dq);
            }
            int o = 3 * k * nv;
            for (int c = 0; c < nv; c++) {
                double px = pointDq[c], py = pointDq[nv + c], pz = pointDq[2 * nv + c];
                for (int d = 0; d < 3; d++) {
                    rowsDq[d * nv + c] = contacts.frame(k, d, 0) * px + contacts.frame(k, d, 1) * py
                            + contacts.frame(k, d, 2) * pz;
                }
            }
            if (kind != TurningContact.NONE) {
                turning(k, kind, jac, o, v, a >= 0, dq);
            }
            for (int c = 0; c < nv; c++) {
                double dphi = jac[o + c];
                // ∂f/∂q_c = g ∂φ/∂q_c + M ∂u/∂q_c
                double d0 = g[0] * dphi + m[0] * rowsDq[c] + m[1] * rowsDq[nv + c] + m[2] * rowsDq[2 * nv + c];
                double d1 = g[1] * dphi + m[3] * rowsDq[c] + m[4] * rowsDq[nv + c] + m[5] * rowsDq[2 * nv + c];
                double d2 = g[2] * dphi + m[6] * rowsDq[c] + m[7] * rowsDq[nv + c] + m[8] * rowsDq[2 * nv + c];
                // ∂f/∂v_c = M J_c[:, c]
                double j0 = jac[o + c], j1 = jac[o + nv + c], j2 = jac[o + 2 * nv + c];
                double e0 = m[0] * j0 + m[1] * j1 + m[2] * j2;
                double e1 = m[3] * j0 + m[4] * j1 + m[5] * j2;
                double e2 = m[6] * j0 + m[7] * j1 + m[8] * j2;
                if (d0 == 0 && d1 == 0 && d2 == 0 && e0 == 0 && e1 == 0 && e2 == 0) {
                    continue;
                }
                for (int r = 0; r < nv; r++) {
                    double a0 = jac[o + r], a1 = jac[o + nv + r], a2 = jac[o + 2 * nv + r];
                    oq[r * nv + c] += a0 * d0 + a1 * d1 + a2 * d2;
                    ov[r * nv + c] += a0 * e0 + a1 * e1 + a2 * e2;
                }
            }
        }
    }

    /**
     * Contact k's terms of a turning contact ({@link TurningContact}): into the rows' ∂u/∂q and, for the force
     * {@link #force} on B, into dq; the sides' Jacobians are those {@link #addForceDerivatives} left.
     */
    private void turning(int k, int kind, double[] jac, int o, double[] v, boolean aMoves, DMatrixRMaj dq) {
        TurningContact.relative(contacts, k, jac, o, v, nv, relative, relativeVelocity);
        turning.set(kind, contacts.frame(k, 0, 0), contacts.frame(k, 0, 1), contacts.frame(k, 0, 2),
                contacts.otherRadius(k), contacts.radius(k), contacts.gap(k), aMoves ? centreJacobianA : null,
                aMoves ? angularA : null, aMoves ? omegaA : null, TurningContact.axis(contacts, k, true, axisA), centreJacobianB, angularB,
                omegaB, TurningContact.axis(contacts, k, false, axisB), relative, relativeVelocity);
        for (int d = 0; d < 3; d++) {
            turning.addRowDerivative(contacts.frame(k, d, 0), contacts.frame(k, d, 1), contacts.frame(k, d, 2), 1,
                    rowsDq, d * nv);
        }
        turning.addForceDerivative(force[0], force[1], force[2], 1, dq.data);
    }

    /**
     * One side of contact k (B, or A with {@code sideA}, on a body): its point's ∂(J v)/∂q into {@link #pointDq}
     * (A's subtracted) and ∂(Jᵀ f)/∂q at fixed {@link #force} (−f on A) into dq, the point its centre plus its
     * offset along the normal (−r n on B, +r n on A) fixed in the world; with {@code turning}, its centre's point and
     * angular Jacobians and angular velocity for {@link TurningContact}.
     */
    private void side(double[] q, double[] v, int k, boolean sideA, boolean turning, DMatrixRMaj dq) {
        derivatives.update(q, sideA ? contacts.otherBody(k) : contacts.body(k));
        double r = sideA ? contacts.otherRadius(k) : -contacts.radius(k);
        for (int i = 0; i < 3; i++) {
            bodyAnchor[i] = sideA ? contacts.otherCenter(k, i) : contacts.center(k, i);
            offset[i] = r * contacts.frame(k, 0, i);
        }
        derivatives.worldPoint(bodyAnchor, anchor);
        moment(offset, force, torque); // of f about the centre: (p − c) × f
        double sign = sideA ? -1 : 1;
        derivatives.addPointVelocityDerivative(anchor, offset, v, sign, pointDq);
        derivatives.addForceDerivative(anchor, force, torque, false, sign, dq);
        if (turning) {
            double[] centre = sideA ? centreJacobianA : centreJacobianB;
            double[] angular = sideA ? angularA : angularB;
            Arrays.fill(centre, 0);
            Arrays.fill(angular, 0);
            derivatives.addPointJacobian(anchor, null, 1, centre);
            derivatives.addAngularJacobian(1, angular);
            derivatives.angularVelocity(v, sideA ? omegaA : omegaB);
        }
    }

    /** The contacts in penetration at q and their velocities u at v; their number. */
    private int contactsAt(double[] q, double[] v) {
        contacts.update(q, 0);
        int nc = contacts.count();
        if (nc > 0) {
            contacts.velocity(v, u);
        }
        return nc;
    }

    /** out = r × f. */
    private static void moment(double[] r, double[] f, double[] out) {
        out[0] = r[1] * f[2] - r[2] * f[1];
        out[1] = r[2] * f[0] - r[0] * f[2];
        out[2] = r[0] * f[1] - r[1] * f[0];
    }

    @Override
    public ContactSet contactSet() {
        return contacts.set();
    }

    /** The force of the last {@link #addForces} at a pair (N, contact frame; 0 out of contact). */
    @Override
    public double pairForce(int pair, int component) {
        if (component < 0 || component > 2) {
            throw new IndexOutOfBoundsException("component " + component + " (0 normal, 1 t1, 2 t2)");
        }
        return pairForce[3 * pair + component];
    }

    /** The force of the last {@link #addForces} on each collision shape (N, world). */
    @Override
    public void shapeForces(double[] out, int offset) {
        java.util.Arrays.fill(out, offset, offset + 3 * contacts.set().shapeCount(), 0);
        for (int k = 0; k < contacts.count(); k++) {
            contacts.addShapeForce(k, contactForce[3 * k], contactForce[3 * k + 1], contactForce[3 * k + 2], out,
                    offset);
        }
    }

    /** The contacts of the last evaluation (pairs in penetration, gaps, frames). */
    public ContactKinematics contacts() {
        return contacts;
    }

    public double stiffness() {
        return stiffness;
    }

    public double damping() {
        return damping;
    }

    public double frictionDamping() {
        return frictionDamping;
    }

    @Override
    public void checkFits(ModelInfo model) {
        Checks.sameModel(name(), kinematics, model);
    }
}
