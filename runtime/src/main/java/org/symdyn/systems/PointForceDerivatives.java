package org.symdyn.systems;

import java.util.Objects;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Kinematics;

/**
 * The derivatives along q of the generalised forces of a force applied to a body, and of a point's velocity, through
 * the {@link Kinematics} contract alone (a generated class's or the interpreter's): what an {@link Actuator} that
 * pushes on bodies needs for {@link Actuator#addForceDerivatives}.
 *
 * <p>After {@link #update} at q for body b, in world coordinates: ω_k is the angular velocity and c_k(p) the velocity
 * of the world point p fixed in b that a unit velocity of dof k gives b (the columns of the world angular and point
 * Jacobians; zero for dofs off b's branch). Along the contract's tangent direction of a dof k on b's branch, all
 * that k carries moves by its twist S_k, so the twist of a dof j on the branch turns, ∂S_j/∂q_k = S_k × S_j, when
 * <b>k moves j</b>: k is j or above it on the branch, or both are dofs of one floating or ball joint (their tangent
 * directions are right perturbations in child coordinates: every dof of the joint moves the others). For a force F
 * and a pure torque N given in the world, F applied at a point p fixed in b,
 * <pre>
 *   τ_j = c_j(p) · F + ω_j · N
 *   ∂τ_j/∂q_k = F · (ω_k × c_j(p)) + N · (ω_k × ω_j)     if k moves j
 *             = F · (ω_j × c_k(p))                       if j moves k, k not j (the point moves, j's axis not)
 * </pre>
 * ({@link #addForceDerivative}); for F and N that turn with the body (given in its coordinates), each k adds
 * c_j · (ω_k × F) + ω_j · (ω_k × N). The velocity of p, ṗ = Σ_j c_j(p) v_j, and the body's angular velocity
 * ω = Σ_j ω_j v_j ({@link #addPointVelocityDerivative}):
 * <pre>
 *   ∂ṗ/∂q_k = ω_k × Σ_{j moved by k} v_j c_j(p) + (Σ_{j not moved by k} v_j ω_j) × c_k(p)
 *   ∂ω/∂q_k = ω_k × Σ_{j moved by k} v_j ω_j
 * </pre>
 * The columns are taken relative to the body's origin (c_k(p) = u_k + ω_k × (p − o), u_k its origin's), so nothing
 * grows with the distance from the world's origin. Derivatives along v need none of this: ∂τ/∂v of a force that
 * depends on velocities is the Jacobians' product, and ∂ṗ/∂v = c(p).
 *
 * <p>Allocates in the constructor (the branches of every body); {@link #update} and the derivatives do not. Not
 * thread-safe.
 */
public final class PointForceDerivatives {
    private final Kinematics kinematics;
    private final int nv;
    /** Per body: the dofs of its branch, root first (so a dof is above every later one). */
    private final int[][] branch;
    /** Per dof: its joint's first dof when the joint's dofs all move the child together (floating, ball), else −1. */
    private final int[] together;
    private final DMatrixRMaj jacobian;
    private final double[] rotation = new double[9];
    private final double[] origin = new double[3];
    /** Per branch dof: ω_k and u_k (world), 3 each. */
    private final double[] omega;
    private final double[] originVelocity;
    private final double[] column;
    private int body = -1;
    private int count;
    private int[] dofs = new int[0];

    public PointForceDerivatives(Kinematics kinematics) {
        this.kinematics = Objects.requireNonNull(kinematics, "kinematics");
        this.nv = kinematics.nv();
        int nb = kinematics.bodyCount();
        int[] dofParent = kinematics.dofParents();
        this.branch = new int[nb][];
        this.together = new int[nv];
        for (int b = 0; b < nb; b++) {
            int first = kinematics.vIndex(b);
            int n = kinematics.jointNv(b);
            boolean rigid = n > 1 && kinematics.quaternionIndex(b) >= 0;
            for (int d = 0; d < n; d++) {
                together[first + d] = rigid ? first : -1;
            }
            // the body's lowest dof is its own joint's last, or the nearest ancestor's with dofs
            int last = -1;
            for (int a = b; a >= 0 && last < 0; a = kinematics.parent(a)) {
                if (kinematics.jointNv(a) > 0) {
                    last = kinematics.vIndex(a) + kinematics.jointNv(a) - 1;
                }
            }
            int depth = 0;
            for (int k = last; k >= 0; k = dofParent[k]) {
                depth++;
            }
            int[] dofsOf = new int[depth];
            for (int k = last, i = depth - 1; k >= 0; k = dofParent[k], i--) {
                dofsOf[i] = k;
            }
            branch[b] = dofsOf;
        }
        this.jacobian = new DMatrixRMaj(6, nv);
        this.omega = new double[3 * nv];
        this.originVelocity = new double[3 * nv];
        this.column = new double[3 * nv];
    }

