package org.symdyn.dynamics;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.stream.Stream;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.model.Model;
import org.symdyn.spatial.SpatialVectors;

/**
 * The generic ∂τ/∂q and ∂τ/∂v ({@link InertialFrameDerivatives}, the same equations as the generated classes') against
 * an independent oracle kept here: the forward-mode differentiation of the RNEA along one tangent direction at a time
 * in body coordinates, which the runtime ran before (the directions of {@link DerivativeRecursions}, their force pass
 * written out below). Every shared model (and the quadrupeds and the humanoid floating), and two built models with
 * planar, ball, prismatic and continuous joints, on random states; then with the floating base moved 1 km away, where
 * world coordinates would lose about six digits and the root's lose none. Tolerance 1e-12 of the largest entry (at
 * least 1): the two are different arithmetic of the same quantity, measured 1.1e-15 apart near the origin.
 */
class InertialFrameDerivativesTest {
    private static final int STATES = 10;
    private static final double TOL = 1e-12;

    static Stream<String> models() {
        return DynamicsPropertyTest.models();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void matchesTheDirectionalOracle(String name) throws Exception {
        Model model = DynamicsPropertyTest.model(name);
        GenericDynamics generic = new GenericDynamics(model);
        Oracle oracle = new Oracle(model);
        Random rnd = new Random(name.hashCode());
        int nv = model.nv();
        double worst = 0;
        for (int s = 0; s < 2 * STATES; s++) {
            double[] q = DynamicsPropertyTest.randomConfiguration(model, rnd);
            if (s >= STATES) {
                // the floating base (if any) far from the world's origin
                DynamicsPropertyTest.farFromTheOrigin(model, q);
            }
            double[] v = random(rnd, nv, 2);
            double[] vdot = random(rnd, nv, 3);
            DMatrixRMaj dq = new DMatrixRMaj(nv, nv);
            DMatrixRMaj dv = new DMatrixRMaj(nv, nv);
            DMatrixRMaj oq = new DMatrixRMaj(nv, nv);
            DMatrixRMaj ov = new DMatrixRMaj(nv, nv);
            generic.inverseDynamicsDerivatives(q, v, vdot, dq, dv);
            oracle.inverseDynamicsDerivatives(q, v, vdot, oq, ov);
            worst = Math.max(worst, Math.max(relative(dq, oq), relative(dv, ov)));
        }
        System.out.printf("%-40s dtau worst relative difference to the directional oracle %.2e%n", name, worst);
        assertTrue(worst <= TOL, name + ": " + worst);
    }

    private static double relative(DMatrixRMaj a, DMatrixRMaj b) {
        double scale = 1;
        double diff = 0;
        for (int i = 0; i < a.data.length; i++) {
            scale = Math.max(scale, Math.abs(b.data[i]));
            diff = Math.max(diff, Math.abs(a.data[i] - b.data[i]));
        }
        return diff / scale;
    }

    private static double[] random(Random rnd, int n, double scale) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = scale * (2 * rnd.nextDouble() - 1);
        }
        return x;
    }

    /**
     * Along direction k of body j: δv and δa of the subtree ({@link DerivativeRecursions#motion}), then
     * δf_i = I_i δa_i + δv_i ×* I_i v_i + v_i ×* I_i δv_i, and the backward pass that sums them and carries them across
     * the moving joint ({@link DerivativeRecursions#backward}).
     */
    private static final class Oracle {
        private final FlatModel flat;
        private final DynamicsWorkspace ws;
        private final DerivativeRecursions rec;
        private final double[] iv;
        private final double[] tau;
        private final double[] t6a = new double[6];
        private final double[] t6b = new double[6];
        private final double[] t6c = new double[6];

        Oracle(Model model) {
            flat = new FlatModel(model);
            ws = new DynamicsWorkspace(model);
            rec = new DerivativeRecursions(flat, ws, false);
            iv = new double[6 * ws.nb];
            tau = new double[ws.nv];
        }

        void inverseDynamicsDerivatives(double[] q, double[] v, double[] vdot, DMatrixRMaj dq, DMatrixRMaj dv) {
            RecursiveNewtonEuler.inverseDynamics(flat, ws, q, v, vdot, true, tau);
            for (int i = 0; i < ws.nb; i++) {
                flat.inertiaTimes(i, ws.vel, 6 * i, iv, 6 * i);
            }
            rec.prepareMotion(vdot);
            JointTransforms joints = ws.joints;
            for (int j = 0; j < ws.nb; j++) {
                for (int d = 0; d < joints.dofs[j]; d++) {
                    int k = joints.vIndex[j] + d;
                    for (boolean wrtQ : new boolean[] {true, false}) {
                        rec.motion(j, k, wrtQ, v);
                        for (int i = j; i < ws.nb; i++) {
                            if (rec.inSubtree[i]) {
                                int b = 6 * i;
                                flat.inertiaTimes(i, rec.da, b, rec.df, b);
                                SpatialVectors.crossForce(rec.dv, b, iv, b, t6a, 0);
                                flat.inertiaTimes(i, rec.dv, b, t6b, 0);
                                SpatialVectors.crossForce(ws.vel, b, t6b, 0, t6c, 0);
                                for (int c = 0; c < 6; c++) {
                                    rec.df[b + c] += t6a[c] + t6c[c];
                                }
                            }
                        }
                        rec.backward(j, k, wrtQ, wrtQ ? dq : dv, ws.force);
                    }
                }
            }
        }
    }
}
