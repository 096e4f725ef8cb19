package org.symdyn.solvers;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.dynamics.ArticulatedBodyAlgorithm;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;

/**
 * The ABA with external forces and its force-propagation variant against H⁻¹ (τ - C + Σ Jᵀ f), with H, C and J
 * from the generic interpreter's CRBA, RNEA and Jacobians (its forward dynamics is this ABA), on every joint type
 * (revolute, prismatic, ball: spatial mechanism; planar: leg; floating: biped, tripod).
 */
class ArticulatedBodyAlgorithmTest {
    private static List<Model> models() throws Exception {
        return List.of(TestMechanisms.spatialMechanism(), TestMechanisms.planarLeg(), TestMechanisms.floatingBiped(),
                TestMechanisms.fourBar(), SolverTestSupport.tripod());
    }

    @Test
    void forwardDynamicsSolvesTheEquationsOfMotionAndExternalForcesEnterAsJacobianTranspose() throws Exception {
        Random rnd = new Random(3);
        double worstPlain = 0;
        double worstGeneric = 0;
        double worstExt = 0;
        for (Model model : models()) {
            int nv = model.nv();
            int nb = model.bodyCount();
            GenericDynamics generic = new GenericDynamics(model);
            ArticulatedBodyAlgorithm aba = new ArticulatedBodyAlgorithm(model);
            DMatrixRMaj h = new DMatrixRMaj(nv, nv);
            DMatrixRMaj jb = new DMatrixRMaj(6, nv);
            double[] c = new double[nv];
            double[] out = new double[nv];
            double[] ref = new double[nv];
            for (int n = 0; n < 30; n++) {
                double[] q = TestMechanisms.randomQ(model, rnd);
                double[] v = TestMechanisms.random(nv, 2, rnd);
                double[] tau = TestMechanisms.random(nv, 10, rnd);
                // H v̇ = τ - C, and the generic interpreter's forward dynamics is the same ABA.
                aba.forwardDynamics(q, v, tau, null, out);
                generic.forwardDynamics(q, v, tau, ref);
                generic.massMatrix(q, h);
                generic.biasForces(q, v, c);
                double[] rhs = new double[nv];
                for (int i = 0; i < nv; i++) {
                    rhs[i] = tau[i] - c[i];
                }
                worstPlain = Math.max(worstPlain, SolverTestSupport.rel(SolverTestSupport.solve(h, rhs), out, 1));
                worstGeneric = Math.max(worstGeneric, SolverTestSupport.rel(ref, out, 1));
                // H v̇ = τ - C + Σ J_iᵀ f_i
                double[] fext = TestMechanisms.random(6 * nb, 5, rnd);
                aba.forwardDynamics(q, v, tau, fext, out);
                for (int b = 0; b < nb; b++) {
                    generic.bodyJacobian(q, b, jb);
                    for (int col = 0; col < nv; col++) {
                        for (int k = 0; k < 6; k++) {
                            rhs[col] += jb.get(k, col) * fext[6 * b + k];
                        }
                    }
                }
                double[] expected = SolverTestSupport.solve(h, rhs);
                worstExt = Math.max(worstExt, SolverTestSupport.rel(expected, out, 1));
            }
        }
        System.out.printf("ABA vs H⁻¹(τ-C): worst relative %.2e; vs generic: %.2e; with external forces vs"
                + " H⁻¹(τ-C+Σ Jᵀf): %.2e%n", worstPlain, worstGeneric, worstExt);
        assertTrue(worstPlain <= 1e-10, "ABA vs H⁻¹(τ-C) " + worstPlain);
        assertTrue(worstGeneric == 0, "generic forward dynamics is not the ABA: " + worstGeneric);
        assertTrue(worstExt <= 1e-10, "ABA with external forces " + worstExt);
    }