    /** Takes body b's pose and the world columns of its branch at q (b ≥ 0). */
    public void update(double[] q, int body) {
        kinematics.bodyPose(q, body, rotation, origin);
        kinematics.bodyJacobian(q, body, jacobian);
        this.body = body;
        this.dofs = branch[body];
        this.count = dofs.length;
        double[] r = rotation;
        double[] j = jacobian.data;
        for (int a = 0; a < count; a++) {
            int k = dofs[a];
            double wx = j[k], wy = j[nv + k], wz = j[2 * nv + k];
            double vx = j[3 * nv + k], vy = j[4 * nv + k], vz = j[5 * nv + k];
            for (int i = 0; i < 3; i++) {
                omega[3 * a + i] = r[3 * i] * wx + r[3 * i + 1] * wy + r[3 * i + 2] * wz;
                originVelocity[3 * a + i] = r[3 * i] * vx + r[3 * i + 1] * vy + r[3 * i + 2] * vz;
            }
        }
    }

    /** The body of the last {@link #update}. */
    public int body() {
        return body;
    }

    /** Component i of the body's origin in the world at the last {@link #update}. */
    public double origin(int i) {
        return origin[i];
    }

    /** Entry (i, j) of R_world←body at the last {@link #update}. */
    public double rotation(int i, int j) {
        return rotation[3 * i + j];
    }

    /** Writes the world position of a point given in the body's coordinates. */
    public void worldPoint(double[] bodyPoint, double[] out) {
        double[] r = rotation;
        for (int i = 0; i < 3; i++) {
            out[i] = r[3 * i] * bodyPoint[0] + r[3 * i + 1] * bodyPoint[1] + r[3 * i + 2] * bodyPoint[2] + origin[i];
        }
    }

    /** Whether branch dof a moves branch dof b (both positions in the branch, root first). */
    private boolean moves(int a, int b) {
        return a <= b || together[dofs[a]] >= 0 && together[dofs[a]] == together[dofs[b]];
    }

    /** c_k(p) for every branch dof into {@link #column}. */
    private void columns(double[] p) {
        double px = p[0] - origin[0], py = p[1] - origin[1], pz = p[2] - origin[2];
        for (int a = 0; a < count; a++) {
            int o = 3 * a;
            double wx = omega[o], wy = omega[o + 1], wz = omega[o + 2];
            column[o] = originVelocity[o] + wy * pz - wz * py;
            column[o + 1] = originVelocity[o + 1] + wz * px - wx * pz;
            column[o + 2] = originVelocity[o + 2] + wx * py - wy * px;
        }
    }

    /**
     * Adds {@code scale} ∂τ/∂q of the force F (world, N) applied at the world point p fixed in the body and the pure
     * torque N (world, N·m) to {@code dq} (nv x nv, row j the force on v_j). With {@code turning}, F and N turn with
     * the body (a wrench given in its coordinates, here expressed in the world at q); else they are fixed in the
     * world. N may be null for none.
     */
    public void addForceDerivative(double[] p, double[] force, double[] torque, boolean turning, double scale,
            DMatrixRMaj dq) {
        columns(p);
        double fx = force[0], fy = force[1], fz = force[2];
        double nx = torque == null ? 0 : torque[0], ny = torque == null ? 0 : torque[1];
        double nz = torque == null ? 0 : torque[2];
        double[] out = dq.data;
        for (int a = 0; a < count; a++) {
            int k = dofs[a];
            int o = 3 * a;
            double wkx = omega[o], wky = omega[o + 1], wkz = omega[o + 2];
            double ckx = column[o], cky = column[o + 1], ckz = column[o + 2];
            // F × ω_k and N × ω_k: F · (ω_k × c) = c · (F × ω_k)
            double ax = fy * wkz - fz * wky, ay = fz * wkx - fx * wkz, az = fx * wky - fy * wkx;
            double bx = ny * wkz - nz * wky, by = nz * wkx - nx * wkz, bz = nx * wky - ny * wkx;
            for (int b = 0; b < count; b++) {
                int o2 = 3 * b;
                double cjx = column[o2], cjy = column[o2 + 1], cjz = column[o2 + 2];
                double wjx = omega[o2], wjy = omega[o2 + 1], wjz = omega[o2 + 2];
                double value;
                if (moves(a, b)) {
                    value = cjx * ax + cjy * ay + cjz * az + wjx * bx + wjy * by + wjz * bz;
                } else {
                    // F · (ω_j × c_k)
                    value = fx * (wjy * ckz - wjz * cky) + fy * (wjz * ckx - wjx * ckz) + fz * (wjx * cky - wjy * ckx);
                }
                if (turning) {
                    // c_j · (ω_k × F) + ω_j · (ω_k × N) = −c_j · (F × ω_k) − ω_j · (N × ω_k)
                    value -= cjx * ax + cjy * ay + cjz * az + wjx * bx + wjy * by + wjz * bz;
                }
                out[dofs[b] * nv + k] += scale * value;
            }
        }
    }

