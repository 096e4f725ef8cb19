/**
 * Collision geometry: shapes, their distances and contacts, rays, a broadphase and mesh files. Above
 * {@code org.symdyn.spatial}, below contact, knowing nothing of dynamics: bodies' poses in, pairs and distances
 * out.
 *
 * <h2>Frames and units</h2>
 * Every shape is described in its own frame S (metres). A query takes each shape's {@link
 * org.symdyn.geometry.Placement} in the world W (x_W = R x_S + p) and answers in world coordinates.
 */
package org.symdyn.geometry;
