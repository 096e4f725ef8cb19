package org.symdyn.io.mjcf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.symdyn.io.mjcf.MjcfTesting.errorAt;
import static org.symdyn.io.mjcf.MjcfTesting.failure;
import static org.symdyn.io.mjcf.MjcfTesting.read;
import static org.symdyn.io.mjcf.MjcfTesting.warning;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.symdyn.contract.DeviceSpec;
import org.symdyn.model.Model;

/**
 * MuJoCo keeps a namespace per kind of element (an actuator and a sensor may share a name; a site and a sensor
 * too), SymDyn one for all devices: a helper's probe found such valid files refused as "duplicate device name".
 */
class MjcfDeviceNamesTest {
    private static List<String> names(Model m) {
        return m.devices().stream().map(DeviceSpec::name).toList();
    }

    @Test
    void aSensorNamedAsAnActuatorOrASiteIsRenamedWithAWarning() {
        Model m = read("""
                <mujoco model="n">
                  <worldbody><body name="a"><joint name="a"/><geom size="0.1" pos="0.2 0 0"/><site name="s"/></body>
                  </worldbody>
                  <actuator><motor name="a" joint="a"/></actuator>
                  <sensor><jointpos name="a" joint="a"/><jointvel name="s" joint="a"/><gyro site="s"/></sensor>
                </mujoco>
                """);
        assertEquals(List.of("a", "a_sensor", "s", "s_sensor"), names(m));
        assertEquals(5, warning(m, "jointpos sensor 'a' is named 'a_sensor': 'a' is taken by an actuator")
                .location().line());
        assertEquals(5, warning(m, "the IMU of site 's' is named 's_sensor': 's' is taken by a sensor").location()
                .line());
    }

    /** A review's cases: the new name is one no sensor of the file has, and generated actuator names count. */
    @Test
    void theNewNameClashesWithNothingTheFileNames() {
        Model m = read("""
                <mujoco model="n">
                  <worldbody><body name="a"><joint name="a"/><geom size="0.1" pos="0.2 0 0"/></body></worldbody>
                  <actuator><motor name="a" joint="a"/><motor joint="a"/></actuator>
                  <sensor><jointpos name="a" joint="a"/><jointvel name="a_sensor" joint="a"/>
                    <jointvel name="actuator2" joint="a"/></sensor>
                </mujoco>
                """);
        assertEquals(List.of("a", "actuator2", "a_sensor_", "a_sensor", "actuator2_sensor"), names(m));
    }

    @Test
    void twoSensorsOfOneNameAreStillAnError() {
        errorAt(failure("""
                <mujoco model="n">
                  <worldbody><body name="a"><joint name="a"/><geom size="0.1" pos="0.2 0 0"/></body></worldbody>
                  <sensor><jointpos name="p" joint="a"/>
                    <jointvel name="p" joint="a"/></sensor>
                </mujoco>
                """), 4, "duplicate device name 'p'");
    }
}
