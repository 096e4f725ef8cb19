package org.symdyn.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.symdyn.geometry.Box;
import org.symdyn.geometry.Capsule;
import org.symdyn.geometry.DistanceResult;
import org.symdyn.geometry.Narrowphase;
import org.symdyn.geometry.Placement;
import org.symdyn.geometry.RayCast;
import org.symdyn.geometry.RayHit;
import org.symdyn.geometry.Shape;
import org.symdyn.geometry.Sphere;
import org.symdyn.geometry.TriangleMesh;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;
import org.symdyn.testing.Terrains;

/**
 * {@link ShapeOverlaps} with a static mesh, which meets each shape through the mesh's index: the same warnings, with
 * the same depths, as the scan of every triangle in index order up to the first overlap (computed here), for shapes
 * of links jointed to the world lying sunk into, resting on and clear of a terrain of 20,000 triangles, at the
 * identity and turned.
 */
class ShapeOverlapsMeshTest {
    /** The scan: the least distance over the triangles up to the first below −TOLERANCE. */
    private static double scan(TriangleMesh mesh, Pose meshPose, Shape other, Pose otherPose) {
        Narrowphase narrowphase = new Narrowphase();
        DistanceResult result = new DistanceResult();
        double least = Double.POSITIVE_INFINITY;
        for (int t = 0; t < mesh.triangleCount() && least >= -ShapeOverlaps.TOLERANCE; t++) {
            narrowphase.triangleDistance(mesh, t, Placement.of(meshPose), other, Placement.of(otherPose), result);
            least = Math.min(least, result.distance());
        }
        return least;
    }

    private static void check(Pose terrainPose) throws ModelException {
        TriangleMesh terrain = Terrains.heightfield(100, 100, 0.1, 0.02, 9L);
        Shape[] shapes = {new Sphere(0.1), new Box(0.1, 0.2, 0.05), new Capsule(0.05, 0.3), new Sphere(0.05)};
        // each link's joint over the terrain at (x, y), its shape's centre at the given height above the surface
        // there (the terrain's frame): sunk, sunk a little, clear by 2 cm, far
        double[][] at = {{2, 3, 0.02}, {5.5, 5.5, 0.02}, {7, 2, 0.1}, {4, 8, 1.5}};
        RayCast rays = new RayCast();
        RayHit hit = new RayHit();
        for (double[] a : at) {
            assertTrue(rays.cast(terrain, new Placement(), new double[] {a[0], a[1], 5}, new double[] {0, 0, -1}, 10,
                    hit));
            a[2] += hit.point(2);
        }
        ModelBuilder b = Model.builder("overlaps");
        b.addCollisionShape("terrain", "world", terrainPose, terrain, new ContactMaterial(0.8, 0),
                SourceLocation.UNKNOWN);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < shapes.length; i++) {
            Pose local = Pose.fromXyzRpy(at[i], new double[] {0.3 * i, 0.2, -0.1 * i});
            Pose world = terrainPose.compose(local);
            b.addBody(BodySpec.builder("l" + i, "world", "j" + i, JointType.REVOLUTE).axis(0, 0, 1)
                    .placement(world).inertia(RigidBodyInertia.of(1, new double[3], 0.01, 0, 0, 0.01, 0, 0.01))
                    .build());
            b.addCollisionShape("s" + i, "l" + i, Pose.IDENTITY, shapes[i], new ContactMaterial(0.8, 0),
                    SourceLocation.UNKNOWN);
            double d = scan(terrain, terrainPose, shapes[i], world);
            if (d < -ShapeOverlaps.TOLERANCE) {
                expected.add("'terrain' (link 'world') and 's" + i + "' (link 'l" + i + "') overlap by "
                        + String.format(Locale.ROOT, "%.3g", -d) + " m");
            }
        }
        Model m = b.build();
        List<String> got = m.warnings().stream().map(Diagnostic::message).filter(t -> t.contains(" overlap by "))
                .toList();
        assertTrue(expected.size() >= 2, "shapes sunk into the terrain: " + expected);
        assertEquals(expected.size(), got.size(), got.toString());
        for (int k = 0; k < expected.size(); k++) {
            assertTrue(got.get(k).contains(expected.get(k)), got.get(k) + " should say " + expected.get(k));
        }
    }

    @Test
    void meshOverlapsAreThoseOfTheScan() throws ModelException {
        check(Pose.IDENTITY);
        check(Pose.fromXyzRpy(new double[] {1, -2, 0.3}, new double[] {0.1, 0.05, 0.8}));
    }
}
