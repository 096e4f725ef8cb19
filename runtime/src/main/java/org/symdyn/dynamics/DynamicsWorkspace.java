package org.symdyn.dynamics;

import org.symdyn.model.Model;

/**
 * What the generic recursions write, for one instance: the per-instance half of the model/data split (Pinocchio's
 * {@code Data}; the model's numbers are {@link FlatModel}). Every array is allocated by the constructor and
 * overwritten in place, so no algorithm allocates.
 * <ul>
 * <li>{@link #joints}: the joint models X_i, X_0,i, S_i, v_J, c_J of the last q (and v);</li>
 * <li>{@link #vel}, {@link #acc}: per body (6 each, body coordinates, [angular; linear]) v_i and a_i of the last
 * motion pass ({@link ForwardKinematics#motionPass}), a_i with a_0 = -g when that pass had gravity;</li>
 * <li>{@link #force}: per body (6 each) f_i of the last RNEA, after its backward pass the composite f^c_i;</li>
 * <li>{@link #compMass}, {@link #compH}, {@link #compI}: the composite inertias of the last CRBA, compact form;</li>
 * <li>the state-scope memo of the velocity pass ({@link ForwardKinematics#biasMotion}).</li>
 * </ul>
 * Not thread-safe: one per instance of the interpreter.
 */
final class DynamicsWorkspace {
    final JointTransforms joints;
    final int nb;
    final int nq;
    final int nv;
    final double[] vel;
    final double[] acc;
    final double[] force;
    final double[] compMass;
    final double[] compH;
    final double[] compI;
    /** nv zeros (never written): v̇ = 0 or v = 0 of the passes that need none. */
    final double[] zeroV;
    final double[] t6a = new double[6];
    final double[] t6b = new double[6];
    final double[] t6c = new double[6];
    final double[] t9 = new double[9];
    /** State scope on: the v of the last velocity pass at v̇ = 0 without gravity, and whether it is current. */
    boolean reuse;
    final double[] biasMotionV;
    boolean biasMotionCurrent;

    /** The joint models and every workspace for {@code model}. */
    DynamicsWorkspace(Model model) {
        joints = new JointTransforms(model);
        nb = joints.nb;
        nq = joints.nq;
        nv = joints.nv;
        vel = new double[6 * nb];
        acc = new double[6 * nb];
        force = new double[6 * nb];
        compMass = new double[nb];
        compH = new double[3 * nb];
        compI = new double[9 * nb];
        zeroV = new double[nv];
        biasMotionV = new double[nv];
    }

    /**
     * Turns the reuse of the kinematics of an equal state on or off ({@link StateScope}); either way forgets what
     * was kept.
     */
    void reuseKinematics(boolean on) {
        reuse = on;
        joints.memoize(on);
        biasMotionCurrent = false;
    }
}
