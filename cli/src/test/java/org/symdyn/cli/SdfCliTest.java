package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonValue.ObjectValue;
import org.symdyn.cli.json.JsonValue.StringValue;

/** The command line on SDFormat files: read by extension, reported with their version, problems located. */
class SdfCliTest extends FileWritingTest {
    private static final String ARM = """
            <?xml version="1.0"?>
            <sdf version="1.10">
              <model name="arm">
                <link name="base"/>
                <link name="upper">
                  <pose relative_to="base">0 0 1 0 0 0</pose>
                  <inertial><mass>1</mass><inertia><ixx>0.02</ixx><iyy>0.02</iyy><izz>0.001</izz></inertia></inertial>
                </link>
                <joint name="fix" type="fixed"><parent>world</parent><child>base</child></joint>
                <joint name="shoulder" type="revolute">
                  <parent>base</parent><child>upper</child>
                  <axis><xyz>0 1 0</xyz><limit><lower>-2</lower><upper>2</upper></limit></axis>
                </joint>
              </model>
            </sdf>
            """;

    @Test
    void inspectReadsAnSdfFile() throws Exception {
        Path model = write("arm.sdf", ARM);
        SymDynCliTest.Result r = SymDynCliTest.run("inspect", model.toString());
        assertEquals(0, r.exitCode(), r.err());
        ObjectValue json = (ObjectValue) r.json();
        assertEquals("arm", ((StringValue) json.members().get("name")).value());
        assertEquals("SDFormat 1.10", ((StringValue) json.members().get("format")).value());
        assertEquals(JsonValue.strings(List.of("shoulder")), json.members().get("q_names"));
    }

    @Test
    void aBrokenSdfFileExitsTwoWithItsLocation() throws Exception {
        Path model = write("broken.sdf", ARM.replace("<upper>2</upper>", "<upper>2 x</upper>")
                .replace("relative_to=\"base\"", "relative_to=\"nowhere\""));
        SymDynCliTest.Result r = SymDynCliTest.run("inspect", model.toString());
        assertEquals(2, r.exitCode(), r.err());
        assertEquals("", r.out());
        assertTrue(r.err().contains(model + ":[6,7] link 'upper': pose relative_to 'nowhere' names no frame"),
                r.err());
        assertTrue(r.err().contains(model + ":[12,53] joint 'shoulder': limit upper '2 x' needs 1 number"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void theReadmesSdfExampleReads() throws Exception {
        String readme = Files.readString(ReadmeUsageTest.readme());
        int start = readme.indexOf("<sdf version=\"1.10\">\n  <model name=\"arm\">");
        assertTrue(start >= 0, "the README's SDFormat example is missing");
        Path model = write("readme.sdf", readme.substring(start, readme.indexOf("</sdf>", start) + 6));
        SymDynCliTest.Result r = SymDynCliTest.run("inspect", model.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(JsonValue.strings(List.of("shoulder")), ((ObjectValue) r.json()).members().get("q_names"));
    }
}
