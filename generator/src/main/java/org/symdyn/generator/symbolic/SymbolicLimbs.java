package org.symdyn.generator.symbolic;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.generator.symbolic.SymbolicInput.Kind;
import org.symdyn.model.Body;
import org.symdyn.model.BodySpec;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelBuilder;
import org.symdyn.model.ModelException;

/**
 * Twin limbs: subtrees of the same shape (a humanoid's legs and arms, a quadruped's four legs) whose inverse
 * dynamics can run one piece of code, called once per limb with that limb's numbers. Why: a large model's generated
 * methods run at the speed of their machine code, several times the processor's instruction cache (romeo_small's
 * bias forces: 72 KB), and twin limbs repeat the same code with other constants.
 *
 * <p>A limb is derived alone, as a model of its own ({@link #limbModel}) whose root body hangs from a parent that
 * moves: the parent's spatial velocity and acceleration are inputs ({@link Kind#PARENT_MOTION}), and so are the
 * model's numbers ({@link ExpressionGraph#withConstantsAsInputs}). Its code computes the RNEA over the limb:
 * τ of its joints and the force f = X_rootᵀ f_root it transmits to the parent, in parent coordinates. The caller
 * adds f to the parent's force; the sum over the tree is the same as the whole model's RNEA. Its forward dynamics
 * ({@link #deriveForward}, used only on request) is the articulated-body algorithm in two parts: the passes to the
 * root, which give the parent the limb's articulated inertia and bias force, and the last pass, from the parent's δa.
 *
 * <p>Which limbs share code is decided here only by shape ({@link #twins}); whether two twins' code is the same is
 * decided by the emitted code itself (a mirrored axis, -1 against 1, or a zero in one twin only, makes it differ).
 */
public final class SymbolicLimbs {
    /**
     * Fewest degrees of freedom of a limb worth a call: smaller subtrees (a gripper's fingers) are cheaper
     * unrolled in their caller than passed through a call.
     */
    public static final int MIN_DOF = 3;

    private SymbolicLimbs() {
    }

