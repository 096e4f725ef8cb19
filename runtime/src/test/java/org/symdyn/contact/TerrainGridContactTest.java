package org.symdyn.contact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.geometry.TriangleMesh;
import org.symdyn.model.Model;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.Rotations;
import org.symdyn.testing.ShapeScenes;
import org.symdyn.testing.Terrains;

/**
 * A box on a flat terrain of many small triangles, finer than the box: a point over every triangle under it, and
 * with a small tilt every triangle's closest pair on an edge it shares with a neighbour. A helper's probe found the
 * box falling through such a grid: the pair's bound (four) kept the first four points met, interior ones, so the box
 * tipped; tilted 1.7e-4 rad with its lowest edge along a grid line, no triangle reported a contact at all.
 */
class TerrainGridContactTest {
    private static final double CELL = 0.05;
    private static final int CELLS = 40;
    private static final double HALF = 0.1;

    /** A flat square grid of CELLS x CELLS cells of side CELL at z = 0, centred on the origin, two triangles each. */
    private static TriangleMesh grid() {
        return Terrains.grid(CELLS, CELLS, CELL, -CELLS / 2.0 * CELL, -CELLS / 2.0 * CELL, (i, j) -> 0);
    }

    /** The grid with every other vertex raised by {@code bump}: each triangle leans its own way. */
    private static TriangleMesh bumpyGrid(double bump) {
        return Terrains.grid(CELLS, CELLS, CELL, -CELLS / 2.0 * CELL, -CELLS / 2.0 * CELL,
                (i, j) -> (i + j) % 2 == 0 ? bump : 0);
    }

    /**
     * On bumpy terrain every triangle has its own normal, so no normal's four places fill: the default bound counts
     * a static mesh and a shape as {@link ContactSet#MESH_PAIR_CONTACTS}, and the box rests on its bumps. (On the
     * bound of four it jittered: when the bound is full a point replaces one of the pair's four that spreads them
     * wider, better than the first four met, still not at rest.)
     */
    @Test
    void aBoxRestsLevelOnBumpyTerrainWithinTheDefaultBound() {
        double bump = 1e-4;
        Model scene = new ShapeScenes("box_on_bumps").shape("terrain", "world", Pose.IDENTITY, bumpyGrid(bump), 0.8)
                .freeBox("box", 1, HALF, HALF, HALF, 0.8).build();
        TimeStepper s = TimeStepper.builder(new GenericDynamics(scene)).contacts(ContactSet.of(scene)).build();
        double[] q = ShapeScenes.pose(0, 0.021, HALF + bump, 0);
        double[] v = new double[6];
        for (int i = 0; i < 1000; i++) {
            s.step(q, v, new double[6], 1e-3, q, v);
        }
        assertEquals(0, s.droppedContacts(), "the mesh pair's sixteen in the default bound suffice");
        assertEquals(HALF + bump, q[2], 1e-9, "on the bumps' tops (0.1000807 after 1 s, sinking and turning, on 4)");
        assertEquals(0, q[3], 1e-9, "level");
        assertEquals(0, q[4], 1e-9, "level");
        assertEquals(0, q[0], 1e-9);
        assertEquals(0.021, q[1], 1e-9);
    }

    private static Model scene() {
        return new ShapeScenes("box_on_grid").shape("terrain", "world", Pose.IDENTITY, grid(), 0.8)
                .freeBox("box", 1, HALF, HALF, HALF, 0.8).build();
    }

    /** The grid with a wall at x = {@code wall} facing -x (two triangles of the same mesh), as a bin's corner. */
    private static TriangleMesh gridWithWall(double wall) {
        TriangleMesh floor = grid();
        int nv = floor.vertexCount();
        double[] v = new double[3 * nv + 12];
        for (int i = 0; i < nv; i++) {
            for (int c = 0; c < 3; c++) {
                v[3 * i + c] = floor.vertex(i, c);
            }
        }
        double[] wallCorners = {wall, -1, 0, wall, -1, 1, wall, 1, 1, wall, 1, 0};
        System.arraycopy(wallCorners, 0, v, 3 * nv, 12);
        int nt = floor.triangleCount();
        int[] t = new int[3 * nt + 6];
        for (int k = 0; k < nt; k++) {
            for (int c = 0; c < 3; c++) {
                t[3 * k + c] = floor.triangleVertex(k, c);
            }
        }
        int[] wallTriangles = {nv, nv + 1, nv + 2, nv, nv + 2, nv + 3};
        System.arraycopy(wallTriangles, 0, t, 3 * nt, 6);
        return TriangleMesh.of(v, t);
    }

