package org.symdyn.io.mjcf;

import java.util.List;
import org.symdyn.io.Messages;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;
import org.symdyn.model.InitialState;
import org.symdyn.model.ModelBuilder;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.Rotations;

/**
 * {@code <keyframe><key>} as the model's named {@link InitialState}s, MuJoCo's {@code qpos} and {@code qvel} mapped
 * to SymDyn's coordinates joint by joint, in MuJoCo's joint order (which is the model's body order):
 * <ul>
 * <li>free joint: qpos [p, w, x, y, z] → q [p, x, y, z, w] (the body frame's pose in the world, the quaternion
 * normalised as MuJoCo does); qvel [v_world, ω_body] → v [ω_body, Rᵀ v_world] (R = R_world←body of that
 * quaternion).</li>
 * <li>ball joint: qpos [w, x, y, z] → q [x, y, z, w] (normalised); qvel ω in child coordinates, unchanged.</li>
 * <li>hinge and slide: qpos and qvel unchanged (the coordinate includes {@code ref}, as MuJoCo's).</li>
 * </ul>
 * A missing {@code qpos} is MuJoCo's qpos0 (every hinge and slide at its {@code ref}, a ball joint at the identity,
 * a free body at its XML pose); a missing {@code qvel} is zero. {@code qpos} must have MuJoCo's nq numbers and
 * {@code qvel} its nv (the model's nq and nv), else a located error, as MuJoCo refuses it; a zero quaternion is an
 * error. {@code ctrl}, {@code act}, {@code mpos}, {@code mquat} and a nonzero {@code time} are warnings (the
 * initial state holds positions and velocities only). An unnamed key is named after its index among the keys
 * (counting from 0, MuJoCo's key number). qpos0 itself is the model's
 * {@link org.symdyn.model.Model#referenceConfiguration()}, where a simulation given no state starts.
 */
final class KeyframeReader {
    private static final String[] NOT_READ = {"ctrl", "act", "mpos", "mquat"};

    private final MjcfSource source;
    private final ModelBuilder builder;
    private final BodyTreeReader tree;

    KeyframeReader(MjcfSource source, ModelBuilder builder, BodyTreeReader tree) {
        this.source = source;
        this.builder = builder;
        this.tree = tree;
    }

    void read(List<XmlElement> sections) {
        int nq = 0;
        int nv = 0;
        for (MjcfJoint j : tree.joints().values()) {
            nq += j.type().nq();
            nv += j.type().nv();
        }
        // MuJoCo's qpos0 is where a simulation starts when it is given no state: the model's reference configuration
        double[] q0 = new double[nq];
        map(null, null, "qpos0", null, new double[nv], q0, new double[nv]);
        builder.referenceConfiguration(q0, SourceLocation.UNKNOWN);
        int k = 0;
        for (XmlElement section : sections) {
            for (XmlElement key : source.children(section)) {
                ValueReader v = source.values(key);
                if (!key.is("key")) {
                    v.warning(key, "unknown element <" + Messages.cut(key.name()) + "> in <keyframe>; ignored");
                    continue;
                }
                String name = key.attribute("name") != null ? key.attribute("name") : String.valueOf(k);
                k++;
                String label = "keyframe '" + Messages.cut(name) + "'";
                int before = v.errorCount();
                double[] qpos = key.has("qpos") ? v.vector(key, "qpos", nq, null, label + ": qpos (MuJoCo's nq = "
                        + nq + ")") : null;
                double[] qvel = v.vector(key, "qvel", nv, new double[nv], label + ": qvel (MuJoCo's nv = " + nv
                        + ")");
                for (String attribute : NOT_READ) {
                    if (key.has(attribute)) {
                        v.warning(key, label + ": " + attribute + " is not read (the initial state holds positions"
                                + " and velocities only)");
                    }
                }
                if (key.has("time") && v.number(key, "time", 0, false, label + ": time") != 0) {
                    v.warning(key, label + ": time is not read (a simulation starts at t = 0)");
                }
                if (v.errorCount() > before) {
                    continue;
                }
                double[] q = new double[nq];
                double[] vel = new double[nv];
                if (map(key, v, label, qpos, qvel, q, vel)) {
                    builder.addInitialState(new InitialState(name, q, vel, v.location(key)));
                }
            }
        }
    }

    /** Fills q and v from MuJoCo's qpos (null: qpos0) and qvel; false after reporting a zero quaternion. */
    private boolean map(XmlElement key, ValueReader values, String label, double[] qpos, double[] qvel, double[] q,
            double[] v) {
        int qi = 0;
        int vi = 0;
        boolean ok = true;
        double[] r = new double[9];
        for (MjcfJoint j : tree.joints().values()) {
            switch (j.type()) {
                case FLOATING -> {
                    double[] quat = new double[4]; // x, y, z, w
                    if (qpos == null) {
                        Pose p = tree.bodyOfJoint(j.name()).world0();
                        System.arraycopy(p.translationArray(), 0, q, qi, 3);
                        Rotations.toQuaternion(p.rotationArray(), quat);
                    } else {
                        System.arraycopy(qpos, qi, q, qi, 3);
                        ok &= unit(key, values, label, j, qpos, qi + 3, quat);
                    }
                    System.arraycopy(quat, 0, q, qi + 3, 4);
                    Rotations.fromQuaternion(quat[0], quat[1], quat[2], quat[3], r);
                    double[] vWorld = {qvel[vi], qvel[vi + 1], qvel[vi + 2]};
                    double[] vBody = new double[3];
                    double[] rt = new double[9];
                    Rotations.transpose(r, rt);
                    Rotations.apply(rt, vWorld, vBody);
                    System.arraycopy(qvel, vi + 3, v, vi, 3);
                    System.arraycopy(vBody, 0, v, vi + 3, 3);
                }
                case BALL -> {
                    double[] quat = {0, 0, 0, 1};
                    if (qpos != null) {
                        ok &= unit(key, values, label, j, qpos, qi, quat);
                    }
                    System.arraycopy(quat, 0, q, qi, 4);
                    System.arraycopy(qvel, vi, v, vi, 3);
                }
                default -> {
                    q[qi] = qpos == null ? j.ref() : qpos[qi];
                    v[vi] = qvel[vi];
                }
            }
            qi += j.type().nq();
            vi += j.type().nv();
        }
        return ok;
    }

    /** MuJoCo's quaternion (w, x, y, z) at {@code at}, normalised, into out (x, y, z, w); false if zero. */
    private static boolean unit(XmlElement key, ValueReader values, String label, MjcfJoint j, double[] qpos, int at,
            double[] out) {
        double w = qpos[at];
        double x = qpos[at + 1];
        double y = qpos[at + 2];
        double z = qpos[at + 3];
        double n = Math.sqrt(w * w + x * x + y * y + z * z);
        if (!(n > 0)) {
            values.error(key, label + ": the quaternion of joint '" + j.name() + "' (qpos " + (at + 1) + " to "
                    + (at + 4) + ") is zero");
            return false;
        }
        out[0] = x / n;
        out[1] = y / n;
        out[2] = z / n;
        out[3] = w / n;
        return true;
    }
}
