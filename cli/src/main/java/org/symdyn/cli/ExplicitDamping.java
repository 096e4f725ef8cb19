package org.symdyn.cli;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Body;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.JointDamping;
import org.symdyn.model.Model;

/**
 * The warning of a continuous run whose joint damping the integrator cannot follow. The continuous system applies
 * the damping −D v explicitly, so the damped dof decays at a rate λ of at least D_ii P_ii, P the mobility (H⁻¹, or
 * with the model's loops H⁻¹ − H⁻¹ Gᵀ (G H⁻¹ Gᵀ)⁻¹ G H⁻¹: the largest eigenvalue of P D is no smaller than any
 * diagonal entry of D^½ P D^½), and classical Runge-Kutta is stable on the negative real axis only for h λ below
 * {@link #RK4_LIMIT}. Cassie's ball joint (damping 0.01, axial inertia 3.75e-6 kg m²,
 * λ ≈ 2,700/s) made its rod spin up to 3,550 rad/s within 36 ms of free fall at h = 2 ms, and the run then stopped
 * on "bilateral rows inconsistent", a cause it was not. The time-stepping system applies damping implicitly and
 * needs no warning; the adaptive integrator shortens its own step.
 */
final class ExplicitDamping {
    /** |h λ| below which classical Runge-Kutta 4 is stable for a real negative λ (2.785...). */
    static final double RK4_LIMIT = 2.78;

    private ExplicitDamping() {
    }

    /** The warning for {@code --integrator rk4} at step h from q, located at the joint of the worst dof; or null. */
    static Diagnostic rk4Warning(Model model, double[] q, double step, JointDamping damping) {
        if (damping.isZero() || model.nv() == 0) {
            return null;
        }
        int nv = model.nv();
        DMatrixRMaj h = new DMatrixRMaj(nv, nv);
        new GenericDynamics(model).massMatrix(q, h);
        DMatrixRMaj mass = new DMatrixRMaj(nv, nv);
        if (!CommonOps_DDRM.invertSPD(h, mass)) {
            return null; // a singular H is reported where the run evaluates it
        }
        if (!model.constraints().isEmpty()) {
            // the constrained mobility P = H⁻¹ − H⁻¹ Gᵀ (G H⁻¹ Gᵀ)⁻¹ G H⁻¹: a loop stiffens the damped dofs (H⁻¹ alone
            // warned of a four-bar's damped rocker that ran well)
            org.symdyn.constraints.ConstraintSet set = org.symdyn.constraints.ConstraintSet.of(model);
            DMatrixRMaj g = new DMatrixRMaj(set.size(), nv);
            set.bindGeneric().jacobian(q, g);
            DMatrixRMaj hg = new DMatrixRMaj(nv, set.size());
            CommonOps_DDRM.multTransB(mass, g, hg);
            DMatrixRMaj k = new DMatrixRMaj(set.size(), set.size());
            CommonOps_DDRM.mult(g, hg, k);
            DMatrixRMaj kInv = new DMatrixRMaj(set.size(), set.size());
            CommonOps_DDRM.pinv(k, kInv); // dependent rows (cassie's planar connects) project the same
            DMatrixRMaj t = new DMatrixRMaj(nv, set.size());
            CommonOps_DDRM.mult(hg, kInv, t);
            DMatrixRMaj correction = new DMatrixRMaj(nv, nv);
            CommonOps_DDRM.multTransB(t, hg, correction);
            CommonOps_DDRM.subtractEquals(mass, correction);
        }
        double worst = 0;
        int at = -1;
        for (int i = 0; i < nv; i++) {
            double rate = damping.coefficient(i) * mass.get(i, i);
            if (rate > worst) {
                worst = rate;
                at = i;
            }
        }
        if (!(step * worst > RK4_LIMIT)) {
            return null;
        }
        org.symdyn.model.SourceLocation where = new org.symdyn.model.SourceLocation(model.sourcePath(), 0, 0);
        for (Body b : model.bodies()) {
            if (at >= b.joint().vIndex() && at < b.joint().vIndex() + b.joint().nv()) {
                where = b.joint().location();
            }
        }
        String name = model.vNames().get(at);
        return Diagnostic.warning(where, "the damping of "
                + name + " makes it decay at " + LimitViolations.number(worst) + "/s or faster, which --integrator"
                + " rk4 follows only with --step below " + LimitViolations.number(RK4_LIMIT / worst) + " s (here "
                + LimitViolations.number(step) + " s: the run will diverge); use a smaller --step, --integrator dopri5"
                + " (adaptive), --system time-stepping (implicit damping) or --no-damping");
    }
}
