package org.symdyn.systems;

import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contact.ContactReport;
import org.symdyn.contact.StepDerivatives;
import org.symdyn.model.Model;

/**
 * The derivatives of one step of a {@link TimeSteppingSystem} with its actuators: ∂(q⁺, v⁺)/∂(q, v, τ_input). The
 * system steps under τ = τ_input + Σ_a τ_a(t, q, v), its actuators evaluated at the start of the step, so the
 * contact step's derivatives ({@link StepDerivatives}: exact cones, every contact in the mode its solution shows,
 * bilateral rows, joint limits, implicit joint damping) take the actuators' by the chain rule:
 * <pre>
 *   ∂x⁺/∂q = ∂x⁺/∂q|_τ + (∂x⁺/∂τ) A_q,   ∂x⁺/∂v = ∂x⁺/∂v|_τ + (∂x⁺/∂τ) A_v,   ∂x⁺/∂τ_input = ∂x⁺/∂τ
 * </pre>
 * for x⁺ = q⁺ (in the tangent space at q⁺) and v⁺, with A_q = Σ_a ∂τ_a/∂q and A_v = Σ_a ∂τ_a/∂v
 * ({@link Actuator#addForceDerivatives}): a PD servo's −kp and −kd on its joint while its command is inside its
 * limit and zero once clamped, a DC motor's back-EMF damping −N² k_t k_b / R, nothing for a torque source, and for
 * the actuators that push on bodies (a spatial force, a spring-damper, compliant contact) the turning of their
 * Jacobians and the change of their forces with the state ({@link PointForceDerivatives}). This is
 * what an MPC needs of a robot whose joints are servoed: the gains' feedback is in the step's Jacobians, and the
 * τ input (or, through {@link PdServo#setTarget}, the targets: ∂τ/∂target = kp) is the control.
 *
 * <p>Conventions, modes and their boundaries are {@link StepDerivatives}'. An actuator without analytical derivatives
 * (a user's own that does not implement them) is refused at construction, naming it. Allocates in the constructor;
 * {@link #step} allocates nothing. Not thread-safe.
 */
public final class SystemStepDerivatives {
    private final TimeSteppingSystem system;
    private final StepDerivatives step;
    private final Actuator[] actuators;
    private final int nq;
    private final int nv;
    private final double[] q0;
    private final double[] v0;
    private final DMatrixRMaj aq;
    private final DMatrixRMaj av;
    private final DMatrixRMaj dqDq;
    private final DMatrixRMaj dqDv;
    private final DMatrixRMaj dvDq;
    private final DMatrixRMaj dvDv;
    /** The nonzero entries of A_q and A_v at the last step. */
    private final int[] qEntries;
    private final int[] vEntries;