    @Test
    void responsesReuseArticulatedInertias() throws Exception {
        Random rnd = new Random(5);
        double worst = 0;
        for (Model model : models()) {
            int nv = model.nv();
            int nb = model.bodyCount();
            GenericDynamics generic = new GenericDynamics(model);
            ArticulatedBodyAlgorithm aba = new ArticulatedBodyAlgorithm(model);
            DMatrixRMaj h = new DMatrixRMaj(nv, nv);
            DMatrixRMaj jb = new DMatrixRMaj(6, nv);
            DMatrixRMaj jp = new DMatrixRMaj(3, nv);
            double[] out = new double[nv];
            double[] f6 = new double[6];
            for (int n = 0; n < 20; n++) {
                double[] q = TestMechanisms.randomQ(model, rnd);
                double[] v = TestMechanisms.random(nv, 2, rnd);
                if (n % 2 == 0) {
                    aba.forwardDynamics(q, v, TestMechanisms.random(nv, 10, rnd), null, out);
                } else {
                    aba.factor(q);
                }
                generic.massMatrix(q, h);
                // Generalised force.
                double[] dtau = TestMechanisms.random(nv, 3, rnd);
                aba.generalizedForceResponse(dtau, out);
                worst = Math.max(worst, SolverTestSupport.rel(SolverTestSupport.solve(h, dtau), out, 1e-3));
                // All bodies at once.
                double[] forces = TestMechanisms.random(6 * nb, 3, rnd);
                aba.forceResponse(forces, out);
                double[] rhs = new double[nv];
                for (int b = 0; b < nb; b++) {
                    generic.bodyJacobian(q, b, jb);
                    for (int col = 0; col < nv; col++) {
                        for (int k = 0; k < 6; k++) {
                            rhs[col] += jb.get(k, col) * forces[6 * b + k];
                        }
                    }
                }
                worst = Math.max(worst, SolverTestSupport.rel(SolverTestSupport.solve(h, rhs), out, 1e-3));
                // One world force at a body point: J_pᵀ f_world, and the point acceleration of the response.
                int body = rnd.nextInt(nb);
                double[] point = TestMechanisms.random(3, 0.5, rnd);
                double[] fw = TestMechanisms.random(3, 2, rnd);
                aba.pointForceInBody(body, point, fw, f6, 0);
                aba.bodyForceResponse(body, f6, 0, out);
                generic.pointJacobian(q, body, point, jp);
                double[] expected = SolverTestSupport.solve(h, TestMechanisms.multTrans(jp, fw));
                worst = Math.max(worst, SolverTestSupport.rel(expected, out, 1e-3));
                double[] pAcc = TestMechanisms.mult(jp, expected);
                double[] rot = new double[9];
                aba.bodyFromWorldRotation(body, rot);
                double[] dWorld = TestMechanisms.random(3, 1, rnd);
                double[] dBody = new double[3];
                for (int r = 0; r < 3; r++) {
                    dBody[r] = rot[3 * r] * dWorld[0] + rot[3 * r + 1] * dWorld[1] + rot[3 * r + 2] * dWorld[2];
                }
                double along = aba.responsePointAcceleration(body, point, dBody);
                double exp = dWorld[0] * pAcc[0] + dWorld[1] * pAcc[1] + dWorld[2] * pAcc[2];
                worst = Math.max(worst, Math.abs(along - exp) / Math.max(1e-3, TestMechanisms.maxAbs(pAcc)));
            }
        }
        System.out.printf("ABA force responses vs dense H⁻¹ Jᵀ f: worst relative %.2e%n", worst);
        assertTrue(worst <= 1e-10, "responses " + worst);
    }

    @Test
    void responseNeedsAFactorisation() throws Exception {
        ArticulatedBodyAlgorithm aba = new ArticulatedBodyAlgorithm(TestMechanisms.planarLeg());
        assertThrows(IllegalStateException.class, () -> aba.generalizedForceResponse(new double[5], new double[5]));
        assertThrows(IllegalArgumentException.class, () -> aba.factor(new double[3]));
    }

    @Test
    void hotPathsDoNotAllocate() throws Exception {
        Model model = SolverTestSupport.tripod();
        ArticulatedBodyAlgorithm aba = new ArticulatedBodyAlgorithm(model);
        Random rnd = new Random(1);
        int nv = model.nv();
        double[] q = TestMechanisms.randomQ(model, rnd);
        double[] v = TestMechanisms.random(nv, 1, rnd);
        double[] tau = TestMechanisms.random(nv, 1, rnd);
        double[] fext = TestMechanisms.random(6 * model.bodyCount(), 1, rnd);
        double[] out = new double[nv];
        double[] f6 = {0, 0, 0, 0, 0, 1};
        long bytes = SolverTestSupport.allocatedBytes(2000, () -> {
            aba.forwardDynamics(q, v, tau, fext, out);
            aba.bodyForceResponse(4, f6, 0, out);
            aba.forceResponse(fext, out);
            aba.generalizedForceResponse(tau, out);
            aba.factor(q);
        });
        assertTrue(bytes < 4096, "allocated " + bytes + " bytes");
    }
}
