package org.symdyn.io.sdf;

import org.symdyn.io.Messages;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.Rotations;

/**
 * A {@code <pose>} as written: the transform it states and the frame it is stated in. Its text is
 * {@code x y z roll pitch yaw} (metres, radians; R = Rz(yaw) Ry(pitch) Rx(roll), URDF's fixed-axis convention),
 * or from 1.9 on with {@code degrees="true"} the angles in degrees, or with {@code rotation_format="quat_xyzw"}
 * {@code x y z qx qy qz qw} (the quaternion normalised; not combined with degrees). The pose places the element's
 * frame in the frame named by {@code relative_to} (1.7 and later), or, when that is absent or empty, in the frame
 * the element's kind defaults to ({@link FrameGraph}).
 *
 * @param pose       the element's frame in the reference frame (reference ← element)
 * @param relativeTo the {@code relative_to} name as written, null when absent or empty
 * @param element    the {@code <pose>} element, null when the element has none (identity)
 */
record PoseElement(Pose pose, String relativeTo, XmlElement element) {
    /** No {@code <pose>}: identity in the default frame. */
    static final PoseElement NONE = new PoseElement(Pose.IDENTITY, null, null);

    /** Reads the {@code <pose>} child of {@code owner} (a second one is a warning); NONE when there is none. */
    static PoseElement of(XmlElement owner, ValueReader values, SdfVersion version, String label) {
        XmlElement p = values.single(owner, "pose", label);
        if (p == null) {
            return NONE;
        }
        String relativeTo = p.attribute("relative_to");
        if (relativeTo != null && relativeTo.isBlank()) {
            relativeTo = null;
        }
        if (relativeTo != null && !version.hasFrameSemantics()) {
            values.error(p, label + ": pose relative_to needs SDFormat 1.7 or later (the file is " + version + ")");
            relativeTo = null;
        }
        String frame = p.attribute("frame");
        if (frame != null && !frame.isBlank()) {
            values.error(p, label + ": the pose attribute frame='" + Messages.cut(frame) + "' is not read (SDFormat"
                    + " gave it no meaning before 1.7 replaced it by relative_to)");
        }
        boolean degrees = false;
        String format = p.attribute("rotation_format");
        if (p.has("degrees") || format != null) {
            if (!version.hasPoseFormats()) {
                values.error(p, label + ": pose degrees and rotation_format need SDFormat 1.9 or later (the file"
                        + " is " + version + ")");
            }
            degrees = values.bool(p, "degrees", false, label + ": pose degrees");
        }
        boolean quaternion = false;
        if (format != null && !format.trim().equals("euler_rpy")) {
            if (format.trim().equals("quat_xyzw")) {
                quaternion = true;
            } else {
                values.error(p, label + ": pose rotation_format '" + Messages.cut(format)
                        + "' is neither euler_rpy nor quat_xyzw");
            }
        }
        String what = label + ": pose";
        if (SdfText.tokenCount(p) == 0) {
            return new PoseElement(Pose.IDENTITY, relativeTo, p);
        }
        if (quaternion) {
            if (degrees) {
                values.error(p, what + ": degrees=\"true\" does not apply to a quaternion (quat_xyzw)");
            }
            double[] v = SdfText.numbers(values, p, 7, what + " (x y z qx qy qz qw)");
            double n = Math.sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5] + v[6] * v[6]);
            if (!(n > 0)) {
                values.error(p, what + ": the quaternion is zero");
                return new PoseElement(Pose.IDENTITY, relativeTo, p);
            }
            double[] r = new double[9];
            Rotations.fromQuaternion(v[3], v[4], v[5], v[6], r);
            return new PoseElement(Pose.of(r, new double[] {v[0], v[1], v[2]}), relativeTo, p);
        }
        double[] v = SdfText.numbers(values, p, 6, what + " (x y z roll pitch yaw)");
        double k = degrees ? Math.PI / 180 : 1;
        return new PoseElement(Pose.fromXyzRpy(new double[] {v[0], v[1], v[2]},
                new double[] {v[3] * k, v[4] * k, v[5] * k}), relativeTo, p);
    }
}
