package org.symdyn.solvers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.model.Model;
import org.symdyn.spatial.Pose;

/**
 * Issue 10, item 17: Assembly accepted tolerance NaN, negative iteration limits and a guess longer than nq, and
 * returned success with a zero quaternion.
 */
class AssemblyArgumentsTest {
    private static final List<double[]> ALL_AXES = List.of(new double[] {1, 0, 0, 0, 0, 0},
            new double[] {0, 1, 0, 0, 0, 0}, new double[] {0, 0, 1, 0, 0, 0}, new double[] {0, 0, 0, 1, 0, 0},
            new double[] {0, 0, 0, 0, 1, 0}, new double[] {0, 0, 0, 0, 0, 1});

    private static Assembly weldedBiped(Model model) {
        ConstraintSet.Builder set = ConstraintSet.builder(model).withoutModelConstraints();
        set.addLoop(-1, Pose.IDENTITY, 0, Pose.IDENTITY, ALL_AXES, false, 0.1, "weld", ConstraintSet.NO_ID);
        return new Assembly(set.build().bindGeneric());
    }

    private static double[] ones(int n) {
        double[] w = new double[n];
        Arrays.fill(w, 1);
        return w;
    }

    @Test
    void badArgumentsAreRefused() throws Exception {
        Model model = TestMechanisms.floatingBiped();
        Assembly assembly = weldedBiped(model);
        int nq = model.nq();
        int nv = model.nv();
        double[] q0 = new double[nq];
        q0[6] = 1; // identity quaternion (x, y, z, w)
        double[] w = ones(nv);
        double[] out = new double[nq];
        assertTrue(assembly.assembleQ(q0, w, out));

        String nan = assertThrows(IllegalArgumentException.class,
                () -> assembly.assembleQ(q0, w, Double.NaN, 10, out)).getMessage();
        assertEquals("tolerance must be a finite positive number, got NaN", nan);
        assertThrows(IllegalArgumentException.class, () -> assembly.assembleQ(q0, w, -1e-9, 10, out));
        assertThrows(IllegalArgumentException.class, () -> assembly.assembleQ(q0, w, 0, 10, out));
        assertEquals("maxIterations must not be negative, got -1", assertThrows(IllegalArgumentException.class,
                () -> assembly.assembleQ(q0, w, 1e-12, -1, out)).getMessage());
        assertEquals("q0 must have " + nq + " entries, got " + (nq + 1), assertThrows(
                IllegalArgumentException.class, () -> assembly.assembleQ(Arrays.copyOf(q0, nq + 1), w, out))
                .getMessage());
        assertThrows(IllegalArgumentException.class, () -> assembly.assembleQ(q0, w, new double[nq + 2]));
        double[] inf = q0.clone();
        inf[0] = Double.POSITIVE_INFINITY;
        assertThrows(IllegalArgumentException.class, () -> assembly.assembleQ(inf, w, out));

        // a zero quaternion was "assembled" with success = true
        double[] zero = new double[nq];
        String msg = assertThrows(IllegalArgumentException.class, () -> assembly.assembleQ(zero, w, out))
                .getMessage();
        assertTrue(msg.contains("quaternion") && msg.contains("is zero"), msg);

        assertThrows(IllegalArgumentException.class,
                () -> assembly.assembleV(q0, new double[nv + 1], w, new double[nv]));
        assertThrows(IllegalArgumentException.class, () -> assembly.assembleV(zero, new double[nv], w,
                new double[nv]));
        assertThrows(IllegalArgumentException.class, () -> assembly.assembleV(q0, new double[nv], w,
                new double[nv - 1]));
    }
}
