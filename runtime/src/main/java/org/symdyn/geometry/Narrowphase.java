package org.symdyn.geometry;

/**
 * Distance and contact queries between any two shapes at their placements, each answered by the exact method for
 * the pair (world coordinates, metres; the conventions of {@link DistanceResult} and {@link ContactManifold}: n from
 * the first shape A towards the second B). One instance holds the scratch of every method: no allocation per
 * query; not thread-safe (one per thread).
 *
 * <table>
 * <caption>Methods by pair (either order; the reversed pair is computed as the listed one and swapped)</caption>
 * <tr><th>pair</th><th>distance</th><th>manifold</th></tr>
 * <tr><td>sphere, capsule, box with each other; cylinder-sphere</td><td>closed form ({@link PrimitiveDistance},
 * {@link BoxBoxCollision})</td><td>box-box: clipped faces, up to 4 points; others: the closest pair</td></tr>
 * <tr><td>half-space and any convex shape</td><td>closed form (support point)</td><td>up to 4 points
 * ({@link HalfSpaceContact})</td></tr>
 * <tr><td>other convex pairs (hull, cylinder-capsule, cylinder-box, cylinder-cylinder)</td><td>GJK/EPA
 * ({@link GjkEpa})</td><td>the closest pair</td></tr>
 * </table>
 * Two half-spaces and triangle meshes are refused with {@link IllegalArgumentException}: a half-space pair has no
 * finite distance, and a static mesh is met triangle by triangle by its caller.
 *
 * <p>Use by contact: each step, for each pair the broadphase reports, {@link #manifold} with the settings' margin
 * gives the points where the bodies may touch; each point's normal, distance and witnesses a_k (on A) and b_k (on
 * B) give the contact Jacobian as the difference of the two bodies' point Jacobians at b_k and a_k, projected on n.
 */
public final class Narrowphase {
    private final PrimitiveDistance primitives = new PrimitiveDistance();
    private final BoxBoxCollision boxes = new BoxBoxCollision();
    private final HalfSpaceContact planes = new HalfSpaceContact();
    private final GjkEpa gjk = new GjkEpa();
    private final DistanceResult scratch = new DistanceResult();

    private static final int SPHERE = 0, CAPSULE = 1, BOX = 2, CYLINDER = 3, HULL = 4, HALF_SPACE = 5, MESH = 6;

    private static int kind(Shape s) {
        if (s instanceof Sphere) {
            return SPHERE;
        }
        if (s instanceof Capsule) {
            return CAPSULE;
        }
        if (s instanceof Box) {
            return BOX;
        }
        if (s instanceof Cylinder) {
            return CYLINDER;
        }
        if (s instanceof ConvexHull) {
            return HULL;
        }
        return s instanceof HalfSpace ? HALF_SPACE : MESH;
    }

    /** The signed distance of A and B (see the class comment for the method used). */
    public void distance(Shape a, Placement pa, Shape b, Placement pb, DistanceResult out) {
        int ka = kind(a), kb = kind(b);
        if (ka > kb) {
            ordered(b, pb, kb, a, pa, ka, out);
            out.swap();
        } else {
            ordered(a, pa, ka, b, pb, kb, out);
        }
    }

    /** Kinds ka ≤ kb. */
    private void ordered(Shape a, Placement pa, int ka, Shape b, Placement pb, int kb, DistanceResult out) {
        if (kb == MESH || ka == HALF_SPACE) {
            throw new IllegalArgumentException("no distance between " + a + " and " + b + ": "
                    + (kb == MESH ? "a triangle mesh is met triangle by triangle" : "two half-spaces"));
        }
        if (kb == HALF_SPACE) {
            primitives.halfSpaceConvex((HalfSpace) b, pb, (ConvexShape) a, pa, out);
            out.swap();
            return;
        }
        switch (ka * 8 + kb) {
            case SPHERE * 8 + SPHERE -> primitives.sphereSphere((Sphere) a, pa, (Sphere) b, pb, out);
            case SPHERE * 8 + CAPSULE -> primitives.sphereCapsule((Sphere) a, pa, (Capsule) b, pb, out);
            case SPHERE * 8 + BOX -> primitives.sphereBox((Sphere) a, pa, (Box) b, pb, out);
            case SPHERE * 8 + CYLINDER -> {
                primitives.cylinderSphere((Cylinder) b, pb, (Sphere) a, pa, out);
                out.swap();
            }
            case CAPSULE * 8 + CAPSULE -> primitives.capsuleCapsule((Capsule) a, pa, (Capsule) b, pb, out);
            case CAPSULE * 8 + BOX -> primitives.capsuleBox((Capsule) a, pa, (Box) b, pb, out);
            case BOX * 8 + BOX -> boxes.distance((Box) a, pa, (Box) b, pb, out);
            default -> gjk.distance((ConvexShape) a, pa, (ConvexShape) b, pb, out);
        }
    }

    /**
     * The contact manifold of A and B: the points with distance ≤ {@code margin} (metres), at most
     * {@link ContactManifold#CAPACITY}; none when they are farther apart (see the class comment for the method).
     */
    public void manifold(Shape a, Placement pa, Shape b, Placement pb, double margin, ContactManifold out) {
        int ka = kind(a), kb = kind(b);
        if (ka > kb) {
            orderedManifold(b, pb, kb, a, pa, ka, margin, out);
            out.swap();
        } else {
            orderedManifold(a, pa, ka, b, pb, kb, margin, out);
        }
    }

    private void orderedManifold(Shape a, Placement pa, int ka, Shape b, Placement pb, int kb, double margin,
            ContactManifold out) {
        if (kb == HALF_SPACE && ka != HALF_SPACE) {
            planes.manifold((HalfSpace) b, pb, (ConvexShape) a, pa, margin, out);
            out.swap();
            return;
        }
        if (ka == BOX && kb == BOX) {
            boxes.manifold((Box) a, pa, (Box) b, pb, margin, out, scratch);
            return;
        }
        ordered(a, pa, ka, b, pb, kb, scratch);
        out.clear();
        if (scratch.distance <= margin) {
            out.setFrom(scratch);
        }
    }
}
