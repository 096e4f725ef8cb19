package org.symdyn.contact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.geometry.Box;
import org.symdyn.geometry.Capsule;
import org.symdyn.geometry.Sphere;
import org.symdyn.geometry.TriangleMesh;
import org.symdyn.model.GroundModel;
import org.symdyn.model.LidarModel;
import org.symdyn.model.Model;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;
import org.symdyn.systems.Lidar;
import org.symdyn.testing.ShapeScenes;

/**
 * A time step with contact between shapes (box on box, a sphere on a static mesh, a capsule on the ground) and a
 * Lidar reading allocate nothing once set up (the stepper's buffers, detection and warm starts are preallocated).
 */
class ShapeContactAllocationTest {
    @Test
    void aStepWithShapeContactsAndALidarReadingAllocateNothing() throws Exception {
        ShapeScenes s = new ShapeScenes("mixed");
        s.builder().addGround(new GroundModel("floor", new double[3], new double[] {0, 0, 1}, 0.8, 0,
                SourceLocation.UNKNOWN));
        // a flat static mesh of two triangles at z = 0.5 under the sphere
        TriangleMesh plate = TriangleMesh.of(new double[] {-1, 1.5, 0.5, 1, 1.5, 0.5, 1, 3.5, 0.5, -1, 3.5, 0.5},
                new int[] {0, 1, 2, 0, 2, 3});
        s.shape("plate", "world", Pose.IDENTITY, plate, 0.7)
                .shape("table", "world", Pose.translation(0, 0, 0.25), new Box(0.5, 0.5, 0.25), 0.7)
                .freeBox("box", 1, 0.1, 0.1, 0.1, 0.7)
                .freeSphere("ball", 1, 0.1, 0.7);
        s.builder().addBody(org.symdyn.model.BodySpec.builder("rod", "world", "rod_base",
                org.symdyn.model.JointType.FLOATING).inertia(org.symdyn.spatial.RigidBodyInertia.of(1,
                new double[3], 0.01, 0, 0, 0.01, 0, 0.001)).build());
        s.shape("rod", "rod", Pose.of(new double[] {0, 0, 1, 0, 1, 0, -1, 0, 0}, new double[3]), new Capsule(0.05,
                0.4), 0.7);
        s.builder().addLidar(new LidarModel("scan", "box", 0, Pose.IDENTITY, 90, -Math.PI, Math.PI, 1, 0, 0, 0.05,
                10, 0.01, SourceLocation.UNKNOWN));
        Model m = s.build();
        GenericDynamics d = new GenericDynamics(m);
        ContactSet set = ContactSet.of(m);
        TimeStepper stepper = TimeStepper.builder(d).contacts(set).build();
        double[] q = new double[21];
        System.arraycopy(ShapeScenes.pose(0, 0, 0.6, 0), 0, q, 0, 7);
        System.arraycopy(ShapeScenes.pose(0, 2.5, 0.6, 0), 0, q, 7, 7);
        System.arraycopy(ShapeScenes.pose(2, 0, 0.05, 0), 0, q, 14, 7);
        double[] v = new double[18];
        double[] tau = new double[18];
        double[] q0 = q.clone();
        Lidar lidar = new Lidar(m.scene().lidars().get(0), set, d, 3);
        double[] scan = new double[lidar.size()];
        for (int i = 0; i < 300; i++) {
            stepper.step(q, v, tau, 1e-3, q, v);
        }
        assertEquals(4 + 1 + 2, stepper.contactCount(), "box on table, ball on plate, rod's two ends on the floor");
        long bytes = AllocationProbe.allocatedBytesSettled(200, () -> {
            System.arraycopy(q0, 0, q, 0, q.length);
            java.util.Arrays.fill(v, 0);
            for (int i = 0; i < 5; i++) {
                stepper.step(q, v, tau, 1e-3, q, v);
            }
            lidar.read(0, q, v, v, scan);
        });
        assertEquals(0, bytes, "bytes allocated by 1,000 steps and 200 scans (the quietest of six passes)");
        assertTrue(stepper.unconvergedSolves() == 0, stepper.summary());
    }
}
