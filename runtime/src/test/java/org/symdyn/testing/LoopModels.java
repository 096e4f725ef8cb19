package org.symdyn.testing;

import java.util.List;
import org.symdyn.model.JointType;
import org.symdyn.model.LoopConstraintModel;
import org.symdyn.model.Model;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/** Closed-loop models built in code, for tests of several modules (through the runtime's test-jar). */
public final class LoopModels {
    private LoopModels() {
    }

    /**
     * A planar four-bar (crank, coupler, rocker of 1 kg rods about z; the loop closes the rocker's tip 1.5 m out onto
     * the ground 2 m out, along x and y) whose coupler joint sits at the declared parameter {@code crankLength}
     * (the crank's length, 1 m in the model), so that setting it moves the loop.
     */
    public static Model fourBarWithCrankLength() throws org.symdyn.model.ModelException {
        double[] z = {0, 0, 1};
        RigidBodyInertia rod = RigidBodyInertia.of(1, new double[] {0.5, 0, 0}, 0.001, 0, 0, 0.1, 0, 0.1);
        return Model.builder("fourbar").root("ground").gravity(0, -9.81, 0)
                .addBody("crank", "ground", "crank_joint", JointType.REVOLUTE, z, Pose.IDENTITY, rod)
                .addBody("coupler", "crank", "coupler_joint", JointType.REVOLUTE, z, Pose.translation(1, 0, 0), rod)
                .addBody("rocker", "coupler", "rocker_joint", JointType.REVOLUTE, z, Pose.translation(2, 0, 0), rod)
                .addConstraint(new LoopConstraintModel("closure", -1, Pose.translation(2, 0, 0), 2,
                        Pose.translation(1.5, 0, 0), List.of(new double[] {0, 0, 0, 1, 0, 0},
                                new double[] {0, 0, 0, 0, 1, 0}), Double.NaN, SourceLocation.UNKNOWN))
                .addParameter("crankLength", null, "coupler_joint", "origin_x", SourceLocation.UNKNOWN)
                .build();
    }
}
