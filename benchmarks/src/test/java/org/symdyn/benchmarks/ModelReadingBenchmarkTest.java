package org.symdyn.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;

/**
 * {@link ModelReadingBenchmark} runs once (set-up and both readings, no timing) and its two texts are the same
 * robot: equal bodies, joints, armature and damping, and H at a random state within 1e-12.
 */
class ModelReadingBenchmarkTest {
    @Test
    void bothTextsReadAsTheSameRobot() throws Exception {
        ModelReadingBenchmark b = new ModelReadingBenchmark();
        b.setUp();
        Model mjcf = b.readMjcf();
        Model urdf = b.readUrdf();
        assertEquals(ModelReadingBenchmark.BODIES, mjcf.bodyCount());
        assertEquals(ModelReadingBenchmark.BODIES, urdf.bodyCount());
        assertTrue(mjcf.warnings().isEmpty(), mjcf.warnings().toString());
        assertTrue(urdf.warnings().isEmpty(), urdf.warnings().toString());
        assertEquals(urdf.qNames(), mjcf.qNames());
        for (int i = 0; i < mjcf.bodyCount(); i++) {
            assertEquals(urdf.body(i).name(), mjcf.body(i).name());
            assertEquals(urdf.body(i).joint().armature(), mjcf.body(i).joint().armature(), 0);
            assertEquals(urdf.body(i).joint().damping(), mjcf.body(i).joint().damping(), 0);
        }
        assertEquals(ModelReadingBenchmark.BODIES, mjcf.collisionShapes().size());
        assertEquals(ModelReadingBenchmark.BODIES, urdf.collisionShapes().size());
        int nv = mjcf.nv();
        double[] q = new double[nv];
        Random random = new Random(33);
        for (int k = 0; k < nv; k++) {
            q[k] = random.nextDouble() * 4 - 2;
        }
        DMatrixRMaj a = new DMatrixRMaj(nv, nv);
        DMatrixRMaj c = new DMatrixRMaj(nv, nv);
        new GenericDynamics(mjcf).massMatrix(q, a);
        new GenericDynamics(urdf).massMatrix(q, c);
        double scale = 1;
        for (double x : c.data) {
            scale = Math.max(scale, Math.abs(x));
        }
        for (int k = 0; k < a.data.length; k++) {
            assertEquals(c.data[k], a.data[k], 1e-12 * scale, "H entry " + k);
        }
    }
}
