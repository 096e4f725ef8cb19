package org.symdyn.generator.symbolic;

import java.util.List;
import org.matheclipse.core.expression.F;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.generator.symbolic.SymbolicInput.Kind;
import org.symdyn.model.Frame;
import org.symdyn.model.Model;
import org.symdyn.spatial.Pose;

/**
 * Forward kinematics over symbolic values: the twin of the kinematics of the runtime's {@code GenericDynamics}, with
 * the conventions of {@link org.symdyn.contract.Kinematics}.
 * <ul>
 * <li>World transforms X_0,i = X_i X_0,λ(i) = (E, r): E rotates world coordinates into body i's, r is the body
 * origin in world coordinates; so body i's pose is R = Eᵀ, position r.</li>
 * <li>Body velocities and spatial accelerations ([angular; linear], body coordinates) from the motion pass without
 * gravity ({@link SymbolicRecursions#motion}); with v̇ = 0 the acceleration is the bias part.</li>
 * <li>A point p fixed in body i (body coordinates; {@link Kind#POINT} symbols when given at run time): position
 * r + Eᵀ p, velocity Eᵀ (v_o + ω × p), classical acceleration Eᵀ (a_o + ω̇ × p + ω × (v_o + ω × p)), where
 * a_o is the linear part of the spatial acceleration (the classical origin acceleration minus ω × v_o).</li>
 * <li>Body Jacobian columns X_i&lt;-b S_b for every dof of an ancestor b (b = i included), carried down the
 * branch one transform at a time (so a column is shared by every body below b); zero outside the support. Point
 * Jacobian columns Eᵀ (J_lin + J_ang × p).</li>
 * </ul>
 * The motion passes and transforms are derived once and shared by every quantity (and by the constraints).
 */
public final class SymbolicKinematics {
    private final Model model;
    private final ExpressionGraph g;
    private final SymbolicSpatial sp;
    private final SymbolicJoints joints;
    private final SymbolicRecursions recursions;
    private final int nv;
    private final SymbolicSpatial.Transform[] world;
    /** Per body: its body Jacobian's columns (6-vectors, body coordinates), null outside the support. */
    private final IExpr[][][] jacobianColumns;
    private SymbolicMotion velocities;
    private SymbolicMotion accelerations;

    SymbolicKinematics(Model model, ExpressionGraph g, SymbolicSpatial sp, SymbolicJoints joints,
            SymbolicRecursions recursions) {
        this.model = model;
        this.g = g;
        this.sp = sp;
        this.joints = joints;
        this.recursions = recursions;
        this.nv = model.nv();
        this.world = new SymbolicSpatial.Transform[model.bodyCount()];
        this.jacobianColumns = new IExpr[model.bodyCount()][][];
    }

    /** X_0,i from the world to body i. */
    SymbolicSpatial.Transform worldTransform(int body) {
        if (world[body] == null) {
            int p = model.body(body).parentIndex();
            SymbolicSpatial.Transform up = joints.parentToChild(body);
            world[body] = p < 0 ? up : sp.compose(up, worldTransform(p));
        }
        return world[body];
    }

    /** The symbols of a point given at run time ({@code point[0..2]}, body coordinates). */
    public IExpr[] point() {
        return g.inputs(Kind.POINT, 3);
    }

    /** The velocities (and bias accelerations, v̇ = 0) of every body, gravity excluded. */
    SymbolicMotion velocities() {
        if (velocities == null) {
            velocities = recursions.motion(g.inputs(Kind.V, nv), sp.zeros(nv), false);
        }
        return velocities;
    }

    /** The velocities and accelerations of every body for symbolic v and v̇, gravity excluded. */
    private SymbolicMotion accelerations() {
        if (accelerations == null) {
            accelerations = recursions.motion(g.inputs(Kind.V, nv), g.inputs(Kind.VDOT, nv), false);
        }
        return accelerations;
    }

    // ------------------------------------------------------------------ poses

    /** The world pose of a named frame of the model. */
    public SymbolicPose framePose(Frame frame) {
        return framePose(frame.bodyIndex(), frame.pose());
    }

