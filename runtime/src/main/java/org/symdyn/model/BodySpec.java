package org.symdyn.model;

import java.util.Objects;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * A moving link and the joint that moves it, as {@link ModelBuilder#addBody(BodySpec)} takes them: the link's name
 * and its own inertia in its frame; the joint's name, type, axis and limits; the parent link or frame; the joint
 * frame in the parent's frame; where the joint and the link were declared. Immutable; made by a {@link Builder}:
 *
 * <pre>{@code
 * BodySpec.builder("forearm", "upper_arm", "elbow", JointType.REVOLUTE)
 *         .axis(0, 1, 0).placement(Pose.translation(0, 0, -0.3)).limits(-2.5, 0)
 *         .inertia(forearm).build()
 * }</pre>
 *
 * <p>The builder checks nothing but that an inertia is given; {@link ModelBuilder} checks the rest (a known
 * parent, unique names, a nonzero finite axis for the joints that have one, a physical inertia) and reports every
 * problem at its {@link ModelBuilder#build()}, at the locations given here.
 */
public final class BodySpec {
    private final String link;
    private final String parent;
    private final String joint;
    private final JointType type;
    private final double[] axis;
    private final Pose placement;
    private final double lower;
    private final double upper;
    private final double armature;
    private final double damping;
    private final RigidBodyInertia inertia;
    private final SourceLocation jointLocation;
    private final SourceLocation linkLocation;

    private BodySpec(Builder b) {
        this.link = b.link;
        this.parent = b.parent;
        this.joint = b.joint;
        this.type = b.type;
        this.axis = b.axis == null ? null : b.axis.clone();
        this.placement = b.placement;
        this.lower = b.lower;
        this.upper = b.upper;
        this.armature = b.armature;
        this.damping = b.damping;
        this.inertia = Objects.requireNonNull(b.inertia, "the link's inertia");
        this.jointLocation = b.jointLocation;
        this.linkLocation = b.linkLocation;
    }

    /**
     * A builder for the link {@code link} moved relative to {@code parent} by the joint {@code joint} of type
     * {@code type}: no axis, the joint frame at the parent's frame, no position limits, no source locations.
     *
     * @param link   the new body's (link's) name
     * @param parent the name of a link or frame already added, or of the root
     * @param joint  the joint's name, unique in the model
     */
    public static Builder builder(String link, String parent, String joint, JointType type) {
        return new Builder(link, parent, joint, type);
    }

    /** The link's name. */
    public String link() {
        return link;
    }

    /** The name of the parent link or frame. */
    public String parent() {
        return parent;
    }

    /** The joint's name. */
    public String joint() {
        return joint;
    }

    /** The joint's type. */
    public JointType type() {
        return type;
    }

    /** The joint axis in joint-frame coordinates, as given (a copy; null when none was given). */
    public double[] axis() {
        return axis == null ? null : axis.clone();
    }

    /** The joint frame in the parent's frame. */
    public Pose placement() {
        return placement;
    }

    /** The lower position limit (rad or m), NaN when none. */
    public double lower() {
        return lower;
    }

    /** The upper position limit (rad or m), NaN when none. */
    public double upper() {
        return upper;
    }

    /** The joint's armature (reflected rotor inertia, kg m² or kg), 0 when none. */
    public double armature() {
        return armature;
    }

    /** The joint's viscous damping coefficient d (N m s/rad or N s/m), 0 when none. */
    public double damping() {
        return damping;
    }

    /** The link's own inertia in its frame (without the links fixed to it). */
    public RigidBodyInertia inertia() {
        return inertia;
    }

    /** Where the joint was declared. */
    public SourceLocation jointLocation() {
        return jointLocation;
    }

    /** Where the link (its inertial) was declared. */
    public SourceLocation linkLocation() {
        return linkLocation;
    }

    /** Collects a {@link BodySpec}; each setter returns this builder. */
    public static final class Builder {
        private final String link;
        private final String parent;
        private final String joint;
        private final JointType type;
        private double[] axis;
        private Pose placement = Pose.IDENTITY;
        private double lower = Double.NaN;
        private double upper = Double.NaN;
        private double armature;
        private double damping;
        private RigidBodyInertia inertia;
        private SourceLocation jointLocation = SourceLocation.UNKNOWN;
        private SourceLocation linkLocation = SourceLocation.UNKNOWN;

        private Builder(String link, String parent, String joint, JointType type) {
            this.link = link;
            this.parent = parent;
            this.joint = joint;
            this.type = type;
        }

        /**
         * The joint axis in joint-frame coordinates, normalised by {@link ModelBuilder}; ignored for floating and
         * ball joints, which need none.
         */
        public Builder axis(double... xyz) {
            this.axis = xyz == null ? null : xyz.clone();
            return this;
        }

        /** The joint frame in the parent's frame; default the identity. */
        public Builder placement(Pose placement) {
            this.placement = placement;
            return this;
        }

        /** Position limits (rad or m); NaN for a side without one (the default). */
        public Builder limits(double lower, double upper) {
            this.lower = lower;
            this.upper = upper;
            return this;
        }

        /**
         * The joint's armature a ≥ 0 (kg m² for a revolute joint, kg for a prismatic one): the reflected inertia of
         * a geared rotor, added to the joint's diagonal entries of the joint-space inertia H. Default 0.
         */
        public Builder armature(double armature) {
            this.armature = armature;
            return this;
        }

        /**
         * The joint's viscous damping d ≥ 0 (N m s/rad or N s/m): a joint force −d v that simulations apply as a
         * device does; it changes no quantity a generated class computes. Default 0.
         */
        public Builder damping(double damping) {
            this.damping = damping;
            return this;
        }

        /** The link's own inertia in its frame; required. */
        public Builder inertia(RigidBodyInertia inertia) {
            this.inertia = inertia;
            return this;
        }

        /** Where the joint was declared; default {@link SourceLocation#UNKNOWN}. */
        public Builder jointLocation(SourceLocation location) {
            this.jointLocation = location;
            return this;
        }

        /** Where the link (its inertial) was declared; default {@link SourceLocation#UNKNOWN}. */
        public Builder linkLocation(SourceLocation location) {
            this.linkLocation = location;
            return this;
        }

        /**
         * The description.
         *
         * @throws NullPointerException if no inertia was given
         */
        public BodySpec build() {
            return new BodySpec(this);
        }
    }
}
