package org.symdyn.contact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.Model;

/**
 * Pairs a file excludes ({@code symdyn:no_contact}) are found by the broadphase and then left out: they give no
 * contact and are not counted as dropped, with every pair excluded (the broadphase then had room for none and
 * counted each overlap as dropped) and with one pair allowed beside overlapping excluded ones (which could fill the
 * broadphase's room and push the allowed pair out).
 */
class ExcludedPairsDetectionTest {
    private static final String HEAD = "<?xml version=\"1.0\"?>\n<robot name=\"x\" xmlns:symdyn=\"urn:symdyn:1\">\n"
            + "<link name=\"world\"/>\n";

    private static String box(String name, double size) {
        return "<link name=\"" + name + "\"><inertial><mass value=\"1\"/><inertia ixx=\"0.01\" iyy=\"0.01\""
                + " izz=\"0.01\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial><collision><geometry><box size=\"" + size
                + " " + size + " " + size + "\"/></geometry></collision></link>\n<joint name=\"" + name
                + "_free\" type=\"floating\"><parent link=\"world\"/><child link=\"" + name + "\"/></joint>\n";
    }

    private static ShapeContactDetection detect(Path dir, String body) throws Exception {
        Path file = dir.resolve("scene.urdf");
        Files.writeString(file, HEAD + body + "</robot>\n");
        Model model = UrdfReader.read(file);
        ShapeContactDetection d = new ShapeContactDetection(ContactSet.of(model), new GenericDynamics(model));
        double[] q = model.neutralConfiguration(); // every box at the origin: all of them overlap
        d.detect(q, null, 0, 1e-3);
        return d;
    }

    @Test
    void excludedPairsAreNeitherContactsNorDropped(@TempDir Path dir) throws Exception {
        ShapeContactDetection none = detect(dir, box("a", 0.2) + box("b", 0.2)
                + "<symdyn:no_contact link1=\"a\" link2=\"b\"/>\n");
        assertEquals(0, none.count());
        assertEquals(0, none.dropped());
        StringBuilder many = new StringBuilder(box("a", 0.2) + box("b", 0.2));
        for (int i = 0; i < 6; i++) {
            many.append(box("x" + i, 0.2));
            many.append("<symdyn:no_contact link1=\"a\" link2=\"x" + i + "\"/>\n");
            many.append("<symdyn:no_contact link1=\"b\" link2=\"x" + i + "\"/>\n");
            for (int j = 0; j < i; j++) {
                many.append("<symdyn:no_contact link1=\"x" + j + "\" link2=\"x" + i + "\"/>\n");
            }
        }
        ShapeContactDetection one = detect(dir, many.toString());
        assertTrue(one.count() > 0, "the allowed pair a-b touches");
        assertEquals(0, one.dropped());
    }
}
