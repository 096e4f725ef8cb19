package org.symdyn.model;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.symdyn.geometry.Bounds;
import org.symdyn.geometry.ConvexShape;
import org.symdyn.geometry.DistanceResult;
import org.symdyn.geometry.Narrowphase;
import org.symdyn.geometry.Placement;
import org.symdyn.geometry.Shape;
import org.symdyn.geometry.TriangleBvh;
import org.symdyn.geometry.TriangleMesh;
import org.symdyn.spatial.Pose;

/**
 * The collision shapes of a model that overlap at its zero configuration (every joint position 0, floating and
 * ball joints at the identity): pairs that may touch ({@link Model#mayTouch}) whose signed distance
 * ({@link Narrowphase}; a static mesh triangle by triangle, the triangles whose boxes meet the other shape's from
 * the mesh's {@link TriangleMesh#bvh()}) is below −{@value #TOLERANCE} m, below which rounding
 * decides. Such a pair is in contact from the first step of a simulation; when the file means the links to
 * interpenetrate (a cover over a motor, a foot inside its shin's shape), a {@code <symdyn:no_contact>} silences it.
 *
 * <p>Only pairs whose relative placement at q = 0 is a configuration the file describes are compared: both shapes
 * under the same nearest floating joint (the links of one free robot: a self-collision pair), or both under none
 * (links fixed to the world, a fixed-base robot against its table). A floating joint's q = 0 puts its body at the
 * world origin whatever the scene, so every free object of a scene sits there and overlaps the others: the
 * simulation places them by its initial state, not by the file, and such pairs say nothing about the file.
 *
 * <p>One warning per pair of links (the first overlapping pair of their shapes), at the later shape's element,
 * naming both shapes and links, the depth, and the exact no-contact line. Bounding spheres are compared first, so
 * that a model of hundreds of shapes costs a narrowphase query only for the pairs that are close.
 */
public final class ShapeOverlaps {
    /** Overlaps shallower than this (m) are not reported. */
    public static final double TOLERANCE = 1e-9;
    /** How far (m) a mesh query's box reaches beyond the other shape's: far above the relative placement's rounding. */
    static final double PAD = 1e-6;

    private ShapeOverlaps() {
    }

    /** The warnings for the model's overlapping shapes, in the order of the shapes' declaration. */
    public static List<Diagnostic> find(Model model) {
        List<CollisionShapeModel> shapes = model.collisionShapes();
        int n = shapes.size();
        Pose[] bodies = zeroConfiguration(model);
        int[] free = floatingAncestors(model);
        Placement[] places = new Placement[n];
        double[] centers = new double[3 * n];
        double[] radii = new double[n];
        for (int i = 0; i < n; i++) {
            CollisionShapeModel c = shapes.get(i);
            Pose world = c.body() < 0 ? c.pose() : bodies[c.body()].compose(c.pose());
            places[i] = Placement.of(world);
            for (int k = 0; k < 3; k++) {
                centers[3 * i + k] = world.translation(k);
            }
            radii[i] = boundingRadius(c.shape());
        }
        Narrowphase narrowphase = new Narrowphase();
        DistanceResult result = new DistanceResult();
        Set<String> reported = new HashSet<>();
        List<Diagnostic> out = new ArrayList<>();
        for (int j = 1; j < n; j++) {
            for (int i = 0; i < j; i++) {
                double dx = centers[3 * i] - centers[3 * j];
                double dy = centers[3 * i + 1] - centers[3 * j + 1];
                double dz = centers[3 * i + 2] - centers[3 * j + 2];
                double reach = radii[i] + radii[j];
                if (dx * dx + dy * dy + dz * dz > reach * reach) {
                    continue;
                }
                CollisionShapeModel a = shapes.get(i), b = shapes.get(j);
                if (floatingAncestor(free, a) != floatingAncestor(free, b)) {
                    continue;
                }
                String pair = a.link().compareTo(b.link()) < 0 ? a.link() + "\n" + b.link() : b.link() + "\n" + a.link();
                if (reported.contains(pair) || !model.mayTouch(a, b)) {
                    continue;
                }
                double d = distance(narrowphase, a.shape(), places[i], b.shape(), places[j], result);
                if (d < -TOLERANCE) {
                    reported.add(pair);
                    out.add(Diagnostic.warning(b.location(), "collision shapes '" + a.name() + "' (link '" + a.link()
                            + "') and '" + b.name() + "' (link '" + b.link() + "') overlap by "
                            + String.format(Locale.ROOT, "%.3g", -d) + " m at the zero configuration (all joint"
                            + " positions 0): they are in contact from the start; if that is meant, add"
                            + " <symdyn:no_contact link1=\"" + a.link() + "\" link2=\"" + b.link() + "\"/>"));
                }
            }
        }
        return out;
    }

