package org.symdyn.simulation;

import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/** Small models for the simulation tests. */
public final class SimulationModels {
    private SimulationModels() {
    }

    /**
     * A simple pendulum swinging in the x-y plane about z: mass 1 kg at 1 m (inertia about the com 1e-3 kg·m²),
     * gravity (0, -9.81, 0); q = 0 is horizontal.
     */
    public static Model pendulum() throws ModelException {
        return Model.builder("pendulum").gravity(0, -9.81, 0)
                .addBody("bob", "world", "pivot", JointType.REVOLUTE, new double[] {0, 0, 1}, Pose.IDENTITY,
                        RigidBodyInertia.of(1, new double[] {1, 0, 0}, 1e-3, 0, 0, 1e-3, 0, 1e-3))
                .build();
    }

    /**
     * A rigid body on a floating joint without gravity: mass 2 kg, centre of mass offset (0.1, -0.05, 0.02) m from
     * the body origin, principal moments about the com (0.3, 0.2, 0.1) kg·m² with products of inertia, so that
     * every axis matters.
     */
    public static Model freeBody() throws ModelException {
        return Model.builder("free_body").gravity(0, 0, 0)
                .addBody("body", "world", "free", JointType.FLOATING, null, Pose.IDENTITY,
                        RigidBodyInertia.of(2, new double[] {0.1, -0.05, 0.02}, 0.3, 0.01, -0.02, 0.2, 0.015, 0.1))
                .build();
    }

    /** Every joint type: floating base, ball, revolute, prismatic, planar (nq = 18, nv = 16). */
    public static Model everyJoint() throws ModelException {
        RigidBodyInertia box = RigidBodyInertia.of(1.2, new double[] {0.1, 0.05, -0.02}, 0.02, 0.001, 0, 0.03,
                0.002, 0.025);
        return Model.builder("every_joint")
                .addBody("base", "world", "free", JointType.FLOATING, null, Pose.IDENTITY, box)
                .addBody("a", "base", "ball", JointType.BALL, null, Pose.translation(0.2, 0, 0), box)
                .addBody("b", "a", "hinge", JointType.REVOLUTE, new double[] {0, 0.6, 0.8},
                        Pose.translation(0, 0.3, 0), box)
                .addBody("c", "b", "slide", JointType.PRISMATIC, new double[] {1, 0, 0}, Pose.translation(0, 0, 0.2),
                        box)
                .addBody("d", "c", "plane", JointType.PLANAR, new double[] {0, 0, 1}, Pose.translation(0.1, 0, 0),
                        box)
                .build();
    }
}
