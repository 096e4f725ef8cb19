package org.symdyn.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.it.probe.ProbeDynamics;

/** The class that symdyn:generate-test made from src/test/symdyn/probe.urdf, compiled with the tests. */
class TestModelTest {
    @Test
    void probe() {
        ProbeDynamics p = new ProbeDynamics();
        assertEquals(1, p.nv());
        // H = Iyy + m l^2 = 0.05 + 1 * 0.5^2, whatever q
        DMatrixRMaj h = new DMatrixRMaj(1, 1);
        p.massMatrix(new double[] {-0.8}, h);
        assertEquals(0.3, h.get(0, 0), 1e-12);
    }
}
