package org.symdyn.rollout;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;

/** A small legged body for the rollout tests: a floating trunk on two servoed legs, feet and corners on a floor. */
final class RolloutModels {
    static final String URDF = """
            <robot name="biped_box" xmlns:symdyn="urn:symdyn:1">
              <link name="world"/>
              <link name="trunk"><inertial><mass value="5"/>
                <inertia ixx="0.02" ixy="0" ixz="0" iyy="0.07" iyz="0" izz="0.08"/></inertial></link>
              <joint name="free" type="floating"><parent link="world"/><child link="trunk"/></joint>
              <link name="leg_l"><inertial><origin xyz="0 0 -0.1"/><mass value="0.5"/>
                <inertia ixx="0.002" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.0002"/></inertial></link>
              <link name="leg_r"><inertial><origin xyz="0 0 -0.1"/><mass value="0.5"/>
                <inertia ixx="0.002" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.0002"/></inertial></link>
              <joint name="hip_l" type="revolute"><parent link="trunk"/><child link="leg_l"/>
                <origin xyz="0.15 0 -0.05"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="30" velocity="10"/></joint>
              <joint name="hip_r" type="revolute"><parent link="trunk"/><child link="leg_r"/>
                <origin xyz="-0.15 0 -0.05"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="30" velocity="10"/></joint>
              <link name="foot_l"/>
              <joint name="foot_l_mount" type="fixed"><parent link="leg_l"/><child link="foot_l"/><origin xyz="0 0 -0.2"/></joint>
              <link name="foot_r"/>
              <joint name="foot_r_mount" type="fixed"><parent link="leg_r"/><child link="foot_r"/><origin xyz="0 0 -0.2"/></joint>
              <symdyn:ground name="floor" point="0 0 0" normal="0 0 1" friction="0.8"/>
              <symdyn:contact_point name="toe_l" link="foot_l"/>
              <symdyn:contact_point name="toe_r" link="foot_r"/>
              <symdyn:contact_point name="c1" link="trunk" point="0.2 0.1 0.05"/>
              <symdyn:contact_point name="c2" link="trunk" point="0.2 -0.1 0.05"/>
              <symdyn:contact_point name="c3" link="trunk" point="-0.2 0.1 0.05"/>
              <symdyn:contact_point name="c4" link="trunk" point="-0.2 -0.1 0.05"/>
              <symdyn:servo name="servo_l" joint="hip_l" kp="60" kd="2" target="0" max_torque="30"/>
              <symdyn:servo name="servo_r" joint="hip_r" kp="60" kd="2" target="0" max_torque="30"/>
              <symdyn:imu name="imu" link="trunk" gyro_noise="0.01" accel_noise="0.05" seed="3"/>
            </robot>
            """;

    private RolloutModels() {
    }

    static Model bipedBox() {
        try {
            return UrdfReader.parse(URDF, "biped_box.urdf", null);
        } catch (ModelException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /**
     * Drops from random heights (0.3-0.6 m for the trunk), attitudes (roll and pitch within ±0.4 rad, any yaw),
     * small velocities, friction in [0.2, 1.2] and kp in [30, 90], each with its own noise seed.
     */
    static List<RolloutSpec> drops(int count, long seed, double duration) {
        SplittableRandom random = new SplittableRandom(seed);
        List<RolloutSpec> specs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            double roll = random.nextDouble(-0.4, 0.4);
            double pitch = random.nextDouble(-0.4, 0.4);
            double yaw = random.nextDouble(-Math.PI, Math.PI);
            double[] quat = quaternion(roll, pitch, yaw);
            double[] q0 = {random.nextDouble(-0.1, 0.1), random.nextDouble(-0.1, 0.1), random.nextDouble(0.3, 0.6),
                quat[0], quat[1], quat[2], quat[3], random.nextDouble(-0.3, 0.3), random.nextDouble(-0.3, 0.3)};
            double[] v0 = new double[8];
            for (int k = 0; k < 6; k++) {
                v0[k] = random.nextDouble(-0.5, 0.5);
            }
            TreeMap<String, Double> parameters = new TreeMap<>();
            parameters.put("friction", random.nextDouble(0.2, 1.2));
            parameters.put("kp", random.nextDouble(30, 90));
            specs.add(new RolloutSpec(q0, v0, parameters, random.nextLong(), duration, 1e-3));
        }
        return specs;
    }

    /** (x, y, z, w) of R = Rz(yaw) Ry(pitch) Rx(roll). */
    static double[] quaternion(double roll, double pitch, double yaw) {
        double cr = StrictMath.cos(roll / 2), sr = StrictMath.sin(roll / 2);
        double cp = StrictMath.cos(pitch / 2), sp = StrictMath.sin(pitch / 2);
        double cy = StrictMath.cos(yaw / 2), sy = StrictMath.sin(yaw / 2);
        return new double[] {sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy,
            cr * cp * cy + sr * sp * sy};
    }
}
