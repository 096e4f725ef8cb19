package org.symdyn.manifold;

import java.util.ArrayList;
import java.util.List;
import org.symdyn.contract.ModelInfo;
import org.symdyn.model.Body;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.spatial.Rotations;

/**
 * The configuration manifold of a model and the maps between velocities and position changes, for integrators.
 * The state is (q, v) with q ∈ ℝ^nq and v ∈ ℝ^nv, nq ≠ nv when floating or ball joints carry unit quaternions
 * (conventions of {@link JointType}: quaternion (x, y, z, w) of R = J &lt;- C, ω in child coordinates; a floating
 * joint's v = [ω; v_origin] both in child coordinates).
 *
 * <h2>Kinematic differential equation</h2>
 * {@link #qdot}: q̇ = N(q) v, blockwise
 * <pre>
 *   scalar joints (revolute, prismatic, planar x, y, θ):  q̇ = v
 *   ball:      q̇_quat = ½ q ⊗ (ω, 0)
 *   floating:  ṗ = R(q) v_origin,   q̇_quat = ½ q ⊗ (ω, 0)
 * </pre>
 *
 * <h2>Local chart (how integrators stay on the unit sphere)</h2>
 * Integrators do not integrate quaternion derivatives. Around a base point q₀ each step uses the chart
 * q = q₀ ⊕ u with u ∈ ℝ^nv ({@link #retract}):
 * <pre>
 *   scalar joints:  q = q₀ + u
 *   floating p:     p = p₀ + u_lin                (u_lin a world-frame displacement, m)
 *   quaternions:    quat = normalise(quat₀ ⊗ exp(u_ω / 2)),  exp(δ/2) = (sin(|δ|/2) δ/|δ|, cos(|δ|/2))
 *                   (u_ω a rotation vector in child coordinates, rad: R = R₀ exp([u_ω]×))
 * </pre>
 * In the chart the kinematics are an ordinary ODE u̇ = J⁻¹(u) ξ(q, v) where ξ = {@link #tangent}(q, v) equals v
 * except for a floating joint's linear part, ξ_lin = R(q) v_origin (ṗ in world coordinates), and J⁻¹ acts on the
 * rotation blocks only ({@link #chartRate}): the inverse right Jacobian of SO(3),
 * <pre>
 *   J_r⁻¹(u) ω = ω + ½ u × ω + c(θ) u × (u × ω),   c(θ) = 1/θ² - (1 + cos θ) / (2 θ sin θ),   θ = |u|
 * </pre>
 * (c → 1/12 as θ → 0): with R(u) = R₀ exp([u]×), R(u)ᵀ Ṙ = [J_r(u) u̇]×, and this must equal [ω]×. Any Runge-Kutta
 * scheme applied to u in
 * this chart, restarted at every step (the Runge-Kutta-Munthe-Kaas construction), keeps its classical order and
 * returns unit quaternions up to rounding: the quaternion is a product of unit quaternions, renormalised.
 *
 * <p>{@link #integrate}(q, v, h) is q ⊕ (h ξ(q, v)): the first-order position update of semi-implicit Euler, of
 * the time-stepping contact solvers and of the position assembly's Newton steps (p moves by h R v_origin,
 * quaternions rotate by h ω in child coordinates).
 *
 * <p>The manifold is geometry of the model's joints, not of time integration: the solvers (assembly), contact
 * (time stepping) and simulation (integrators) all step on it, so it sits below all three (see
 * {@code package-info}).
 *
 * <p>No method allocates. An instance is immutable (no scratch arrays) and therefore thread-safe.
 */
public final class StateSpace {
    private static final int SCALAR = 0;
    private static final int BALL = 1;
    private static final int FLOATING = 2;

    private final int nq;
    private final int nv;
    /** Per joint block: kind, first q index, first v index, number of scalar coordinates. */
    private final int[] kind;
    private final int[] qIndex;
    private final int[] vIndex;
    private final int[] size;
    /** Per joint block: q index of the quaternion's x ({@link JointType#quaternionOffset()}), -1 for none. */
    private final int[] quaternion;
    private final boolean hasQuaternions;

