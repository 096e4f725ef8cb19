package org.symdyn.systems;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.symdyn.contact.ContactSet;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.geometry.Box;
import org.symdyn.geometry.Sphere;
import org.symdyn.model.BodySpec;
import org.symdyn.model.ContactMaterial;
import org.symdyn.model.GroundModel;
import org.symdyn.model.JointType;
import org.symdyn.model.LidarModel;
import org.symdyn.model.Model;
import org.symdyn.model.ModelBuilder;
import org.symdyn.model.ModelException;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * The Lidar against analytic distances: a wall ahead, the floor below a tilted row, nothing to the side, its own
 * link unseen, its pose following the body, noise seeded and clamped.
 */
class LidarTest {
    private static final SourceLocation HERE = SourceLocation.UNKNOWN;

    /** A free robot (a sphere of radius 0.2 on link "robot") with a Lidar at its origin; a wall face at x = 1.5. */
    private static Model scene(double noise) throws ModelException {
        ModelBuilder b = Model.builder("lidar_scene");
        b.addBody(BodySpec.builder("robot", "world", "base", JointType.FLOATING)
                .inertia(RigidBodyInertia.of(1, new double[3], 0.01, 0, 0, 0.01, 0, 0.01)).build());
        b.addCollisionShape("hull", "robot", Pose.IDENTITY, new Sphere(0.2), ContactMaterial.DEFAULT, HERE);
        b.addCollisionShape("wall", "world", Pose.translation(2, 0, 0), new Box(0.5, 1, 1), ContactMaterial.DEFAULT,
                HERE);
        b.addGround(new GroundModel("floor", new double[] {0, 0, -0.5}, new double[] {0, 0, 1}, 1, 0, HERE));
        // 4 rays a quarter turn apart, rows at elevations -45 and 0 degrees
        b.addLidar(new LidarModel("front", "robot", 0, Pose.IDENTITY, 4, 0, 1.5 * Math.PI, 2, -Math.PI / 4, 0,
                0.05, 10, noise, HERE));
        return b.build();
    }

    @Test
    void readsTheDistanceToTheFirstShapeOrGroundAlongEachRay() throws ModelException {
        Model m = scene(0);
        GenericDynamics d = new GenericDynamics(m);
        Lidar lidar = new Lidar(m.scene().lidars().get(0), ContactSet.of(m), d, 1);
        assertEquals(8, lidar.size());
        double[] q = {0, 0, 0, 0, 0, 0, 1};
        double[] out = new double[8];
        lidar.read(0, q, new double[6], new double[6], out);
        double down = 0.5 * Math.sqrt(2);
        // row 0 (−45°): every ray meets the floor 0.5 m below; ray 0 meets the floor before the wall
        for (int k = 0; k < 4; k++) {
            assertEquals(down, out[k], 1e-12, "row 0 ray " + k);
        }
        assertEquals(1.5, out[4], 1e-12, "ahead: the wall face at x = 1.5 (its own sphere unseen)");
        assertEquals(10, out[5], 0, "to the left: nothing within range_max");
        assertEquals(10, out[6], 0, "behind");
        assertEquals(10, out[7], 0, "to the right");
        // turned a quarter turn about z and moved 0.5 m towards −y: ray 3 (azimuth 270°) now looks along +x
        double s = Math.sqrt(0.5);
        double[] turned = {0, -0.5, 0, 0, 0, s, s};
        lidar.read(0, turned, new double[6], new double[6], out);
        assertEquals(1.5, out[7], 1e-12, "the Lidar turns with its body");
        assertEquals(10, out[4], 0);
    }

    @Test
    void aStateThatIsNotFiniteReadsNaN() throws ModelException {
        Model m = scene(0);
        Lidar lidar = new Lidar(m.scene().lidars().get(0), ContactSet.of(m), new GenericDynamics(m), 1);
        double[] out = new double[8];
        lidar.read(0, new double[] {Double.NaN, 0, 0, 0, 0, 0, 1}, new double[6], new double[6], out);
        for (double r : out) {
            assertTrue(Double.isNaN(r), Arrays.toString(out));
        }
    }

    @Test
    void noiseIsSeededAndClampedToTheRange() throws ModelException {
        Model m = scene(0.01);
        GenericDynamics d = new GenericDynamics(m);
        Lidar a = new Lidar(m.scene().lidars().get(0), ContactSet.of(m), d, 42);
        Lidar b = new Lidar(m.scene().lidars().get(0), ContactSet.of(m), d, 42);
        double[] q = {0, 0, 0, 0, 0, 0, 1};
        double[] ra = new double[8];
        double[] rb = new double[8];
        a.read(0, q, new double[6], new double[6], ra);
        b.read(0, q, new double[6], new double[6], rb);
        assertTrue(Arrays.equals(ra, rb), "same seed, same readings");
        assertTrue(Math.abs(ra[4] - 1.5) > 0 && Math.abs(ra[4] - 1.5) < 0.1, "noisy: " + ra[4]);
        for (double r : ra) {
            assertTrue(r >= 0.05 && r <= 10, "clamped: " + r);
        }
    }
}
