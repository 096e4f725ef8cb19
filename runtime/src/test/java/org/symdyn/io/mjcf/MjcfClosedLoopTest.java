package org.symdyn.io.mjcf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.SolverSettings;
import org.symdyn.model.Model;
import org.symdyn.solvers.Assembly;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ConstraintRankException;
import org.symdyn.testing.SharedFiles;

/**
 * Closed loops from MJCF: Cassie's four {@code equality connect} linkages (Menagerie's cassie.xml, mesh-free copy in
 * {@code shared/reference-mjcf/models}) become 12 loop rows, linearly dependent (rank 10 or 11 with the
 * configuration; reported by name, as MuJoCo's soft equalities absorb it silently); with the dependent rows dropped the mechanism assembles from a perturbed configuration, and its constrained forward
 * dynamics satisfies every row at acceleration level, G v̇ = γ (γ = −Ġ v), within 1e-10.
 */
class MjcfClosedLoopTest {
    @Test
    void cassiesConnectLoopsAssembleAndHoldInConstrainedForwardDynamics() throws Exception {
        Model model = MjcfReader.read(SharedFiles.require("reference-mjcf/models/cassie.xml"));
        ConstraintSet set = ConstraintSet.of(model);
        assertEquals(12, set.size(), "four connect loops of three rows each");
        ConstraintData data = set.bindGeneric();
        Assembly assembly = new Assembly(data);
        // MuJoCo's soft equalities tolerate it; here the dependent row is reported, by name, then dropped on request
        double[] start = model.neutralConfiguration();
        start[2] = 1;
        ConstraintRankException redundant = assertThrows(ConstraintRankException.class,
                () -> assembly.assembleQ(start, ones(model.nv()), new double[model.nq()]));
        assertTrue(redundant.getMessage().contains("linearly dependent") && redundant.getMessage().contains("'connect"),
                redundant.getMessage());
        data.settings().rankPolicy(SolverSettings.RankPolicy.DROP_DEPENDENT_ROWS);
        Random rnd = new Random(5);
        int nq = model.nq(), nv = model.nv();
        double[] weights = ones(nv);
        for (int trial = 0; trial < 5; trial++) {
            double[] q0 = model.neutralConfiguration();
            q0[2] = 1;
            for (int i = 7; i < nq; i++) {
                q0[i] += 0.01 * rnd.nextGaussian(); // hinges near their reference; ball joints barely turned
            }
            for (int b = 0; b < model.bodyCount(); b++) {
                if (model.body(b).joint().type() == org.symdyn.model.JointType.BALL) {
                    int k = model.body(b).joint().qIndex();
                    double n = 0;
                    for (int i = k; i < k + 4; i++) {
                        n += q0[i] * q0[i];
                    }
                    for (int i = k; i < k + 4; i++) {
                        q0[i] /= Math.sqrt(n);
                    }
                }
            }
            double[] q = new double[nq];
            assertTrue(assembly.assembleQ(q0, weights, q), "assembles: error " + assembly.lastError());
            double[] phi = new double[set.size()];
            data.positionError(q, phi);
            for (double e : phi) {
                assertEquals(0, e, 1e-10, "loops closed");
            }
            double[] v0 = new double[nv];
            for (int i = 0; i < nv; i++) {
                v0[i] = rnd.nextGaussian();
            }
            double[] v = new double[nv];
            assembly.assembleV(q, v0, weights, v);
            double[] tau = new double[nv];
            for (int i = 6; i < nv; i++) {
                tau[i] = 5 * rnd.nextGaussian();
            }
            double[] vdot = new double[nv];
            new ConstrainedDynamics(data).forwardDynamicsDirect(q, v, tau, vdot);
            data.computeSystem(q, v);
            DMatrixRMaj g = data.G();
            double[] gamma = new double[set.size()];
            data.gamma(q, v, gamma);
            for (int r = 0; r < set.size(); r++) {
                double s = -gamma[r];
                for (int j = 0; j < nv; j++) {
                    s += g.get(r, j) * vdot[j];
                }
                assertEquals(0, s, 1e-10, "row " + r + " at acceleration level");
            }
        }
    }

    private static double[] ones(int n) {
        double[] w = new double[n];
        Arrays.fill(w, 1);
        return w;
    }
}