    /** The state space of a model (joints in body order). */
    public StateSpace(Model model) {
        this(jointTypes(model));
    }

    /**
     * The state space of the model an implementation evaluates (a generated class alone): each joint's kind from
     * its numbers of coordinates (7 and 6 floating, 4 and 3 ball, else scalar coordinates).
     */
    public StateSpace(ModelInfo model) {
        this(jointTypes(model));
    }

    /**
     * The state space of joints of these types, stacked in this order in q and v (the model layout: body order,
     * each joint's coordinates contiguous). Lets code without a {@link Model} (a generated class) build one.
     */
    public StateSpace(List<JointType> jointsInBodyOrder) {
        int n = jointsInBodyOrder.size();
        kind = new int[n];
        qIndex = new int[n];
        vIndex = new int[n];
        size = new int[n];
        quaternion = new int[n];
        int qi = 0;
        int vi = 0;
        boolean quats = false;
        for (int j = 0; j < n; j++) {
            JointType type = jointsInBodyOrder.get(j);
            kind[j] = type == JointType.FLOATING ? FLOATING : type == JointType.BALL ? BALL : SCALAR;
            quats |= type.hasQuaternion();
            qIndex[j] = qi;
            vIndex[j] = vi;
            size[j] = type.nv();
            quaternion[j] = type.hasQuaternion() ? qi + type.quaternionOffset() : -1;
            qi += type.nq();
            vi += type.nv();
        }
        nq = qi;
        nv = vi;
        hasQuaternions = quats;
    }

    private static List<JointType> jointTypes(ModelInfo model) {
        List<JointType> types = new ArrayList<>();
        for (int b = 0; b < model.bodyCount(); b++) {
            boolean quaternion = model.quaternionIndex(b) >= 0;
            types.add(quaternion && model.isFloating(b) ? JointType.FLOATING : quaternion ? JointType.BALL
                    : model.jointNv(b) == 3 ? JointType.PLANAR : JointType.REVOLUTE);
        }
        return types;
    }

    /** The neutral configuration: scalar coordinates 0, quaternions the identity (w = 1). */
    public double[] neutralConfiguration() {
        double[] q = new double[nq];
        for (int j = 0; j < kind.length; j++) {
            if (kind[j] == FLOATING) {
                q[qIndex[j] + 6] = 1;
            } else if (kind[j] == BALL) {
                q[qIndex[j] + 3] = 1;
            }
        }
        return q;
    }

    private static List<JointType> jointTypes(Model model) {
        List<JointType> types = new ArrayList<>();
        for (Body b : model.bodies()) {
            types.add(b.joint().type());
        }
        return types;
    }

    /** Number of position coordinates. */
    public int nq() {
        return nq;
    }

    /** Number of velocity coordinates (the chart's dimension). */
    public int nv() {
        return nv;
    }

    /** True if some joint carries a quaternion (then nq &gt; nv). */
    public boolean hasQuaternions() {
        return hasQuaternions;
    }

    // ---------------------------------------------------------------- velocities

    /** q̇ = N(q) v (nq entries; see the class comment). {@code qdot} must not alias {@code q}. */
    public void qdot(double[] q, double[] v, double[] qdot) {
        for (int j = 0; j < kind.length; j++) {
            int qi = qIndex[j];
            int vi = vIndex[j];
            switch (kind[j]) {
                case FLOATING -> {
                    rotateByQuaternion(q, quaternion[j], v, vi + 3, qdot, qi);
                    quaternionRate(q, quaternion[j], v, vi, qdot, quaternion[j]);
                }
                case BALL -> quaternionRate(q, quaternion[j], v, vi, qdot, quaternion[j]);
                default -> System.arraycopy(v, vi, qdot, qi, size[j]);
            }
        }
    }

    /**
     * ξ(q, v) (nv entries): the chart velocity, v with each floating joint's linear part replaced by ṗ = R(q) v_origin
     * (world coordinates). May alias {@code v}.
     */
    public void tangent(double[] q, double[] v, double[] xi) {
        for (int j = 0; j < kind.length; j++) {
            int vi = vIndex[j];
            if (kind[j] == FLOATING) {
                rotateByQuaternion(q, quaternion[j], v, vi + 3, xi, vi + 3);
                if (xi != v) {
                    System.arraycopy(v, vi, xi, vi, 3);
                }
            } else if (xi != v) {
                System.arraycopy(v, vi, xi, vi, size[j]);
            }
        }
    }