    /**
     * Workspaces for {@code system}, whose dynamics describe {@code model}.
     *
     * @throws IllegalArgumentException if an actuator of the system has no analytical derivatives, or the model's
     *                                  sizes are not the system's
     */
    public SystemStepDerivatives(TimeSteppingSystem system, Model model) {
        this.system = system;
        this.nq = model.nq();
        this.nv = model.nv();
        if (system.q().length != nq || system.v().length != nv) {
            throw new IllegalArgumentException("the model has nq = " + nq + ", nv = " + nv + "; the system "
                    + system.q().length + ", " + system.v().length);
        }
        this.step = new StepDerivatives(system.stepper(), model);
        List<Actuator> list = system.actuators();
        this.actuators = list.toArray(new Actuator[0]);
        this.q0 = new double[nq];
        this.v0 = new double[nv];
        this.aq = new DMatrixRMaj(nv, nv);
        this.av = new DMatrixRMaj(nv, nv);
        this.dqDq = new DMatrixRMaj(nv, nv);
        this.dqDv = new DMatrixRMaj(nv, nv);
        this.dvDq = new DMatrixRMaj(nv, nv);
        this.dvDv = new DMatrixRMaj(nv, nv);
        this.qEntries = new int[nv * nv];
        this.vEntries = new int[nv * nv];
        // refuse up front what compute would refuse after the system had stepped
        double[] q = model.neutralConfiguration();
        double[] v = new double[nv];
        for (Actuator a : actuators) {
            try {
                a.addForceDerivatives(0, q, v, aq, av);
            } catch (UnsupportedOperationException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
        java.util.Arrays.fill(aq.data, 0.0);
        java.util.Arrays.fill(av.data, 0.0);
    }

    /** Steps the system by its time step ({@link TimeSteppingSystem#step()}) and computes that step's derivatives. */
    public ContactReport step() {
        return step(system.timeStep());
    }

    /**
     * Steps the system by {@code dt} ({@link TimeSteppingSystem#step(double)}) and computes that step's derivatives
     * from the state it left.
     *
     * @return the contact solve's report of the step (live, the system's)
     * @throws IllegalStateException if the linear system of the step's contact modes is singular
     */
    public ContactReport step(double dt) {
        double t = system.time();
        System.arraycopy(system.q(), 0, q0, 0, nq);
        System.arraycopy(system.v(), 0, v0, 0, nv);
        // before the step, as the forces are: an actuator whose state the step or its sensors change (a filter, a
        // controller) is differentiated where it acted
        java.util.Arrays.fill(aq.data, 0, nv * nv, 0.0);
        java.util.Arrays.fill(av.data, 0, nv * nv, 0.0);
        for (Actuator a : actuators) {
            a.addForceDerivatives(t, q0, v0, aq, av);
        }
        ContactReport report = system.step(dt);
        step.compute(q0, v0, system.appliedForces(), dt);
        int nq0 = nonzeros(aq, qEntries);
        int nv0 = nonzeros(av, vEntries);
        chain(step.dqNextDq(), step.dqNextDtau(), aq, qEntries, nq0, dqDq);
        chain(step.dqNextDv(), step.dqNextDtau(), av, vEntries, nv0, dqDv);
        chain(step.dvNextDq(), step.dvNextDtau(), aq, qEntries, nq0, dvDq);
        chain(step.dvNextDv(), step.dvNextDtau(), av, vEntries, nv0, dvDv);
        return report;
    }

    /** The flat indices of a's nonzero entries into {@code into}; their count. */
    private int nonzeros(DMatrixRMaj a, int[] into) {
        int n = 0;
        for (int e = 0; e < nv * nv; e++) {
            if (a.data[e] != 0) {
                into[n++] = e;
            }
        }
        return n;
    }

    /**
     * out = base + dTau A over A's {@code count} nonzero entries (a servo touches its own joint's, a force on a body
     * its branch's).
     */
    private void chain(DMatrixRMaj base, DMatrixRMaj dTau, DMatrixRMaj a, int[] entries, int count, DMatrixRMaj out) {
        double[] o = out.data;
        double[] t = dTau.data;
        System.arraycopy(base.data, 0, o, 0, nv * nv);
        for (int e = 0; e < count; e++) {
            int i = entries[e] / nv;
            int j = entries[e] - i * nv;
            double x = a.data[entries[e]];
            for (int r = 0; r < nv; r++) {
                o[r * nv + j] += t[r * nv + i] * x;
            }
        }
    }

    /** ∂q⁺/∂q of the last step, actuators included (nv x nv, tangent spaces). */
    public DMatrixRMaj dqNextDq() {
        return dqDq;
    }

    /** ∂q⁺/∂v of the last step, actuators included. */
    public DMatrixRMaj dqNextDv() {
        return dqDv;
    }

    /** ∂q⁺/∂τ_input of the last step. */
    public DMatrixRMaj dqNextDtau() {
        return step.dqNextDtau();
    }

    /** ∂v⁺/∂q of the last step, actuators included. */
    public DMatrixRMaj dvNextDq() {
        return dvDq;
    }

    /** ∂v⁺/∂v of the last step, actuators included. */
    public DMatrixRMaj dvNextDv() {
        return dvDv;
    }

    /** ∂v⁺/∂τ_input of the last step. */
    public DMatrixRMaj dvNextDtau() {
        return step.dvNextDtau();
    }

    /** Σ_a ∂τ_a/∂q at the last step's start (nv x nv). */
    public DMatrixRMaj actuatorForceDq() {
        return aq;
    }

    /** Σ_a ∂τ_a/∂v at the last step's start (nv x nv). */
    public DMatrixRMaj actuatorForceDv() {
        return av;
    }

    /** The contact step's own derivatives (at fixed τ) and its blocks' modes. */
    public StepDerivatives contactStep() {
        return step;
    }
}