    /**
     * Adds {@code scale} ∂/∂q of the velocity of the world point p fixed in the body, plus ω × r for the world vector
     * r held fixed (null for none: a sphere's contact point p + r, r = −radius n, moves as its centre p and the body's
     * rotation), to {@code out} (3 x nv, row-major, rows x, y, z), at velocities v.
     */
    public void addPointVelocityDerivative(double[] p, double[] r, double[] v, double scale, double[] out) {
        columns(p);
        double rx = r == null ? 0 : r[0], ry = r == null ? 0 : r[1], rz = r == null ? 0 : r[2];
        for (int a = 0; a < count; a++) {
            double mx = 0, my = 0, mz = 0; // Σ_{j moved by k} v_j c_j
            double sx = 0, sy = 0, sz = 0; // Σ_{j moved by k} v_j ω_j
            double ux = 0, uy = 0, uz = 0; // Σ_{j not moved by k} v_j ω_j
            for (int b = 0; b < count; b++) {
                double vj = v[dofs[b]];
                if (vj == 0) {
                    continue;
                }
                int o2 = 3 * b;
                if (moves(a, b)) {
                    mx += vj * column[o2];
                    my += vj * column[o2 + 1];
                    mz += vj * column[o2 + 2];
                    sx += vj * omega[o2];
                    sy += vj * omega[o2 + 1];
                    sz += vj * omega[o2 + 2];
                } else {
                    ux += vj * omega[o2];
                    uy += vj * omega[o2 + 1];
                    uz += vj * omega[o2 + 2];
                }
            }
            int o = 3 * a;
            double wkx = omega[o], wky = omega[o + 1], wkz = omega[o + 2];
            double ckx = column[o], cky = column[o + 1], ckz = column[o + 2];
            // ∂ω/∂q_k = ω_k × s, and (∂ω/∂q_k) × r
            double dwx = wky * sz - wkz * sy, dwy = wkz * sx - wkx * sz, dwz = wkx * sy - wky * sx;
            double dx = wky * mz - wkz * my + uy * ckz - uz * cky + dwy * rz - dwz * ry;
            double dy = wkz * mx - wkx * mz + uz * ckx - ux * ckz + dwz * rx - dwx * rz;
            double dz = wkx * my - wky * mx + ux * cky - uy * ckx + dwx * ry - dwy * rx;
            int k = dofs[a];
            out[k] += scale * dx;
            out[nv + k] += scale * dy;
            out[2 * nv + k] += scale * dz;
        }
    }

    /**
     * Adds {@code scale} c_k(p) + ω_k × r (the velocity Jacobian of the world point p fixed in the body, moved by the
     * world vector r) to {@code out} (3 x nv, row-major).
     */
    public void addPointJacobian(double[] p, double[] r, double scale, double[] out) {
        columns(p);
        double rx = r == null ? 0 : r[0], ry = r == null ? 0 : r[1], rz = r == null ? 0 : r[2];
        for (int a = 0; a < count; a++) {
            int o = 3 * a;
            int k = dofs[a];
            double wx = omega[o], wy = omega[o + 1], wz = omega[o + 2];
            out[k] += scale * (column[o] + wy * rz - wz * ry);
            out[nv + k] += scale * (column[o + 1] + wz * rx - wx * rz);
            out[2 * nv + k] += scale * (column[o + 2] + wx * ry - wy * rx);
        }
    }

    /** Adds {@code scale} ω_k (the body's world angular Jacobian) to {@code out} (3 x nv, row-major). */
    public void addAngularJacobian(double scale, double[] out) {
        for (int a = 0; a < count; a++) {
            int k = dofs[a];
            out[k] += scale * omega[3 * a];
            out[nv + k] += scale * omega[3 * a + 1];
            out[2 * nv + k] += scale * omega[3 * a + 2];
        }
    }

    /** The body's world angular velocity Σ_k ω_k v_k into {@code out} (3). */
    public void angularVelocity(double[] v, double[] out) {
        double x = 0, y = 0, z = 0;
        for (int a = 0; a < count; a++) {
            double vk = v[dofs[a]];
            x += omega[3 * a] * vk;
            y += omega[3 * a + 1] * vk;
            z += omega[3 * a + 2] * vk;
        }
        out[0] = x;
        out[1] = y;
        out[2] = z;
    }
}