    /** Only points of one normal compete for the four places: a box in a bin's corner keeps its wall contacts. */
    @Test
    void aBoxInACornerKeepsItsFloorAndItsWallContacts() {
        Model scene = new ShapeScenes("box_in_corner").shape("bin", "world", Pose.IDENTITY, gridWithWall(HALF), 0.8)
                .freeBox("box", 1, HALF, HALF, HALF, 0.8).build();
        ContactKinematics ck = new ContactKinematics(ContactSet.of(scene, 256), new GenericDynamics(scene), scene.nv());
        ShapeContactDetection d = ck.shapeContacts();
        d.detect(ShapeScenes.pose(0, 0.021, HALF - 1e-5, 0), new double[6], 1e-3, ContactSettings.defaults().margin());
        int floor = 0, wall = 0;
        for (int k = 0; k < d.count(); k++) {
            if (d.normal(k, 2) > 1 - 1e-12) {
                floor++;
                assertEquals(-1e-5, d.gap(k), 1e-12);
            } else if (d.normal(k, 0) < -1 + 1e-12) {
                wall++;
                assertEquals(0, d.gap(k), 1e-12);
            }
        }
        assertEquals(4, floor, "the floor's four, the bottom corners");
        assertTrue(wall >= 2 && floor + wall == d.count(), "the wall's contacts kept beside them: " + wall + " of "
                + d.count());
    }

    @Test
    void aBoxRestsOnAFineGridOnItsFourCorners() {
        Model scene = scene();
        TimeStepper s = TimeStepper.builder(new GenericDynamics(scene)).contacts(ContactSet.of(scene)).build();
        double[] q = ShapeScenes.pose(0, 0.021, HALF, 0);
        double[] v = new double[6];
        double[] tau = new double[6];
        double h = 1e-3;
        for (int i = 0; i < 1000; i++) {
            assertTrue(s.step(q, v, tau, h, q, v).converged(), s.report().toString());
        }
        assertEquals(HALF, q[2], 1e-9, "the box stays on the terrain (it fell through, to z = -4.8 after 1 s)");
        assertEquals(0, q[0], 1e-9);
        assertEquals(0.021, q[1], 1e-9);
        ShapeContactDetection d = s.contacts().shapeContacts();
        assertEquals(4, d.count());
        for (int k = 0; k < d.count(); k++) {
            // the bound's four points are the box's bottom corners, (±0.1, 0.021 ± 0.1, 0) in the world
            assertEquals(HALF, Math.abs(d.pointB(k, 0)), 1e-9, "contact " + k + " at a corner");
            assertEquals(HALF, Math.abs(d.pointB(k, 1) - 0.021), 1e-9, "contact " + k + " at a corner");
        }
    }

    /**
     * Slightly tilted poses of the box, pressed up to 1e-4 m into the grid (the helper's scan found 5 of 2000 with no
     * contact at all), and the pose it found first: the deepest contact is the lowest corner's depth.
     */
    @Test
    void aSlightlyTiltedBoxOverAGridAlwaysTouchesAtItsLowestCorner() {
        Model scene = scene();
        ContactKinematics ck = new ContactKinematics(ContactSet.of(scene, 256), new GenericDynamics(scene), scene.nv());
        ShapeContactDetection d = ck.shapeContacts();
        double margin = ContactSettings.defaults().margin();
        double[] v = new double[6];
        check(d, new double[] {1.7306329210448253E-5, 3.153833104024959E-11, 0.09998043256465819,
            -1.4210300886331063E-10, 8.653274278357917E-5, -5.2364431852745845E-12, 0.9999999962560422}, v, margin);
        Random r = new Random(5);
        for (int trial = 0; trial < 2000; trial++) {
            double tilt = Math.pow(10, -4 + 2.5 * r.nextDouble());
            double azimuth = 2 * Math.PI * r.nextDouble();
            double yaw = 2 * Math.PI * r.nextDouble();
            // a yaw about z, then the tilt about the horizontal axis (cos azimuth, sin azimuth, 0)
            double st = Math.sin(tilt / 2), ct = Math.cos(tilt / 2), sy = Math.sin(yaw / 2), cy = Math.cos(yaw / 2);
            double ax = Math.cos(azimuth) * st, ay = Math.sin(azimuth) * st;
            double[] quat = {ax * cy + ay * sy, ay * cy - ax * sy, ct * sy, ct * cy};
            double[] q = {0.6 * r.nextDouble() - 0.3, 0.6 * r.nextDouble() - 0.3, 0, quat[0], quat[1], quat[2],
                quat[3]};
            double[] rot = new double[9];
            Rotations.fromQuaternion(quat[0], quat[1], quat[2], quat[3], rot);
            q[2] = -lowestCorner(rot) - 1e-4 * r.nextDouble();
            check(d, q, v, margin);
        }
    }

