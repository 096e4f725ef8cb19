package org.symdyn.contract;

/**
 * A linear spring-damper between two body points ({@code <symdyn:spring>}): along the unit vector u from point 1
 * to point 2 at distance d, the tension T = k (d − restLength) + c ḋ pulls point 1 by +T u and point 2 by −T u.
 *
 * @param body1      body index of point 1 (−1: the world)
 * @param point1     point 1 in body1's coordinates (world coordinates for the world), m
 * @param body2      body index of point 2 (−1: the world)
 * @param point2     point 2 in body2's coordinates, m
 * @param stiffness  k ≥ 0 (N/m)
 * @param damping    c ≥ 0 (N·s/m)
 * @param restLength ≥ 0 (m)
 */
public record SpringDamperSpec(String name, String link1, int body1, double[] point1, String link2, int body2,
        double[] point2, double stiffness, double damping, double restLength) implements DeviceSpec {

    public SpringDamperSpec {
        point1 = point1.clone();
        point2 = point2.clone();
    }

    @Override
    public double[] point1() {
        return point1.clone();
    }

    @Override
    public double[] point2() {
        return point2.clone();
    }
}
