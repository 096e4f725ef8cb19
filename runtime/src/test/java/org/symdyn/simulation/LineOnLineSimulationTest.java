package org.symdyn.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.model.JointType;
import org.symdyn.model.LineOnLineConstraintModel;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.model.SourceLocation;
import org.symdyn.solvers.Assembly;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * A block balanced with its bottom edge across a fixed edge (a knife edge along world y), under gravity: the
 * line-on-line constraint of the model (rolling: the edges may not slip; sliding: only no separation) simulated with
 * projection. The constraint forces do no work (n·Δv = 0 and, rolling, Δv = 0 at the contact), so energy is
 * conserved up to integration and projection error. The rows hold the infinite lines (as Simbody's do; the half
 * lengths are not enforced), so the sliding block, once it has turned its edge steep, slides down along it: it ends
 * about 3.7 m below the knife edge after 1 s.
 */
class LineOnLineSimulationTest {
    /** World edge F along y, outward +z; block edge B along the block's x at (0, 0, -0.1), outward -z. */
    static Model blockOnKnifeEdge(boolean rolling) throws ModelException {
        Pose knife = Pose.of(new double[] {0, -1, 0, 1, 0, 0, 0, 0, 1}, new double[3]);
        Pose bottom = Pose.of(new double[] {1, 0, 0, 0, -1, 0, 0, 0, -1}, new double[] {0, 0, -0.1});
        return Model.builder("knife_edge")
                .addBody("block", "world", "free", JointType.FLOATING, null, Pose.IDENTITY,
                        RigidBodyInertia.of(1, new double[] {0.02, 0.01, 0}, 0.004, 0, 0, 0.006, 0, 0.008))
                .addConstraint(new LineOnLineConstraintModel("edge", -1, knife, 0.5, 0, bottom, 0.2, rolling,
                        Double.NaN, SourceLocation.UNKNOWN))
                .build();
    }

    private static void simulate(boolean rolling) throws Exception {
        Model model = blockOnKnifeEdge(rolling);
        Simulator sim = Simulator.builder(model).integrator(RungeKutta4::new).driftControl(DriftControl.PROJECTION)
                .build();
        ConstraintData set = sim.constraintData();
        assertEquals(rolling ? 3 : 1, set.size());
        Assembly assembly = new Assembly(set);
        double[] ones = {1, 1, 1, 1, 1, 1};
        double[] q = new double[7];
        // Slightly off the edge and tilted: assembly puts the edges back in contact.
        assertTrue(assembly.assembleQ(new double[] {0.01, -0.02, 0.12, 0.02, 0.03, 0.01, 1}, ones, q));
        double[] v = new double[6];
        assembly.assembleV(q, new double[] {0.3, 1.0, 0.2, 0.1, 0.1, 0}, ones, v);
        sim.setState(0, q, v);
        SimulationLog log = new SimulationLog(2001);
        sim.run(1, 1e-3, log);
        double[] pb = new double[3];
        double[] rot = new double[9];
        sim.kinematics().bodyPose(sim.q(), 0, rot, pb);
        System.out.printf("knife edge (%s) 1 s RK4 h=1e-3 PROJECTION: max|phi| %.2e, max|phidot| %.2e, "
                + "max|E-E0| %.3e J (E0 %.4f J), final block origin (%.3f, %.3f, %.3f)%n",
                rolling ? "rolling" : "sliding", log.maxPositionError(), log.maxVelocityError(),
                log.maxEnergyDrift(), log.initialEnergy(), pb[0], pb[1], pb[2]);
        assertTrue(log.maxPositionError() < 1e-8);
        assertTrue(log.maxVelocityError() < 1e-8);
        assertTrue(log.maxQuaternionNormError() < 1e-12);
        assertTrue(log.maxEnergyDrift() < 1e-6, "energy drift " + log.maxEnergyDrift());
        assertEquals(0, sim.projectionFailures());
        // The block fell off its balance: it moved (the test exercised real motion, not a rest state).
        assertTrue(Math.abs(pb[2] - q[2]) > 0.01 || Math.abs(rot[8] - 1) > 0.01);
    }

    @Test
    void rollingEdgeOnKnifeEdge() throws Exception {
        simulate(true);
    }

    @Test
    void slidingEdgeOnKnifeEdge() throws Exception {
        simulate(false);
    }
}