    /**
     * Groups of twin limbs, each a list of root bodies, largest limbs first: a body's subtree is a limb if it has
     * {@link #MIN_DOF} or more degrees of freedom, every joint in it is revolute, continuous or prismatic, and some
     * other subtree has the same shape (joint types and branching, in body order). Limbs never nest: a subtree
     * inside a limb is not considered. Empty when the model has parameters (their code reads the model's
     * parameter array).
     */
    public static List<List<Integer>> twins(Model model) {
        int nb = model.bodyCount();
        if (!model.parameters().isEmpty()) {
            return List.of();
        }
        List<List<Integer>> children = new ArrayList<>();
        for (int i = 0; i < nb; i++) {
            children.add(new ArrayList<>());
        }
        for (int i = 0; i < nb; i++) {
            int p = model.body(i).parentIndex();
            if (p >= 0) {
                children.get(p).add(i);
            }
        }
        String[] shape = new String[nb];
        int[] dof = new int[nb];
        for (int i = nb - 1; i >= 0; i--) {
            JointType type = model.body(i).joint().type();
            boolean simple = type == JointType.REVOLUTE || type == JointType.CONTINUOUS
                    || type == JointType.PRISMATIC;
            StringBuilder s = new StringBuilder(simple ? type.name() : "?");
            dof[i] = model.body(i).joint().nv();
            s.append('(');
            for (int c : children.get(i)) {
                s.append(shape[c]).append(',');
                dof[i] += dof[c];
            }
            shape[i] = s.append(')').toString();
        }
        Map<String, List<Integer>> byShape = new LinkedHashMap<>();
        for (int i = 0; i < nb; i++) {
            if (dof[i] >= MIN_DOF && !shape[i].contains("?")) {
                byShape.computeIfAbsent(shape[i], k -> new ArrayList<>()).add(i);
            }
        }
        // Largest limbs first, so that a limb is never inside a smaller one taken before (a subtree that contains
        // another has more degrees of freedom); ties in body order.
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < nb; i++) {
            order.add(i);
        }
        order.sort((a, b) -> dof[a] != dof[b] ? Integer.compare(dof[b], dof[a]) : Integer.compare(a, b));
        boolean[] root = new boolean[nb];
        List<List<Integer>> groups = new ArrayList<>();
        for (int i : order) {
            List<Integer> shaped = byShape.get(shape[i]);
            if (shaped == null || covered(model, root, i)) {
                continue;
            }
            // Twins of equal size never contain one another; those inside a larger limb taken before are left to it.
            List<Integer> group = new ArrayList<>();
            for (int r : shaped) {
                if (!covered(model, root, r)) {
                    group.add(r);
                }
            }
            if (group.size() >= 2) {
                groups.add(group);
                for (int r : group) {
                    root[r] = true;
                }
            }
        }
        return groups;
    }

    /** True if body i or one of its ancestors is marked. */
    private static boolean covered(Model model, boolean[] marked, int i) {
        for (int b = i; b >= 0; b = model.body(b).parentIndex()) {
            if (marked[b]) {
                return true;
            }
        }
        return false;
    }

    /** The bodies of the subtree rooted at {@code root}, in body order (parents first). */
    public static List<Integer> subtree(Model model, int root) {
        List<Integer> out = new ArrayList<>();
        boolean[] in = new boolean[model.bodyCount()];
        in[root] = true;
        out.add(root);
        for (int i = root + 1; i < model.bodyCount(); i++) {
            int p = model.body(i).parentIndex();
            if (p >= 0 && in[p]) {
                in[i] = true;
                out.add(i);
            }
        }
        return out;
    }

    /**
     * The limb at {@code root} as a model of its own: the same joints, placements, armatures and inertias (each axis
     * normalised again by the builder, which may change its last bit), its root body hanging from a fixed root link.
     * Its q and v
     * are the limb's entries of the whole model's, in the same order.
     *
     * @throws NotALimb if the builder refuses a link the whole model accepted: a body's merged inertia (a massless
     *                  link carrying a point mass) is checked as a moving link's own, which must be positive definite
     */
    public static Model limbModel(Model model, int root) {
        ModelBuilder b = Model.builder(model.name() + "$limb" + root).root("limb$parent");
        for (int i : subtree(model, root)) {
            Body body = model.body(i);
            String parent = i == root ? "limb$parent" : model.body(body.parentIndex()).name();
            b.addBody(BodySpec.builder(body.name(), parent, body.joint().name(), body.joint().type())
                    .axis(body.joint().axis()).placement(body.joint().placement())
                    .armature(body.joint().armature()).inertia(body.inertia()).build());
        }
        try {
            return b.build();
        } catch (ModelException | RuntimeException e) {
            throw new NotALimb("limb at body " + model.body(root).name() + " of " + model.name()
                    + " does not make a model of its own: " + e.getMessage(), e);
        }
    }

    /** A subtree that cannot be derived as a model of its own ({@link #limbModel}): it stays unrolled. */
    public static final class NotALimb extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotALimb(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The limb at a root as a model of its own, in a graph of its own whose numbers are inputs. */
    private record Alone(Model limb, ExpressionGraph g, SymbolicSpatial sp, SymbolicJoints joints,
            SymbolicInertias inertias, SymbolicRecursions rnea) {
        static Alone of(Model model, int root) {
            Model limb = limbModel(model, root);
            ExpressionGraph g = ExpressionGraph.withConstantsAsInputs();
            SymbolicSpatial sp = new SymbolicSpatial(g);
            SymbolicJoints joints = new SymbolicJoints(limb, g, sp);
            SymbolicInertias inertias = new SymbolicInertias(limb, g, sp);
            return new Alone(limb, g, sp, joints, inertias, new SymbolicRecursions(limb, g, sp, joints, inertias));
        }
    }

    /** Which inverse dynamics a limb's code computes: the inputs it has (the others are zero). */
    public enum Quantity {
        /** τ = RNEA(q, v, v̇): parent velocity, acceleration, q, v and v̇. */
        INVERSE_DYNAMICS(true, true),
        /** C = RNEA(q, v, 0): parent velocity and acceleration, q and v. */
        BIAS_FORCES(true, false),
        /** g = RNEA(q, 0, 0): parent acceleration (gravity) and q. */
        GRAVITY(false, false);

        final boolean velocities;
        final boolean accelerations;

        Quantity(boolean velocities, boolean accelerations) {
            this.velocities = velocities;
            this.accelerations = accelerations;
        }
    }

    /**
     * One limb derived alone.
     *
     * @param graph   the limb's graph, its numbers as {@link Kind#CONSTANT} inputs
     * @param model   the limb as a model ({@link #limbModel})
     * @param outputs f, the force on the parent (6, parent coordinates, angular first), then τ of the limb's joints
     */
    public record Limb(ExpressionGraph graph, Model model, IExpr[] outputs) {
    }

    /**
     * The RNEA of the limb at {@code root}, in a graph of its own.
     *
     * @param zeroParent which entries of the parent's motion are zero wherever the limb is called (gravity has no
     *                   angular part): they fold, as they would in the caller
     */
    public static Limb derive(Model model, int root, Quantity quantity, boolean[] zeroParent) {
        Alone a = Alone.of(model, root);
        Model limb = a.limb;
        ExpressionGraph g = a.g;
        SymbolicSpatial sp = a.sp;
        SymbolicRecursions rnea = a.rnea;
        IExpr[] parent = new IExpr[12];
        for (int k = 0; k < 12; k++) {
            parent[k] = zeroParent[k] ? org.matheclipse.core.expression.F.C0 : g.input(Kind.PARENT_MOTION, k);
        }
        IExpr[] vp = quantity.velocities ? java.util.Arrays.copyOfRange(parent, 0, 6) : sp.zeros(6);
        IExpr[] ap = java.util.Arrays.copyOfRange(parent, 6, 12);
        IExpr[] v = quantity.velocities ? g.inputs(Kind.V, limb.nv()) : sp.zeros(limb.nv());
        IExpr[] vdot = quantity.accelerations ? g.inputs(Kind.VDOT, limb.nv()) : sp.zeros(limb.nv());
        return new Limb(g, limb, rnea.limbInverseDynamics(vp, ap, v, vdot));
    }

    /**
     * A limb's forward dynamics derived alone, in two parts ({@link SymbolicArticulatedBody.LimbCalls}).
     *
     * @param graph      the limb's graph, its numbers as {@link Kind#CONSTANT} inputs
     * @param articulate the first part's results: the limb's articulated inertia seen from the parent (21, upper
     *                   triangle row by row) and bias force (6)
     * @param kept       what the first part leaves for the second, value k read there as {@link Kind#LIMB_STATE} k
     * @param accelerate the second part's results, q̈ of the limb's joints
     */
    public record ForwardLimb(ExpressionGraph graph, Model model, IExpr[] articulate, List<IExpr> kept,
            IExpr[] accelerate) {
    }

    /**
     * The articulated-body algorithm over the limb at {@code root}, in a graph of its own: the parent's velocity and
     * ā are {@link Kind#PARENT_MOTION} 0..11, its δa 12..17.
     *
     * @param zeroParent which of those 18 are zero wherever the limb is called
     */
    public static ForwardLimb deriveForward(Model model, int root, boolean[] zeroParent) {
        Alone a = Alone.of(model, root);
        Model limb = a.limb;
        ExpressionGraph g = a.g;
        SymbolicArticulatedBody aba = new SymbolicArticulatedBody(limb, g, a.sp, a.joints, a.inertias, a.rnea);
        IExpr[] parent = new IExpr[18];
        for (int k = 0; k < 18; k++) {
            parent[k] = zeroParent[k] ? org.matheclipse.core.expression.F.C0 : g.input(Kind.PARENT_MOTION, k);
        }
        KeptValues kept = new KeptValues(g, Kind.LIMB_STATE);
        SymbolicArticulatedBody.LimbParts parts = aba.limbForwardDynamics(java.util.Arrays.copyOfRange(parent, 0, 6),
                java.util.Arrays.copyOfRange(parent, 6, 12), java.util.Arrays.copyOfRange(parent, 12, 18),
                g.inputs(Kind.V, limb.nv()), g.inputs(Kind.TAU, limb.nv()), kept);
        return new ForwardLimb(g, limb, parts.articulate(), kept.values(), parts.accelerate());
    }

    /** The q and v indices in the whole model of the limb's q and v entries, by limb index. */
    public static int[][] indices(Model model, int root) {
        List<Integer> bodies = subtree(model, root);
        int[] q = new int[bodies.size()];
        int[] v = new int[bodies.size()];
        for (int k = 0; k < bodies.size(); k++) {
            q[k] = model.body(bodies.get(k)).joint().qIndex();
            v[k] = model.body(bodies.get(k)).joint().vIndex();
        }
        return new int[][] {q, v};
    }
}
