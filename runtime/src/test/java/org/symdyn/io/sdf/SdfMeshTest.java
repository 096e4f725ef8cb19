package org.symdyn.io.sdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.io.sdf.SdfTesting.assertWarns;
import static org.symdyn.io.sdf.SdfTesting.errorAt;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.symdyn.geometry.ConvexHull;
import org.symdyn.geometry.TriangleMesh;
import org.symdyn.io.MeshPolicy;
import org.symdyn.io.PackagePath;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.CollisionShapeModel;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.testing.SharedFiles;

/**
 * SDFormat meshes read as the URDF reader reads them: the shared robots written as SDFormat with their collision
 * meshes as {@code model://} URIs give the URDF's collision shapes (links, bodies, poses, hulls), found through the
 * package path or the model path; relative URIs, {@code <scale>}, the moving-hull / static-triangles rule and the
 * mesh policies. The shared robots are skipped visibly when the shared folder is absent.
 */
class SdfMeshTest {
    private static final double TOL = 1e-12;
    private static final String BASE_STL = "example-robot-data/robots/solo_description/meshes/stl/solo12/"
            + "solo_12_base.stl";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"solo12.urdf", "ur5_robot.urdf"})
    void collisionMeshesAreTheUrdfs(String name) throws Exception {
        Path urdf = SharedFiles.model(name);
        Path packages = SharedFiles.require("packages");
        Model reference = UrdfReader.read(urdf, UrdfReader.Options.DEFAULT.withMeshes(MeshPolicy.REQUIRED,
                PackagePath.of(List.of(packages), null)));
        assertTrue(reference.collisionShapes().size() > 1, name + " has collision shapes");
        for (UrdfToSdf.Style style : UrdfToSdf.Style.values()) {
            String sdf = UrdfToSdf.convert(urdf, style, false, true);
            assertTrue(sdf.contains("<uri>model://example-robot-data/"), sdf);
            // model:// through the package path, then through the model path alone.
            Model viaPackages = SdfReader.parse(sdf, name + ".sdf", new SdfReader.Options(false, List.of(),
                    MeshPolicy.REQUIRED, PackagePath.of(List.of(packages), null)));
            compare(name + " " + style + " (package path)", reference, viaPackages);
            Model viaModelPath = SdfReader.parse(sdf, name + ".sdf", new SdfReader.Options(false, List.of(packages),
                    MeshPolicy.REQUIRED, PackagePath.of(List.of(), null)));
            compare(name + " " + style + " (model path)", reference, viaModelPath);
        }
    }

    private static void compare(String label, Model urdf, Model sdf) {
        List<CollisionShapeModel> a = urdf.collisionShapes();
        List<CollisionShapeModel> b = sdf.collisionShapes();
        assertEquals(a.size(), b.size(), label + ": collision shapes");
        for (int i = 0; i < a.size(); i++) {
            CollisionShapeModel x = a.get(i);
            CollisionShapeModel y = b.get(i);
            String at = label + " shape " + x.name();
            assertEquals(x.link(), y.link(), at + " link");
            assertEquals(x.body(), y.body(), at + " body");
            assertEquals(x.shape().getClass(), y.shape().getClass(), at + " kind");
            for (int r = 0; r < 3; r++) {
                assertEquals(x.pose().translation(r), y.pose().translation(r), TOL, at + " position");
                for (int c = 0; c < 3; c++) {
                    assertEquals(x.pose().rotation(r, c), y.pose().rotation(r, c), TOL, at + " rotation");
                }
            }
            if (x.shape() instanceof ConvexHull hx) {
                ConvexHull hy = (ConvexHull) y.shape();
                assertEquals(hx.vertexCount(), hy.vertexCount(), at + " hull vertices");
                for (int v = 0; v < hx.vertexCount(); v++) {
                    for (int k = 0; k < 3; k++) {
                        assertEquals(hx.vertex(v, k), hy.vertex(v, k), TOL, at + " hull vertex");
                    }
                }
            }
        }
    }

    /** A relative URI against the file's folder, with {@code <scale>}: triangles on a static link, a hull on a moving one. */
    @Test
    void relativeUrisAndScale(@TempDir Path dir) throws Exception {
        Path stl = SharedFiles.require("packages/" + BASE_STL);
        Files.createDirectories(dir.resolve("meshes"));
        Files.copy(stl, dir.resolve("meshes/base.stl"));
        Path file = dir.resolve("robot.sdf");
        Files.writeString(file, """
                <?xml version="1.0"?>
                <sdf version="1.9"><model name="m">
                  <link name="ground">
                    <collision name="fixed"><geometry><mesh><uri>meshes/base.stl</uri></mesh></geometry></collision>
                  </link>
                  <joint name="fix" type="fixed"><parent>world</parent><child>ground</child></joint>
                  <link name="body"><pose>0 0 1 0 0 0</pose><inertial><mass>1</mass></inertial>
                    <collision name="one"><geometry><mesh><uri>meshes/base.stl</uri></mesh></geometry></collision>
                    <collision name="two"><geometry><mesh><uri>meshes/base.stl</uri><scale>2 2 2</scale></mesh></geometry></collision>
                  </link>
                </model></sdf>
                """);
        Model m = SdfReader.read(file, new SdfReader.Options(false, List.of(), MeshPolicy.REQUIRED,
                PackagePath.of(List.of(), null)));
        assertEquals(3, m.collisionShapes().size());
        CollisionShapeModel fixed = m.collisionShapes().get(0);
        assertTrue(fixed.isStatic());
        assertInstanceOf(TriangleMesh.class, fixed.shape(), "a static mesh keeps its triangles");
        ConvexHull one = assertInstanceOf(ConvexHull.class, m.collisionShapes().get(1).shape(), "moving: its hull");
        ConvexHull two = assertInstanceOf(ConvexHull.class, m.collisionShapes().get(2).shape());
        assertEquals(one.vertexCount(), two.vertexCount());
        for (int v = 0; v < one.vertexCount(); v++) {
            for (int k = 0; k < 3; k++) {
                assertEquals(2 * one.vertex(v, k), two.vertex(v, k), TOL, "scaled vertex");
            }
        }
        assertEquals(8 * one.volume(), two.volume(), 1e-12 * two.volume());
    }

    private static final String MISSING = """
            <sdf version="1.9"><model name="m">
              <link name="body"><inertial><mass>1</mass></inertial>
                <collision name="c"><geometry><mesh>
                  <uri>%s</uri></mesh></geometry></collision>
                <visual name="v"><geometry><mesh><uri>model://nowhere/v.stl</uri></mesh></geometry></visual>
              </link>
            </model></sdf>
            """;

    @Test
    void meshPoliciesDecideWhatAMissingMeshIs() throws Exception {
        String xml = MISSING.formatted("missing/c.stl");
        SdfReader.Options required = new SdfReader.Options(false, List.of(), MeshPolicy.REQUIRED,
                PackagePath.of(List.of(), null));
        ModelException e = assertThrows(ModelException.class, () -> SdfReader.parse(xml, "m.sdf", required));
        errorAt(e, 4, "link 'body': collision 'c': mesh not found: 'missing/c.stl': no such file");
        Model optional = SdfReader.parse(xml, "m.sdf", required.withMeshes(MeshPolicy.OPTIONAL,
                PackagePath.of(List.of(), null)));
        assertWarns(optional, "mesh not found: 'missing/c.stl'");
        assertWarns(optional, "link 'body': visual 'v': mesh left out: model://nowhere/v.stl needs a package path");
        assertEquals(0, optional.collisionShapes().size());
        Model skipped = SdfReader.parse(xml, "m.sdf", SdfReader.Options.DEFAULT);
        assertEquals(0, skipped.collisionShapes().size());
        assertFalse(SdfTesting.warns(skipped, "mesh"), "meshes skipped without a word: " + skipped.warnings());
        ModelException noUri = assertThrows(ModelException.class, () -> SdfReader.parse(MISSING.replace(
                "<uri>%s</uri>", "<scale>1 0 1</scale>"), "m.sdf", SdfReader.Options.DEFAULT));
        errorAt(noUri, 3, "link 'body': collision 'c': <mesh> has no <uri>");
    }
}