    /**
     * A box overhanging a mesh's outer corner and its straight edge stands on the part of its face over the mesh: the
     * four corners of that part (before, one or two points, a mesh corner and a box corner, and it rocked and crept
     * without end).
     */
    @Test
    void aBoxOverhangingTheMeshsEdgeStandsOnThePartOfItsFaceOverIt() {
        TriangleMesh square = TriangleMesh.of(new double[] {-2, -2, 0, 2, -2, 0, 2, 2, 0, -2, 2, 0},
                new int[] {0, 1, 2, 0, 2, 3});
        Model scene = new ShapeScenes("box_over_edge").shape("floor", "world", Pose.IDENTITY, square, 0.8)
                .freeBox("box", 1, HALF, HALF, HALF, 0.8).build();
        double[][] centres = {{1.95, 1.95}, {1.96, 0.13}};
        for (double[] c : centres) {
            TimeStepper s = TimeStepper.builder(new GenericDynamics(scene)).contacts(ContactSet.of(scene)).build();
            double[] q = ShapeScenes.pose(c[0], c[1], HALF, 0);
            double[] v = new double[6];
            for (int i = 0; i < 1000; i++) {
                assertTrue(s.step(q, v, new double[6], 1e-3, q, v).converged(), s.report().toString());
            }
            assertEquals(c[0], q[0], 1e-9, "at rest");
            assertEquals(c[1], q[1], 1e-9, "at rest");
            assertEquals(HALF, q[2], 1e-9, "at rest");
            assertEquals(0, q[5], 1e-9, "no creep in yaw");
            ShapeContactDetection d = s.contacts().shapeContacts();
            assertEquals(4, d.count(), "the corners of the face's part over the mesh");
            for (int k = 0; k < d.count(); k++) {
                double x = d.pointB(k, 0), y = d.pointB(k, 1);
                assertTrue(Math.abs(x - (c[0] - HALF)) < 1e-9 || Math.abs(x - Math.min(2, c[0] + HALF)) < 1e-9,
                        "x " + x);
                assertTrue(Math.abs(y - (c[1] - HALF)) < 1e-9 || Math.abs(y - Math.min(2, c[1] + HALF)) < 1e-9,
                        "y " + y);
            }
        }
    }

    /**
     * The mesh is one-sided: a box just under it, tilted so that its closest pairs lean over shared edges, gets no
     * contact pulling it up through the grid (the face-normal points are for a shape on the front side only).
     */
    @Test
    void aTiltedBoxJustUnderTheGridIsNotPulledThroughIt() {
        Model scene = scene();
        ContactKinematics ck = new ContactKinematics(ContactSet.of(scene, 256), new GenericDynamics(scene), scene.nv());
        ShapeContactDetection d = ck.shapeContacts();
        double tilt = 1.7e-4;
        double[] q = {0, 0, -HALF - 1e-5, 0, Math.sin(tilt / 2), 0, Math.cos(tilt / 2)};
        d.detect(q, new double[6], 1e-3, ContactSettings.defaults().margin());
        for (int k = 0; k < d.count(); k++) {
            assertTrue(d.normal(k, 2) < 0 || d.gap(k) >= 0, "contact " + k + " pulls the box up through the mesh: gap "
                    + d.gap(k));
        }
    }

    private static void check(ShapeContactDetection d, double[] q, double[] v, double margin) {
        double[] rot = new double[9];
        Rotations.fromQuaternion(q[3], q[4], q[5], q[6], rot);
        double depth = q[2] + lowestCorner(rot);
        d.detect(q, v, 1e-3, margin);
        assertTrue(d.count() > 0, () -> "no contact at q = " + java.util.Arrays.toString(q));
        double least = Double.POSITIVE_INFINITY;
        for (int k = 0; k < d.count(); k++) {
            least = Math.min(least, d.gap(k));
        }
        assertEquals(depth, least, 1e-12, () -> "the deepest contact at q = " + java.util.Arrays.toString(q));
    }

    /** The least world z of the box's corners about its centre, rotated by {@code rot}. */
    private static double lowestCorner(double[] rot) {
        double low = Double.POSITIVE_INFINITY;
        for (int c = 0; c < 8; c++) {
            double x = (c & 1) == 0 ? -HALF : HALF, y = (c & 2) == 0 ? -HALF : HALF, z = (c & 4) == 0 ? -HALF : HALF;
            low = Math.min(low, rot[6] * x + rot[7] * y + rot[8] * z);
        }
        return low;
    }
}
