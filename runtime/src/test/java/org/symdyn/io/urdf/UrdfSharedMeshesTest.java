package org.symdyn.io.urdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.symdyn.geometry.ConvexHull;
import org.symdyn.geometry.TriangleMesh;
import org.symdyn.io.MeshPolicy;
import org.symdyn.io.PackagePath;
import org.symdyn.model.CollisionShapeModel;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.model.VisualShapeModel;
import org.symdyn.testing.SharedFiles;

/**
 * The four shared robots whose meshes are in {@code ../shared/packages} (skipped when absent) read with every
 * collision and visual mesh under {@link MeshPolicy#REQUIRED}: each collision mesh a hull on a moving body, a
 * triangle mesh on the root of a fixed-base arm.
 */
class UrdfSharedMeshesTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        // file, floating, collision shapes, of which hulls (meshes on moving bodies) and static meshes, visuals
        "solo12.urdf,         true,  17, 17, 0, 17",
        "panda.urdf,          false, 17,  8, 1, 11",
        "hyq_no_sensors.urdf, true,  17,  9, 0, 19",
        "ur5_robot.urdf,      false,  8,  6, 1,  7",
    })
    void readsWithAllItsMeshes(String file, boolean floating, int collision, int meshes, int fixed, int visual) {
        Path model = SharedFiles.model(file);
        PackagePath path = PackagePath.of(List.of(SharedFiles.require("packages")), null);
        Model m;
        try {
            m = UrdfReader.read(model, new UrdfReader.Options(floating, false).withMeshes(MeshPolicy.REQUIRED, path));
        } catch (ModelException e) {
            m = fail(file + " should read with its meshes:\n" + e.getMessage());
        }
        assertEquals(collision, m.collisionShapes().size(), file);
        int hulls = 0;
        int statics = 0;
        for (CollisionShapeModel c : m.collisionShapes()) {
            if (c.shape() instanceof ConvexHull hull) {
                hulls++;
                assertTrue(c.body() >= 0, c.name() + " moves");
                assertTrue(hull.vertexCount() >= 4 && hull.volume() > 0, c.name());
            } else if (c.shape() instanceof TriangleMesh) {
                statics++;
                assertTrue(c.isStatic(), c.name() + " is fixed to the world");
            }
        }
        assertEquals(meshes, hulls, file + ": collision meshes on moving bodies, as hulls");
        assertEquals(fixed, statics, file + ": collision meshes on the root, triangle by triangle");
        assertEquals(visual, m.scene().visualShapes().size(), file);
        long visualMeshes = m.scene().visualShapes().stream().map(VisualShapeModel::shape)
                .filter(s -> s instanceof TriangleMesh).count();
        assertTrue(visualMeshes > 0, file);
        for (Diagnostic w : m.warnings()) {
            assertTrue(w.location().line() > 0, w.toString());
        }
    }
}