    /**
     * The chart rate u̇ = J⁻¹(u) ξ (nv entries): ξ on scalar and linear blocks, the inverse right Jacobian of SO(3) at
     * u_ω applied to the angular blocks (see the class comment). {@code out} may alias {@code xi}, not {@code u}.
     */
    public void chartRate(double[] u, double[] xi, double[] out) {
        if (out != xi) {
            System.arraycopy(xi, 0, out, 0, nv);
        }
        if (!hasQuaternions) {
            return;
        }
        for (int j = 0; j < kind.length; j++) {
            if (kind[j] != SCALAR) {
                inverseRightJacobian(u, vIndex[j], out);
            }
        }
    }

    /** out[o..o+3) = J_r⁻¹(u[o..o+3)) out[o..o+3). */
    private static void inverseRightJacobian(double[] u, int o, double[] out) {
        double ux = u[o], uy = u[o + 1], uz = u[o + 2];
        double wx = out[o], wy = out[o + 1], wz = out[o + 2];
        double t2 = ux * ux + uy * uy + uz * uz;
        double c;
        if (t2 < 1e-4) {
            c = 1.0 / 12 + t2 / 720 + t2 * t2 / 30240;
        } else {
            double t = Math.sqrt(t2);
            c = 1 / t2 - (1 + StrictMath.cos(t)) / (2 * t * StrictMath.sin(t));
        }
        // a = u × ω, b = u × a
        double ax = uy * wz - uz * wy, ay = uz * wx - ux * wz, az = ux * wy - uy * wx;
        double bx = uy * az - uz * ay, by = uz * ax - ux * az, bz = ux * ay - uy * ax;
        out[o] = wx + 0.5 * ax + c * bx;
        out[o + 1] = wy + 0.5 * ay + c * by;
        out[o + 2] = wz + 0.5 * az + c * bz;
    }

    // ---------------------------------------------------------------- moving on the manifold

    /** qOut = q₀ ⊕ u (see the class comment); quaternions come out normalised. {@code qOut} may alias {@code q0}. */
    public void retract(double[] q0, double[] u, double[] qOut) {
        retract(q0, u, 1, qOut);
    }

    /** qOut = q₀ ⊕ (s u). {@code qOut} may alias {@code q0}. */
    public void retract(double[] q0, double[] u, double s, double[] qOut) {
        for (int j = 0; j < kind.length; j++) {
            int qi = qIndex[j];
            int vi = vIndex[j];
            switch (kind[j]) {
                case FLOATING -> {
                    for (int k = 0; k < 3; k++) {
                        qOut[qi + k] = q0[qi + k] + s * u[vi + 3 + k];
                    }
                    Rotations.rotateQuaternion(q0, quaternion[j], s * u[vi], s * u[vi + 1], s * u[vi + 2], qOut);
                }
                case BALL -> Rotations.rotateQuaternion(q0, quaternion[j], s * u[vi], s * u[vi + 1], s * u[vi + 2], qOut);
                default -> {
                    for (int k = 0; k < size[j]; k++) {
                        qOut[qi + k] = q0[qi + k] + s * u[vi + k];
                    }
                }
            }
        }
    }

