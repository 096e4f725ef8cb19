package org.symdyn.io.mjcf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.geometry.ConvexHull;
import org.symdyn.io.MeshPolicy;
import org.symdyn.io.ModelFileReader;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;

/**
 * A mesh geom's file under each {@link MeshPolicy}, as the URDF and SDFormat readers treat theirs: the file found
 * through {@code meshdir}, one that is missing an error at the geom, a warning, or not looked at.
 */
class MjcfMeshPolicyTest {
    private static final String TETRAHEDRON = """
            solid t
            facet normal 0 0 -1
             outer loop
              vertex 0 0 0
              vertex 0 1 0
              vertex 1 0 0
             endloop
            endfacet
            facet normal 0 -1 0
             outer loop
              vertex 0 0 0
              vertex 1 0 0
              vertex 0 0 1
             endloop
            endfacet
            facet normal -1 0 0
             outer loop
              vertex 0 0 0
              vertex 0 0 1
              vertex 0 1 0
             endloop
            endfacet
            facet normal 1 1 1
             outer loop
              vertex 1 0 0
              vertex 0 1 0
              vertex 0 0 1
             endloop
            endfacet
            endsolid t
            """;

    private static final String MODEL = """
            <mujoco><compiler meshdir="assets"/>
              <asset><mesh name="t" file="%s" scale="2 2 2"/></asset>
              <worldbody>
                <body name="a"><freejoint/><inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/>
                  <geom name="shell" type="mesh" mesh="t"/>
                  <geom name="again" type="mesh" mesh="t" pos="0 0 1"/>
                </body>
              </worldbody>
            </mujoco>
            """;

    @TempDir
    Path dir;

    private Path model(String meshFile) throws IOException {
        Files.createDirectories(dir.resolve("assets"));
        Files.writeString(dir.resolve("assets/t.stl"), TETRAHEDRON);
        Path file = dir.resolve("m.xml");
        Files.writeString(file, MODEL.formatted(meshFile));
        return file;
    }

    private static Model read(Path file, MeshPolicy policy) throws ModelException {
        return MjcfReader.read(file, MjcfReader.Options.DEFAULT.withMeshes(policy));
    }

    @Test
    void aMeshFoundThroughMeshdirIsReadUnderEveryPolicyThatLoads() throws Exception {
        Path file = model("t.stl");
        for (MeshPolicy policy : new MeshPolicy[] {MeshPolicy.REQUIRED, MeshPolicy.OPTIONAL}) {
            Model m = read(file, policy);
            assertEquals(2, m.scene().collisionShapes().size(), policy.name());
            // a mesh on a moving body collides as its hull; scale 2 applied: the far vertices at 2
            ConvexHull hull = assertInstanceOf(ConvexHull.class, m.scene().collisionShapes().get(0).shape());
            assertEquals(4, hull.vertexCount(), policy.name());
            assertTrue(m.warnings().isEmpty(), m.warnings().toString());
        }
    }

    @Test
    void aMissingMeshIsAnErrorAtTheGeomWhenMeshesAreRequired() throws Exception {
        Path file = model("gone.stl");
        ModelException e = assertThrows(ModelException.class, () -> read(file, MeshPolicy.REQUIRED));
        MjcfTesting.errorAt(e, 5, "geom 'shell' of body 'a': mesh not found");
        MjcfTesting.errorAt(e, 6, "geom 'again' of body 'a': mesh not found");
        assertTrue(MjcfTesting.describe(e).contains("gone.stl"), MjcfTesting.describe(e));
        // the command line's choice of format does not change it: ModelFileReader passes the policy through
        assertThrows(ModelException.class, () -> ModelFileReader.read(file,
                ModelFileReader.Options.DEFAULT.withMeshes(MeshPolicy.REQUIRED, org.symdyn.io.PackagePath.of(
                        java.util.List.of(), null))));
    }

    @Test
    void aMissingMeshIsAWarningWhenOptionalAndNotLookedAtWhenSkipped() throws Exception {
        Path file = model("gone.stl");
        Model optional = read(file, MeshPolicy.OPTIONAL);
        assertEquals(0, optional.scene().collisionShapes().size());
        MjcfTesting.warning(optional, "(the shape is left out)");
        assertEquals(2, optional.warnings().size(), optional.warnings().toString());

        Model skipped = read(file, MeshPolicy.SKIP);
        assertEquals(0, skipped.scene().collisionShapes().size());
        assertTrue(skipped.warnings().isEmpty(), skipped.warnings().toString());
        // and the dynamics are the same whatever the policy
        assertEquals(optional.nv(), skipped.nv());
        // reading for the dynamics (ModelFileReader's default) does not look at meshes either
        assertTrue(ModelFileReader.read(file, ModelFileReader.Options.DEFAULT).warnings().isEmpty());
    }

    @Test
    void theDefaultOptionsKeepTheReadersFormerBehaviour() {
        assertEquals(MeshPolicy.OPTIONAL, MjcfReader.Options.DEFAULT.meshes());
        assertEquals(MeshPolicy.OPTIONAL, new MjcfReader.Options(true, false).meshes());
        assertThrows(NullPointerException.class, () -> new MjcfReader.Options(false, false, null));
    }
}
