package org.symdyn.systems;

import java.util.Arrays;
import java.util.Objects;
import org.symdyn.contact.ContactKinematics;
import org.symdyn.contact.ContactSet;
import org.symdyn.contract.Kinematics;

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
        contacts.update(q, 0);
        int nc = contacts.count();
        if (nc == 0) {
            return;
        }
        contacts.velocity(v, u);
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
}
