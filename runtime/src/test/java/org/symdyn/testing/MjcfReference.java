package org.symdyn.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Dynamics;
import org.symdyn.model.Model;

/**
 * The MJCF oracle's comparison ({@code shared/reference-mjcf/}, MuJoCo 3.14's H, C, g and forward dynamics in SymDyn's
 * coordinates), shared by the generic and the generated backend's tests: each quantity within {@link #REL_TOL}
 * relative, ‖ours − ref‖∞ ≤ 1e-9 · max(1, ‖ref‖∞). MuJoCo's H includes each joint's armature, as SymDyn's does;
 * q̈ is the backend's own forward dynamics (the articulated-body algorithm with the armature in its D).
 */
public final class MjcfReference {
    /** The bar of the MJCF oracle. */
    public static final double REL_TOL = 1e-9;

    private MjcfReference() {
    }

    /** Checks every sample of {@code json} against {@code dyn}; records the worst errors under {@code name}. */
    public static void compare(String name, Model model, Dynamics dyn, Path json, Map<String, Double> worst)
            throws Exception {
        Map<String, Object> ref = TestJson.object(TestJson.parse(json));
        int nv = dyn.nv();
        assertEquals(((Double) ref.get("nq")).intValue(), dyn.nq(), "nq");
        assertEquals(((Double) ref.get("nv")).intValue(), nv, "nv");
        assertEquals(TestJson.strings(ref.get("q_names")), model.qNames(), "q names");
        assertEquals(TestJson.strings(ref.get("v_names")), model.vNames(), "v names");
        double[] gravity = TestJson.vector(ref.get("gravity"));
        for (int i = 0; i < 3; i++) {
            assertEquals(gravity[i], model.gravity(i), 0, "gravity");
        }
        List<Object> samples = TestJson.list(ref.get("samples"));
        assertEquals(5, samples.size());
        DMatrixRMaj h = new DMatrixRMaj(nv, nv);
        double[] c = new double[nv];
        double[] g = new double[nv];
        for (int n = 0; n < samples.size(); n++) {
            Map<String, Object> s = TestJson.object(samples.get(n));
            double[] q = TestJson.vector(s.get("q"));
            double[] v = TestJson.vector(s.get("v"));
            double[] tau = TestJson.vector(s.get("tau"));
            dyn.massMatrix(q, h);
            check(worst, name, "H", n, flatten(TestJson.matrix(s.get("H"))), h.data);
            dyn.biasForces(q, v, c);
            check(worst, name, "C", n, TestJson.vector(s.get("C")), c);
            dyn.gravityForces(q, g);
            check(worst, name, "g", n, TestJson.vector(s.get("g")), g);
            double[] qdd = new double[nv];
            dyn.forwardDynamics(q, v, tau, qdd);
            check(worst, name, "qdd", n, TestJson.vector(s.get("qdd")), qdd);
        }
    }

    private static double[] flatten(double[][] m) {
        int n = m.length;
        double[] out = new double[n * n];
        for (int r = 0; r < n; r++) {
            System.arraycopy(m[r], 0, out, r * n, n);
        }
        return out;
    }

    private static void check(Map<String, Double> worst, String model, String quantity, int sample,
            double[] expected, double[] actual) {
        assertEquals(expected.length, actual.length, model + " " + quantity + " size");
        double scale = 1;
        double err = 0;
        for (int i = 0; i < expected.length; i++) {
            scale = Math.max(scale, Math.abs(expected[i]));
            err = Math.max(err, Math.abs(expected[i] - actual[i]));
        }
        double rel = err / scale;
        worst.merge(model + " " + quantity, rel, Math::max);
        assertTrue(rel <= REL_TOL, model + " sample " + sample + " " + quantity + ": relative error " + rel
                + " > " + REL_TOL);
    }
}
