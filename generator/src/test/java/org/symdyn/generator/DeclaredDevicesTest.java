package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.testing.DeviceAssertions.assertSameDevices;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.symdyn.contract.DeclaredDevices;
import org.symdyn.contract.DeviceSpec;
import org.symdyn.contract.ImuSpec;
import org.symdyn.contract.ServoSpec;
import org.symdyn.model.Model;
import org.symdyn.io.urdf.UrdfReader;

/** Every generated class declares its model's devices, as constants equal bit for bit to the model's. */
class DeclaredDevicesTest {
    /** A fixed-base arm with a turned mount and a sensor link fixed to it; %s: the device elements. */
    private static String arm(String devices) {
        return """
                <robot name="arm" xmlns:symdyn="urn:symdyn:1">
                  <link name="base"/>
                  <link name="pillar"/>
                  <link name="upper">
                    <inertial><origin xyz="0 0 -0.3"/><mass value="1.5"/>
                      <inertia ixx="0.06" ixy="0" ixz="0" iyy="0.05" iyz="0" izz="0.01"/></inertial>
                  </link>
                  <link name="mount"/>
                  <link name="fore">
                    <inertial><origin xyz="0 0 -0.2"/><mass value="0.8"/>
                      <inertia ixx="0.02" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.002"/></inertial>
                  </link>
                  <joint name="pillar_joint" type="fixed"><parent link="base"/><child link="pillar"/>
                    <origin xyz="0.3 -0.1 0.7" rpy="0.2 0.1 -0.3"/></joint>
                  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
                    <axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
                  <joint name="mount_joint" type="fixed"><parent link="upper"/><child link="mount"/>
                    <origin xyz="0 0 -0.5" rpy="0.4 -0.2 0.1"/></joint>
                  <joint name="elbow" type="prismatic"><parent link="mount"/><child link="fore"/>
                    <axis xyz="1 0 0"/><limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
                %s
                </robot>
                """.formatted(devices);
    }

    private static final String EVERY_KIND = """
              <symdyn:servo name="shoulder &quot;servo&quot;" joint="shoulder" kp="0.30000000000000004" kd="-0" target="-1.2345678901234567e-3"/>
              <symdyn:imu name="tool_imu" link="mount" xyz="0.1 0.2 0.3" rpy="0.7 -0.3 1.1" gyro_noise="4.9e-324" accel_noise="0.01" gyro_bias="1e-300 -2e-5 3" accel_bias="0.1 0.2 0.3" seed="-9223372036854775808"/>
              <symdyn:motor name="elbow_motor" joint="elbow" torque_constant="0.0123" resistance="1.7976931348623157e308" free_speed="628.3185307179586" nominal_voltage="24" gear_ratio="-3.3333333333333335" voltage="-12.5"/>
              <symdyn:torque_source name="elbow_force" joint="elbow" command="2.5" max_torque="40"/>
              <symdyn:spring name="tendon" link1="pillar" point1="0.01 0.02 0.03" link2="mount" point2="0.1 0 0" stiffness="1e4" damping="12.5" rest_length="0.25"/>
              <symdyn:encoder name="shoulder_encoder" joint="shoulder" resolution="0.0015339807878856412" offset="-0.1"/>
              <symdyn:servo name="elbow_servo" joint="elbow" kp="200" kd="3" max_torque="50"/>""";

    private static Object instance(Model model, String className) throws Exception {
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", className));
        return InProcessCompiler.compile(gen).type().getDeclaredConstructor().newInstance();
    }

    @Test
    void theGeneratedClassDeclaresTheModelsDevicesBitForBit() throws Exception {
        Model model = UrdfReader.parse(arm(EVERY_KIND), "arm.urdf",
                UrdfReader.Options.DEFAULT);
        assertEquals(7, model.devices().size());
        DeclaredDevices generated = (DeclaredDevices) instance(model, "ArmWithDevices");
        assertSameDevices(model.devices(), generated.devices());
        assertEquals(-1, ((org.symdyn.contract.SpringDamperSpec) generated.devices().get(4)).body1(),
                "a link fixed to the root is the world");
        assertEquals(Double.POSITIVE_INFINITY, generated.device("shoulder \"servo\"", ServoSpec.class).maxTorque());
        assertEquals(Long.MIN_VALUE, generated.device("tool_imu", ImuSpec.class).seed());
        assertSame(generated.devices(), generated.devices(), "built once");
        assertSame(generated.devices(), ((org.symdyn.contract.Dynamics) generated).copy() instanceof DeclaredDevices d
                ? d.devices() : null, "shared by copies");
        List<DeviceSpec> list = generated.devices();
        assertThrows(UnsupportedOperationException.class, () -> list.set(0, list.get(1)));
    }

    @Test
    void aModelWithoutDevicesDeclaresNone() throws Exception {
        Model model = UrdfReader.parse(arm(""), "arm.urdf", UrdfReader.Options.DEFAULT);
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "ArmAlone"));
        assertTrue(gen.source().contains("private static final List<DeviceSpec> DEVICES = List.of();"),
                "one empty constant");
        Object instance = InProcessCompiler.compile(gen).type().getDeclaredConstructor().newInstance();
        assertEquals(List.of(), ((DeclaredDevices) instance).devices());
    }
}
