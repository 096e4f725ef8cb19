package org.symdyn.model;

/**
 * The joint types a model may use, with their numbers of position coordinates (nq) and velocity coordinates
 * (nv). Coordinates and motion subspaces, with the child frame C and the joint frame J (the parent side):
 * <ul>
 * <li>{@link #REVOLUTE}, {@link #CONTINUOUS}: q = angle (rad) about the unit axis a (in J = C coordinates);
 * S = [a; 0].</li>
 * <li>{@link #PRISMATIC}: q = displacement (m) along a; S = [0; a].</li>
 * <li>{@link #FLOATING}: q = [p (3), quaternion x, y, z, w (4)], the placement of C in J (R = J <- C);
 * v = [ω; v_origin], both in C coordinates; S = 1 (6x6).</li>
 * <li>{@link #BALL}: q = quaternion x, y, z, w of R = J <- C; v = ω in C coordinates; S = [1; 0].</li>
 * <li>{@link #PLANAR}: motion in the plane normal to the axis n; q = [x, y, θ] with the placement of C in J
 * given by p = x u₁ + y u₂ and R = rotation by θ about n, where (u₁, u₂, n) is the right-handed basis of
 * {@link org.symdyn.dynamics.JointModels#planarBasis}; v = q̇.</li>
 * </ul>
 */
public enum JointType {
    REVOLUTE("revolute", 1, 1),
    CONTINUOUS("continuous", 1, 1),
    PRISMATIC("prismatic", 1, 1),
    FLOATING("floating", 7, 6),
    PLANAR("planar", 3, 3),
    BALL("ball", 4, 3);

    private final String urdfName;
    private final int nq;
    private final int nv;

    JointType(String urdfName, int nq, int nv) {
        this.urdfName = urdfName;
        this.nq = nq;
        this.nv = nv;
    }

    /** The name of the type in URDF's {@code <joint type="...">}. */
    public String urdfName() {
        return urdfName;
    }

    /** Number of position coordinates. */
    public int nq() {
        return nq;
    }

    /** Number of velocity coordinates (degrees of freedom). */
    public int nv() {
        return nv;
    }

    /** True for revolute, continuous and prismatic joints: one coordinate, a constant motion subspace. */
    public boolean isSingleDof() {
        return nv == 1;
    }

    /** True for joints whose positions include a unit quaternion (floating, ball), so nq != nv. */
    public boolean hasQuaternion() {
        return this == FLOATING || this == BALL;
    }

    /**
     * Where the quaternion sits in the joint's q: the offset (from the joint's first q index) of its x component,
     * followed by y, z and the scalar w; -1 for a joint without one. Floating: 3 (after the position p), ball: 0.
     * The one place this layout is written down; the generic runtime, the integrators and generated code read it
     * from here.
     */
    public int quaternionOffset() {
        return switch (this) {
            case FLOATING -> 3;
            case BALL -> 0;
            default -> -1;
        };
    }
}