    /**
     * qOut = q ⊕ (h ξ(q, v)): scalar coordinates move by h v, a floating position by h R(q) v_origin, quaternions
     * rotate by h ω (child coordinates) and are renormalised. {@code qOut} may alias {@code q}.
     */
    public void integrate(double[] q, double[] v, double h, double[] qOut) {
        for (int j = 0; j < kind.length; j++) {
            int qi = qIndex[j];
            int vi = vIndex[j];
            switch (kind[j]) {
                case FLOATING -> {
                    int r = quaternion[j];
                    double x = q[r], y = q[r + 1], z = q[r + 2], w = q[r + 3];
                    double n2 = x * x + y * y + z * z + w * w;
                    double vx = v[vi + 3], vy = v[vi + 4], vz = v[vi + 5];
                    // R v = v + 2 w (r × v) + 2 r × (r × v) for a unit quaternion (r, w); divided by |q|² otherwise.
                    double cx = y * vz - z * vy, cy = z * vx - x * vz, cz = x * vy - y * vx;
                    double dx = y * cz - z * cy, dy = z * cx - x * cz, dz = x * cy - y * cx;
                    double s2 = 2 / n2;
                    qOut[qi] = q[qi] + h * (vx + s2 * (w * cx + dx));
                    qOut[qi + 1] = q[qi + 1] + h * (vy + s2 * (w * cy + dy));
                    qOut[qi + 2] = q[qi + 2] + h * (vz + s2 * (w * cz + dz));
                    Rotations.rotateQuaternion(q, quaternion[j], h * v[vi], h * v[vi + 1], h * v[vi + 2], qOut);
                }
                case BALL -> Rotations.rotateQuaternion(q, quaternion[j], h * v[vi], h * v[vi + 1], h * v[vi + 2], qOut);
                default -> {
                    for (int k = 0; k < size[j]; k++) {
                        qOut[qi + k] = q[qi + k] + h * v[vi + k];
                    }
                }
            }
        }
    }

    /**
     * The chart coordinates u (nv) with q₁ = q₀ ⊕ u, the inverse of {@link #retract}: differences of scalar and
     * floating-position coordinates, and for quaternions the rotation vector of q₀* ⊗ q₁ (child coordinates of q₀,
     * angle in [0, π], so the shorter of the two rotations). Useful to measure errors between configurations.
     */
    public void difference(double[] q0, double[] q1, double[] u) {
        for (int j = 0; j < kind.length; j++) {
            int qi = qIndex[j];
            int vi = vIndex[j];
            switch (kind[j]) {
                case FLOATING -> {
                    for (int k = 0; k < 3; k++) {
                        u[vi + 3 + k] = q1[qi + k] - q0[qi + k];
                    }
                    quaternionLog(q0, q1, quaternion[j], u, vi);
                }
                case BALL -> quaternionLog(q0, q1, quaternion[j], u, vi);
                default -> {
                    for (int k = 0; k < size[j]; k++) {
                        u[vi + k] = q1[qi + k] - q0[qi + k];
                    }
                }
            }
        }
    }

    /** Renormalises every quaternion of q in place (a no-op on models without quaternions). */
    public void normalize(double[] q) {
        for (int j = 0; j < kind.length; j++) {
            if (kind[j] != SCALAR) {
                int o = quaternion[j];
                double n = Math.sqrt(q[o] * q[o] + q[o + 1] * q[o + 1] + q[o + 2] * q[o + 2] + q[o + 3] * q[o + 3]);
                for (int k = 0; k < 4; k++) {
                    q[o + k] /= n;
                }
            }
        }
    }

    /**
     * The q index of the first quaternion of q that is zero (no rotation to renormalise to: {@link #normalize} would
     * make it NaN), or -1 if none is.
     */
    public int zeroQuaternion(double[] q) {
        for (int j = 0; j < kind.length; j++) {
            if (kind[j] != SCALAR) {
                int o = quaternion[j];
                if (q[o] == 0 && q[o + 1] == 0 && q[o + 2] == 0 && q[o + 3] == 0) {
                    return o;
                }
            }
        }
        return -1;
    }

    /** max over quaternions of | |quat| - 1 | (0 without quaternions). */
    public double quaternionNormError(double[] q) {
        double e = 0;
        for (int j = 0; j < kind.length; j++) {
            if (kind[j] != SCALAR) {
                int o = quaternion[j];
                double n = Math.sqrt(q[o] * q[o] + q[o + 1] * q[o + 1] + q[o + 2] * q[o + 2] + q[o + 3] * q[o + 3]);
                e = Math.max(e, Math.abs(n - 1));
            }
        }
        return e;
    }