    /** Each body's pose in the world at q = 0: the joint placements composed from the root. */
    static Pose[] zeroConfiguration(Model model) {
        Pose[] poses = new Pose[model.bodyCount()];
        for (int i = 0; i < poses.length; i++) {
            Body b = model.body(i);
            Pose parent = b.parentIndex() < 0 ? Pose.IDENTITY : poses[b.parentIndex()];
            poses[i] = parent.compose(b.joint().placement());
        }
        return poses;
    }

    /**
     * For each body, the nearest body at or above it (itself included) whose joint is floating, -1 when there is
     * none: two bodies with the same entry have a relative placement that no floating joint's q changes.
     */
    static int[] floatingAncestors(Model model) {
        int[] out = new int[model.bodyCount()];
        for (int i = 0; i < out.length; i++) {
            Body b = model.body(i);
            if (b.joint().type() == JointType.FLOATING) {
                out[i] = i;
            } else {
                out[i] = b.parentIndex() < 0 ? -1 : out[b.parentIndex()];
            }
        }
        return out;
    }

    private static int floatingAncestor(int[] free, CollisionShapeModel c) {
        return c.body() < 0 ? -1 : free[c.body()];
    }

    /** The signed distance; a static mesh meets the other shape triangle by triangle (the least distance). */
    private static double distance(Narrowphase narrowphase, Shape a, Placement pa, Shape b, Placement pb,
            DistanceResult result) {
        try {
            if (a instanceof TriangleMesh || b instanceof TriangleMesh) {
                TriangleMesh mesh = (TriangleMesh) (a instanceof TriangleMesh ? a : b);
                Placement pm = mesh == a ? pa : pb;
                Shape other = mesh == a ? b : a;
                Placement po = mesh == a ? pb : pa;
                if (!(other instanceof ConvexShape)) {
                    return Double.POSITIVE_INFINITY;
                }
                // Only a triangle whose box overlaps the other shape's can be nearer than −TOLERANCE: the others, in
                // the mesh's frame, are left out by its hierarchy (the box padded by PAD for the rounding of the
                // relative placement). The triangles are tried in index order up to the first such overlap, as a
                // scan of all would.
                Placement relative = relative(pm, po);
                double[] box = new double[6];
                new Bounds().of(other, relative, PAD, box);
                TriangleBvh index = mesh.bvh();
                int[] candidates = new int[index.triangleCount()];
                int found = index.overlapping(box, candidates, new int[index.stackSize()]);
                double least = Double.POSITIVE_INFINITY;
                for (int c = 0; c < found && least >= -TOLERANCE; c++) {
                    narrowphase.triangleDistance(mesh, candidates[c], pm, other, po, result);
                    least = Math.min(least, result.distance());
                }
                return least;
            }
            narrowphase.distance(a, pa, b, pb, result);
            return result.distance();
        } catch (IllegalArgumentException e) {
            return Double.POSITIVE_INFINITY; // a pair no query answers (two half-spaces) is never reported
        }
    }

    /** The placement of B in A's frame: R_Aᵀ R_B and R_Aᵀ (p_B − p_A). */
    private static Placement relative(Placement a, Placement b) {
        double[] r = new double[9];
        double[] p = new double[3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                double sum = 0;
                for (int k = 0; k < 3; k++) {
                    sum += a.rotation(k, i) * b.rotation(k, j);
                }
                r[3 * i + j] = sum;
            }
        }
        double[] x = {b.translation(0), b.translation(1), b.translation(2)};
        a.toLocal(x, p);
        return new Placement().set(r, 0, p, 0);
    }

    private static double boundingRadius(Shape s) {
        if (s instanceof ConvexShape c) {
            return c.boundingRadius();
        }
        if (s instanceof TriangleMesh m) {
            double r = 0;
            for (int i = 0; i < m.vertexCount(); i++) {
                r = Math.max(r, Math.sqrt(m.vertex(i, 0) * m.vertex(i, 0) + m.vertex(i, 1) * m.vertex(i, 1)
                        + m.vertex(i, 2) * m.vertex(i, 2)));
            }
            return r;
        }
        return Double.POSITIVE_INFINITY;
    }
}
