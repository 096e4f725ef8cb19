package org.symdyn.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.model.Model;
import org.symdyn.model.SourceLocation;

/**
 * A reading that skips meshes records where the file declares a collision mesh ({@code
 * SceneModel.leftOutCollisionMeshes}), in every format, so that a user that needs shapes (a Spark job, which ships
 * the file's text alone) can refuse the model instead of running without them; visual meshes are not recorded.
 */
class LeftOutMeshesTest {
    @TempDir
    Path dir;

    private List<Integer> leftOutLines(String fileName, String text) throws Exception {
        Path file = dir.resolve(fileName);
        Files.writeString(file, text);
        Model skipped = ModelFileReader.read(file, ModelFileReader.Options.DEFAULT);
        return skipped.scene().leftOutCollisionMeshes().stream().map(SourceLocation::line).toList();
    }

    @Test
    void everyFormatRecordsItsSkippedCollisionMeshes() throws Exception {
        assertEquals(List.of(4), leftOutLines("m.urdf", """
                <robot name="r">
                  <link name="world"><visual><geometry><mesh filename="v.obj"/></geometry></visual></link>
                  <link name="a"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
                    <collision><geometry><mesh filename="c.obj"/></geometry></collision></link>
                  <joint name="j" type="revolute"><parent link="world"/><child link="a"/><axis xyz="0 0 1"/></joint>
                </robot>
                """));
        assertEquals(List.of(4), leftOutLines("m.xml", """
                <mujoco>
                  <asset><mesh name="m" file="m.obj"/></asset>
                  <worldbody><body name="a"><freejoint/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
                    <geom type="mesh" mesh="m"/>
                    <geom type="mesh" mesh="m" contype="0" conaffinity="0"/></body></worldbody>
                </mujoco>
                """));
        assertEquals(List.of(6), leftOutLines("m.sdf", """
                <?xml version="1.0"?>
                <sdf version="1.9"><model name="m"><link name="a">
                  <inertial><mass>1</mass></inertial>
                  <visual name="v"><geometry><mesh><uri>v.obj</uri></mesh></geometry></visual>
                  <collision name="b"><geometry><box><size>1 1 1</size></box></geometry></collision>
                  <collision name="c"><geometry><mesh><uri>c.obj</uri></mesh></geometry></collision>
                </link></model></sdf>
                """));
        // loaded meshes (or none) leave nothing recorded
        assertTrue(leftOutLines("p.urdf", "<robot name=\"p\"><link name=\"a\"/></robot>").isEmpty());
    }
}
