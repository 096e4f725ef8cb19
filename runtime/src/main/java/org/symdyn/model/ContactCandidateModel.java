package org.symdyn.model;

/**
 * A body point or sphere that may touch the model's grounds ({@code <symdyn:contact_point>},
 * {@code <symdyn:contact_sphere>}): a unilateral contact candidate with Coulomb friction, unlike
 * {@link ContactConstraintModel} (a bilateral row that holds a point along a direction).
 *
 * <p>A point is a sphere of radius 0. A sphere touches a ground at its point nearest to the ground, center − r n,
 * which moves over the sphere as it rolls; the gap is n · (center − p_ground) − r.
 *
 * @param body   the body index (never the world)
 * @param center the point, or the sphere's center, in body coordinates (m)
 * @param radius 0 for a point, else the sphere's radius (m)
 */
public record ContactCandidateModel(String name, int body, double[] center, double radius, SourceLocation location) {

    public ContactCandidateModel {
        center = center.clone();
    }

    @Override
    public double[] center() {
        return center.clone();
    }

    /** True for a sphere (radius &gt; 0). */
    public boolean isSphere() {
        return radius > 0;
    }

    /** The model-file element this candidate is declared with. */
    public String elementName() {
        return isSphere() ? "contact_sphere" : "contact_point";
    }
}
