package org.symdyn.dynamics;

import java.util.ArrayList;
import java.util.List;

/**
 * Which dofs a tangent direction moves, the pair structure of the derivatives written in one inertial frame
 * ({@link InertialFrameDerivatives}, {@link MotionDerivatives#wrenchDerivative}). Along the contract's tangent
 * direction k of body j's joint, everything carried at or below k moves rigidly by the twist S_k, so a dof m is
 * <ul>
 * <li><b>moved by k</b> (its S_m turns: ∂S_m/∂q_k = S_k × S_m) when m belongs to a body strictly below j, or to j
 *     itself at or after k: all of j's dofs for a joint whose dofs all move the child together (floating, ball:
 *     their tangent directions are rotation vectors in child coordinates, right perturbations), the dofs from k on
 *     for a joint whose dofs are a chain (planar: x, y, θ);</li>
 * <li><b>above k</b> (S_m does not move, but what m carries does) when m belongs to a body strictly above j, or to a
 *     chain joint j before k;</li>
 * <li>on another branch otherwise, where every pair derivative is zero.</li>
 * </ul>
 * Not modified after construction; its arrays are handed to the classes that read them, not copied.
 */
final class DofPairs {
    /** Per body: whether its joint's dofs all move the child together (floating, ball). */
    final boolean[] together;
    /** Per body: the dofs of the bodies strictly below it, in increasing order. */
    final int[][] belowDofs;
    /** Per body: the dofs of the bodies strictly above it, nearest body first. */
    final int[][] aboveDofs;

    DofPairs(JointTransforms joints) {
        int nb = joints.nb;
        int[] parent = joints.parent;
        together = new boolean[nb];
        belowDofs = new int[nb][];
        aboveDofs = new int[nb][];
        for (int i = 0; i < nb; i++) {
            together[i] = joints.kind[i] == JointTransforms.FLOATING || joints.kind[i] == JointTransforms.BALL;
            List<Integer> above = new ArrayList<>();
            for (int a = parent[i]; a >= 0; a = parent[a]) {
                for (int d = 0; d < joints.dofs[a]; d++) {
                    above.add(joints.vIndex[a] + d);
                }
            }
            aboveDofs[i] = above.stream().mapToInt(Integer::intValue).toArray();
        }
        for (int i = 0; i < nb; i++) {
            List<Integer> below = new ArrayList<>();
            for (int b = i + 1; b < nb; b++) {
                if (isBelow(parent, b, i)) {
                    for (int d = 0; d < joints.dofs[b]; d++) {
                        below.add(joints.vIndex[b] + d);
                    }
                }
            }
            belowDofs[i] = below.stream().mapToInt(Integer::intValue).toArray();
        }
    }

    /** The first of body j's own dofs that its dof index d moves: 0 for a joint moving its child together, else d. */
    int firstMoved(int j, int d) {
        return together[j] ? 0 : d;
    }

    /** True if body b is a strict descendant of body a. */
    private static boolean isBelow(int[] parent, int b, int a) {
        for (int i = parent[b]; i >= 0; i = parent[i]) {
            if (i == a) {
                return true;
            }
        }
        return false;
    }
}