    /** The world pose of a frame fixed in a body (-1: the world): R = Eᵀ R_f, o = r + Eᵀ p_f. */
    SymbolicPose framePose(int body, Pose frame) {
        IExpr[] rf = new IExpr[9];
        IExpr[] pf = new IExpr[3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                rf[3 * i + j] = g.constant(frame.rotation(i, j));
            }
            pf[i] = g.constant(frame.translation(i));
        }
        if (body < 0) {
            return new SymbolicPose(rf, pf);
        }
        SymbolicSpatial.Transform x = worldTransform(body);
        IExpr[] r = new IExpr[9];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                r[3 * i + j] = g.sum(g.mul(x.e[i], rf[j]), g.mul(x.e[3 + i], rf[3 + j]), g.mul(x.e[6 + i], rf[6 + j]));
            }
        }
        return new SymbolicPose(r, sp.add3(x.r, sp.rotateTranspose(x.e, pf)));
    }

    /** Body i's pose: R = Eᵀ, position r. */
    public SymbolicPose bodyPose(int body) {
        SymbolicSpatial.Transform x = worldTransform(body);
        IExpr[] r = new IExpr[9];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                r[3 * i + j] = x.e[3 * j + i];
            }
        }
        return new SymbolicPose(r, x.r.clone());
    }

    // ------------------------------------------------------------------ body motion

    /** Body i's spatial velocity [ω; v_origin], body coordinates. */
    public IExpr[] bodyVelocity(int body) {
        return velocities().velocity()[body];
    }

    /** Body i's spatial acceleration for symbolic v̇ (gravity excluded), body coordinates. */
    public IExpr[] bodyAcceleration(int body) {
        return accelerations().acceleration()[body];
    }

    /** Body i's bias acceleration (its spatial acceleration at v̇ = 0, gravity excluded), body coordinates. */
    public IExpr[] bodyBiasAcceleration(int body) {
        return velocities().acceleration()[body];
    }

    /**
     * The motion subspace columns of body i's joint in world coordinates at the world origin, [E_iᵀ s_ω;
     * E_iᵀ s_v + r_i × E_iᵀ s_ω] per dof: a point Jacobian's column is v + ω × p_world, a body Jacobian's is the
     * body's own transform of it.
     */
    public IExpr[][] worldSubspace(int body) {
        SymbolicSpatial.Transform x = worldTransform(body);
        List<IExpr[]> s = joints.subspace(body);
        IExpr[][] out = new IExpr[s.size()][];
        for (int d = 0; d < s.size(); d++) {
            out[d] = sp.applyInverseMotion(x, s.get(d));
        }
        return out;
    }

    // ------------------------------------------------------------------ points

    /** World position r + Eᵀ p of the point p of body i. */
    public IExpr[] pointPosition(int body, IExpr[] p) {
        SymbolicSpatial.Transform x = worldTransform(body);
        return sp.add3(x.r, sp.rotateTranspose(x.e, p));
    }

    /** World velocity Eᵀ (v_o + ω × p) of the point p of body i (0 for the world, body -1). */
    public IExpr[] pointVelocity(int body, IExpr[] p) {
        if (body < 0) {
            return sp.zeros(3);
        }
        IExpr[] vel = bodyVelocity(body);
        IExpr[] local = sp.add3(SymbolicSpatial.linear(vel), sp.cross(SymbolicSpatial.angular(vel), p));
        return sp.rotateTranspose(worldTransform(body).e, local);
    }

    /** World angular velocity Eᵀ ω of body i (0 for the world, body -1). */
    IExpr[] angularVelocity(int body) {
        if (body < 0) {
            return sp.zeros(3);
        }
        return sp.rotateTranspose(worldTransform(body).e, SymbolicSpatial.angular(bodyVelocity(body)));
    }

    /** World angular acceleration Eᵀ ω̇ of body i at v̇ = 0, gravity excluded (0 for the world, body -1). */
    IExpr[] angularBiasAcceleration(int body) {
        if (body < 0) {
            return sp.zeros(3);
        }
        return sp.rotateTranspose(worldTransform(body).e, SymbolicSpatial.angular(bodyBiasAcceleration(body)));
    }

    /** World classical acceleration of the point p of body i for symbolic v̇ (gravity excluded). */
    public IExpr[] pointAcceleration(int body, IExpr[] p) {
        return classicalAcceleration(body, p, accelerations());
    }

    /** The bias acceleration J̇ v of the point p of body i: its classical acceleration at v̇ = 0 (0 for the world). */
    public IExpr[] pointBiasAcceleration(int body, IExpr[] p) {
        if (body < 0) {
            return sp.zeros(3);
        }
        return classicalAcceleration(body, p, velocities());
    }

    /** Eᵀ (a_o + ω̇ × p + ω × (v_o + ω × p)) from a motion pass. */
    private IExpr[] classicalAcceleration(int body, IExpr[] p, SymbolicMotion motion) {
        IExpr[] vel = motion.velocity()[body];
        IExpr[] acc = motion.acceleration()[body];
        IExpr[] w = SymbolicSpatial.angular(vel);
        IExpr[] vp = sp.add3(SymbolicSpatial.linear(vel), sp.cross(w, p));
        IExpr[] local = sp.add3(sp.add3(SymbolicSpatial.linear(acc), sp.cross(SymbolicSpatial.angular(acc), p)),
                sp.cross(w, vp));
        return sp.rotateTranspose(worldTransform(body).e, local);
    }

    /**
     * World velocity E_bᵀ v_o + (E_bᵀ ω) × (a - r_b) of the material point of body b that is at the world point a
     * (0 for the world, body -1).
     */
    IExpr[] materialPointVelocity(int body, IExpr[] at) {
        if (body < 0) {
            return sp.zeros(3);
        }
        SymbolicSpatial.Transform x = worldTransform(body);
        IExpr[] vel = bodyVelocity(body);
        IExpr[] w = sp.rotateTranspose(x.e, SymbolicSpatial.angular(vel));
        IExpr[] vo = sp.rotateTranspose(x.e, SymbolicSpatial.linear(vel));
        return sp.add3(vo, sp.cross(w, sp.sub3(at, x.r)));
    }

    // ------------------------------------------------------------------ Jacobians

    /** Body i's Jacobian columns X_i&lt;-b S_b (6 entries), null for dofs outside the support. */
    private IExpr[][] jacobianColumns(int body) {
        if (jacobianColumns[body] == null) {
            IExpr[][] cols = new IExpr[nv][];
            int p = model.body(body).parentIndex();
            if (p >= 0) {
                IExpr[][] up = jacobianColumns(p);
                for (int k = 0; k < nv; k++) {
                    if (up[k] != null) {
                        cols[k] = joints.parentToChild(body, up[k]);
                    }
                }
            }
            int vi = model.body(body).joint().vIndex();
            List<IExpr[]> s = joints.subspace(body);
            for (int d = 0; d < s.size(); d++) {
                cols[vi + d] = s.get(d);
            }
            jacobianColumns[body] = cols;
        }
        return jacobianColumns[body];
    }

    /** Body i's Jacobian columns X_i&lt;-b S_b (6 entries, body coordinates), null for dofs outside the support. */
    IExpr[][] bodyJacobianColumns(int body) {
        return jacobianColumns(body);
    }

    /** The 6 x nv body Jacobian of body i ([ω; v_origin] = J v, body coordinates), zeros written out. */
    public IExpr[][] bodyJacobian(int body) {
        IExpr[][] cols = jacobianColumns(body);
        IExpr[][] j = new IExpr[6][nv];
        for (int k = 0; k < nv; k++) {
            for (int r = 0; r < 6; r++) {
                j[r][k] = cols[k] == null ? F.C0 : cols[k][r];
            }
        }
        return j;
    }

    /**
     * The 3 x nv Jacobian of the point p of body i (ṗ_world = J v), zeros written out. Built in world coordinates:
     * the column of dof k of an ancestor joint (body a, motion subspace column S = [s_ω; s_v] in a's coordinates) is
     * E_aᵀ s_v + (E_aᵀ s_ω) × (p_world - r_a), so each column costs one rotation of S and one cross product on the
     * world poses the point position needs anyway. (Propagating the body Jacobian's columns down the chain and
     * rotating them at the end, as {@link #bodyJacobian} does, cost iiwa14's flange 4.2x the generic point Jacobian's
     * speed instead of the 5x asked; see the commit that introduced this.)
     */
    public IExpr[][] pointJacobian(int body, IExpr[] p) {
        IExpr[][] j = new IExpr[3][nv];
        for (IExpr[] row : j) {
            java.util.Arrays.fill(row, F.C0);
        }
        if (body < 0) {
            return j;
        }
        IExpr[] pw = pointPosition(body, p);
        for (int a = body; a >= 0; a = model.body(a).parentIndex()) {
            SymbolicSpatial.Transform x = worldTransform(a);
            IExpr[] arm = sp.sub3(pw, x.r);
            List<IExpr[]> s = joints.subspace(a);
            int vi = model.body(a).joint().vIndex();
            for (int d = 0; d < s.size(); d++) {
                IExpr[] w = sp.rotateTranspose(x.e, SymbolicSpatial.angular(s.get(d)));
                IExpr[] vo = sp.rotateTranspose(x.e, SymbolicSpatial.linear(s.get(d)));
                IExpr[] col = sp.add3(vo, sp.cross(w, arm));
                for (int r = 0; r < 3; r++) {
                    j[r][vi + d] = col[r];
                }
            }
        }
        return j;
    }

    /**
     * The 3 x nv world angular Jacobian of body i (ω_world = J v), zeros written out (all zeros for the world, body
     * -1): the column of dof k of an ancestor joint (body a) is E_aᵀ s_ω, the rotation {@link #pointJacobian} makes.
     */
    IExpr[][] angularJacobian(int body) {
        IExpr[][] j = new IExpr[3][nv];
        for (IExpr[] row : j) {
            java.util.Arrays.fill(row, F.C0);
        }
        for (int a = body; a >= 0; a = model.body(a).parentIndex()) {
            SymbolicSpatial.Transform x = worldTransform(a);
            List<IExpr[]> s = joints.subspace(a);
            int vi = model.body(a).joint().vIndex();
            for (int d = 0; d < s.size(); d++) {
                IExpr[] w = sp.rotateTranspose(x.e, SymbolicSpatial.angular(s.get(d)));
                for (int r = 0; r < 3; r++) {
                    j[r][vi + d] = w[r];
                }
            }
        }
        return j;
    }
}
