package org.symdyn.io.mjcf;

import org.symdyn.spatial.Pose;

/**
 * One {@code <geom>} as read, defaults applied: what inertia from geoms and the collision and visual shapes need.
 *
 * @param name        the geom's name, or null
 * @param type        sphere, capsule, cylinder, box, ellipsoid, plane, mesh, hfield or sdf
 * @param size        MuJoCo's size numbers for the type: sphere r; capsule and cylinder r and the half-length;
 *                    box the three half-sizes; ellipsoid the three semi-axes; plane the half-extents (0: infinite)
 * @param inBody      the geom frame in its body's frame ({@code fromto} already turned into a centre and a z axis)
 * @param density     kg/m³ (MuJoCo's default 1000)
 * @param mass        the geom's {@code mass} (kg) when given, which replaces density · volume; NaN otherwise
 * @param collides    true unless both {@code contype} and {@code conaffinity} are 0 (a visual-only geom)
 * @param contype     MuJoCo's {@code contype} bit mask (default 1)
 * @param conaffinity MuJoCo's {@code conaffinity} bit mask (default 1): two geoms may collide when
 *                    {@code contype} of either has a bit of the other's {@code conaffinity}
 * @param priority    MuJoCo's {@code priority} (default 0): the higher one decides a pair's friction
 * @param condim      MuJoCo's {@code condim}: 1 (frictionless), 3 (the default), 4 or 6
 * @param friction    the sliding friction coefficient (the first number of {@code friction}, default 1)
 * @param meshFile    the mesh file a mesh geom uses (resolved with the compiler's meshdir), or null
 * @param meshScale   the mesh asset's scale, 3 numbers
 * @param rgba        the geom's colour (its {@code rgba}, or its material's where the geom gives none or MuJoCo's
 *                    default 0.5 0.5 0.5 1), or null
 * @param group       MuJoCo's {@code group} (default 0): MuJoCo draws groups 0 to 2 by default
 * @param resolved    the element with its class
 */
record GeomDeclaration(String name, String type, double[] size, Pose inBody, double density, double mass,
        boolean collides, long contype, long conaffinity, int priority, int condim, double friction, String meshFile,
        double[] meshScale, double[] rgba, int group, ResolvedElement resolved) {

    /** The same geom placed at {@code inBody} instead. */
    GeomDeclaration placed(Pose placement) {
        return new GeomDeclaration(name, type, size, placement, density, mass, collides, contype, conaffinity,
                priority, condim, friction, meshFile, meshScale, rgba, group, resolved);
    }
}