    /**
     * True for the chart coordinates of rotations (u_ω of floating and ball joints), whose size is an angle in
     * radians rather than a multiple of a coordinate value; used by error norms.
     */
    public boolean isRotationComponent(int vIndexOfComponent) {
        for (int j = 0; j < kind.length; j++) {
            int vi = vIndex[j];
            if (vIndexOfComponent >= vi && vIndexOfComponent < vi + size[j]) {
                return kind[j] != SCALAR && vIndexOfComponent < vi + 3;
            }
        }
        throw new IndexOutOfBoundsException("velocity index " + vIndexOfComponent + " of " + nv);
    }

    /**
     * The position coordinate that chart component i moves additively (scalar joints and floating positions), or -1
     * for rotation components.
     */
    public int positionIndexOf(int vIndexOfComponent) {
        for (int j = 0; j < kind.length; j++) {
            int vi = vIndex[j];
            if (vIndexOfComponent >= vi && vIndexOfComponent < vi + size[j]) {
                int k = vIndexOfComponent - vi;
                return switch (kind[j]) {
                    case FLOATING -> k < 3 ? -1 : qIndex[j] + k - 3;
                    case BALL -> -1;
                    default -> qIndex[j] + k;
                };
            }
        }
        throw new IndexOutOfBoundsException("velocity index " + vIndexOfComponent + " of " + nv);
    }

    // ---------------------------------------------------------------- quaternion helpers

    /** out[oo..oo+3) = R(quat at q[qo..qo+4)) x[xo..xo+3); the quaternion need not be exactly unit. */
    private static void rotateByQuaternion(double[] q, int qo, double[] x, int xo, double[] out, int oo) {
        double qx = q[qo], qy = q[qo + 1], qz = q[qo + 2], w = q[qo + 3];
        double n2 = qx * qx + qy * qy + qz * qz + w * w;
        double vx = x[xo], vy = x[xo + 1], vz = x[xo + 2];
        double cx = qy * vz - qz * vy, cy = qz * vx - qx * vz, cz = qx * vy - qy * vx;
        double dx = qy * cz - qz * cy, dy = qz * cx - qx * cz, dz = qx * cy - qy * cx;
        double s2 = 2 / n2;
        out[oo] = vx + s2 * (w * cx + dx);
        out[oo + 1] = vy + s2 * (w * cy + dy);
        out[oo + 2] = vz + s2 * (w * cz + dz);
    }

    /** out[oo..oo+4) = ½ quat ⊗ (ω, 0) with quat = q[qo..qo+4), ω = v[vo..vo+3). */
    private static void quaternionRate(double[] q, int qo, double[] v, int vo, double[] out, int oo) {
        double x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
        double wx = v[vo], wy = v[vo + 1], wz = v[vo + 2];
        out[oo] = 0.5 * (w * wx + y * wz - z * wy);
        out[oo + 1] = 0.5 * (w * wy + z * wx - x * wz);
        out[oo + 2] = 0.5 * (w * wz + x * wy - y * wx);
        out[oo + 3] = -0.5 * (x * wx + y * wy + z * wz);
    }

    /** u[uo..uo+3) = rotation vector of conj(a) ⊗ b for the quaternions at [o..o+4) of a and b. */
    private static void quaternionLog(double[] a, double[] b, int o, double[] u, int uo) {
        double ax = a[o], ay = a[o + 1], az = a[o + 2], aw = a[o + 3];
        double bx = b[o], by = b[o + 1], bz = b[o + 2], bw = b[o + 3];
        // conj(a) ⊗ b = (aw b_v - bw a_v - a_v × b_v, aw bw + a_v · b_v)
        double dx = aw * bx - bw * ax - (ay * bz - az * by);
        double dy = aw * by - bw * ay - (az * bx - ax * bz);
        double dz = aw * bz - bw * az - (ax * by - ay * bx);
        double dw = aw * bw + ax * bx + ay * by + az * bz;
        if (dw < 0) {
            dx = -dx;
            dy = -dy;
            dz = -dz;
            dw = -dw;
        }
        double sn = Math.sqrt(dx * dx + dy * dy + dz * dz);
        double f = sn < 1e-12 ? 2 / Math.max(dw, 1e-300) : 2 * Math.atan2(sn, dw) / sn;
        u[uo] = f * dx;
        u[uo + 1] = f * dy;
        u[uo + 2] = f * dz;
    }
}
