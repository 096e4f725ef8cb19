/**
 * Collision geometry: shapes, their distances and contacts, rays, a broadphase and mesh files. Above
 * {@code org.symdyn.spatial}, below contact, knowing nothing of dynamics: bodies' poses in, pairs and distances
 * out. It uses {@code java.*} and {@code org.symdyn.spatial} only.
 *
 * <h2>Frames, units and signs</h2>
 * <ul>
 * <li>Every shape is described in its own frame S (metres): {@link org.symdyn.geometry.Sphere},
 * {@link org.symdyn.geometry.Capsule} and {@link org.symdyn.geometry.Cylinder} along z,
 * {@link org.symdyn.geometry.Box} by half extents, {@link org.symdyn.geometry.HalfSpace} n · x ≤ c,
 * {@link org.symdyn.geometry.ConvexHull} (quickhull of points), {@link org.symdyn.geometry.TriangleMesh} (static
 * surfaces). Shapes are immutable and validated when built.</li>
 * <li>A query takes each shape's {@link org.symdyn.geometry.Placement} in the world W (x_W = R x_S + p, mutable, owned
 * by the caller) and answers in world coordinates.</li>
 * <li>A distance query of A and B ({@link org.symdyn.geometry.DistanceResult}) gives the signed distance d (apart:
 * the Euclidean distance; overlapping: minus the penetration depth, the shortest translation of B that separates
 * them), the unit normal n from A towards B, and witness points a on A and b on B with b − a = d n.</li>
 * <li>A contact query ({@link org.symdyn.geometry.ContactManifold}) gives up to four such points sharing n, those with
 * d_k within a margin.</li>
 * </ul>
 *
 * <h2>Exactness</h2>
 * Primitive pairs have closed forms ({@link org.symdyn.geometry.PrimitiveDistance},
 * {@link org.symdyn.geometry.BoxBoxCollision}, {@link org.symdyn.geometry.HalfSpaceContact}), exact to rounding
 * (tested within 1e-12 m on random, touching and parallel poses). Convex hulls and the remaining pairs go through
 * {@link org.symdyn.geometry.GjkEpa}: exact to rounding for polytopes (tested within 1e-9 m), an estimate reported as
 * such ({@link org.symdyn.geometry.DistanceResult#converged()}) where an iteration bound stops it on curved shapes.
 * {@link org.symdyn.geometry.Narrowphase} picks the method for any pair.
 *
 * <h2>Use by contact</h2>
 * Set up once: the shapes, one {@link org.symdyn.geometry.Placement} per shape, a
 * {@link org.symdyn.geometry.SweepAndPrune} with bounds on shapes and pairs (a body's shapes in one group), one
 * {@link org.symdyn.geometry.Narrowphase} and {@link org.symdyn.geometry.ContactManifold} per thread. Each step:
 * <ol>
 * <li>set each placement from its body's pose (the shape's fixed offset on the body composed with the body's pose
 * from the model's kinematics);</li>
 * <li>{@link org.symdyn.geometry.SweepAndPrune#update} every shape with the contact margin and
 * {@link org.symdyn.geometry.SweepAndPrune#findPairs()}; report {@link org.symdyn.geometry.SweepAndPrune#overflowed()};</li>
 * <li>for each pair not excluded (parent and child links, declared pairs), {@link
 * org.symdyn.geometry.Narrowphase#manifold} with the margin; each point k gives a contact with normal n, gap d_k
 * and witnesses a_k on body A and b_k on body B: its normal Jacobian row is nᵀ (J_B(b_k) − J_A(a_k)), the
 * difference of the two bodies' point Jacobians at the witnesses.</li>
 * </ol>
 * A static {@link org.symdyn.geometry.TriangleMesh} is met triangle by triangle
 * ({@link org.symdyn.geometry.Narrowphase#triangleManifold}), the triangles under the other shape's bounds found in
 * the mesh's {@link org.symdyn.geometry.TriangleBvh} (built once; about log n box tests per query for a shape
 * touching few of its n triangles).
 * Rays for a Lidar: {@link org.symdyn.geometry.RayCast}, the least hit distance over the shapes. Meshes from files:
 * {@link org.symdyn.geometry.MeshFiles} (STL, OBJ), a moving mesh colliding as its
 * {@link org.symdyn.geometry.TriangleMesh#convexHull()}. Nothing allocates after set-up; instances holding scratch
 * are not thread-safe.
 */
package org.symdyn.geometry;
