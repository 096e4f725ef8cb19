package org.symdyn.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.symdyn.rollout.RolloutSpec;

/**
 * The tests' model and batch: a free 1 kg box (0.2 x 0.2 x 0.1 m) whose eight corners are contact points (so that
 * it lands on any face), over the floor z = 0, dropped from random heights and attitudes with random velocities onto floors of random
 * friction. Small (nq = 7, eight contact points) so that hundreds of rollouts take seconds on the interpreter, and with
 * contact, impacts, sliding and sticking in every rollout.
 */
final class DroppedBox {
    static final String FILE_NAME = "dropped_box.urdf";

    static final String URDF = """
            <?xml version="1.0"?>
            <robot name="dropped_box" xmlns:symdyn="urn:symdyn:1">
              <link name="world"/>
              <link name="box">
                <inertial><origin xyz="0 0 0"/><mass value="1"/>
                  <inertia ixx="0.004166666666666667" ixy="0" ixz="0" iyy="0.004166666666666667" iyz="0"
                           izz="0.006666666666666667"/></inertial>
              </link>
              <joint name="box_free" type="floating"><parent link="world"/><child link="box"/></joint>
              <symdyn:ground name="floor" point="0 0 0" normal="0 0 1" friction="0.6"/>
              <symdyn:contact_point name="corner_fl" link="box" point="0.1 0.1 -0.05"/>
              <symdyn:contact_point name="corner_fr" link="box" point="0.1 -0.1 -0.05"/>
              <symdyn:contact_point name="corner_hl" link="box" point="-0.1 0.1 -0.05"/>
              <symdyn:contact_point name="corner_hr" link="box" point="-0.1 -0.1 -0.05"/>
              <symdyn:contact_point name="top_fl" link="box" point="0.1 0.1 0.05"/>
              <symdyn:contact_point name="top_fr" link="box" point="0.1 -0.1 0.05"/>
              <symdyn:contact_point name="top_hl" link="box" point="-0.1 0.1 0.05"/>
              <symdyn:contact_point name="top_hr" link="box" point="-0.1 -0.1 0.05"/>
            </robot>
            """;

    /** Simulated time of each rollout, s (the box lands, bounces or slides, and mostly comes to rest). */
    static final double DURATION = 0.6;
    static final double TIME_STEP = 1e-3;

    private DroppedBox() {
    }

    /**
     * {@code count} drops: the box's centre 0.16 to 0.4 m above the floor (a corner is at most 0.15 m from it), its
     * attitude a random unit quaternion (x, y, z, w), angular velocity up to 5 rad/s and linear up to 1 m/s in each
     * component (v = [ω; v], body coordinates), the floor's friction 0.1 to 1.0, and a seed per rollout.
     */
    static List<RolloutSpec> drops(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<RolloutSpec> specs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            double[] quaternion = new double[4];
            double norm = 0;
            for (int k = 0; k < 4; k++) {
                quaternion[k] = random.nextDouble(-1, 1);
                norm += quaternion[k] * quaternion[k];
            }
            norm = Math.sqrt(norm);
            double[] q0 = {random.nextDouble(-0.5, 0.5), random.nextDouble(-0.5, 0.5), random.nextDouble(0.16, 0.4),
                    quaternion[0] / norm, quaternion[1] / norm, quaternion[2] / norm, quaternion[3] / norm};
            double[] v0 = new double[6];
            for (int k = 0; k < 3; k++) {
                v0[k] = random.nextDouble(-5, 5);
                v0[3 + k] = random.nextDouble(-1, 1);
            }
            TreeMap<String, Double> parameters = new TreeMap<>();
            parameters.put("friction", random.nextDouble(0.1, 1.0));
            specs.add(new RolloutSpec(q0, v0, parameters, random.nextLong(), DURATION, TIME_STEP));
        }
        return specs;
    }
}
