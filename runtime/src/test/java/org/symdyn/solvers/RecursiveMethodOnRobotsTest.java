package org.symdyn.solvers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintGroup;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.SolverSettings.RankPolicy;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.spatial.Pose;
import org.symdyn.testing.SharedFiles;

/**
 * The recursive method ({@link ConstraintSolverMethod#RECURSIVE}: no H, K = G H⁻¹ Gᵀ from the articulated-body
 * inertias) against the direct one on the shared robots (quadrupeds and a humanoid on a floating base, four fixed
 * arms), each as its file gives it and with an armature on every joint: constraint sets of contact rows at several
 * bodies' points (three world directions per point), 6D loops between two bodies and to the world at frames off the
 * bodies' origins, couplers, and the model's own constraints (the panda's finger mimic), with Baumgarte terms
 * switched on group by group. Independent of the mechanisms the method was developed on ({@link FastPathTest}).
 *
 * <p>Per random state (q uniform in [-1, 1] with unit quaternions, v in [-2, 2], τ in [-10, 10]): v̇ and λ of the
 * recursive method within 1e-12 of the exact solution of the saddle-point system ({@link FastPathTest#refinedKkt})
 * and of the direct method's, relative to their largest entry; the latter plus the direct method's own error, which
 * exceeds 1e-12 on a few nearly singular states (an iiwa14 held to the world in 6D near its stretched configuration:
 * 4e-12, where the recursive method is within 1e-13; those states are printed). Impulses (targets 0 or random)
 * likewise, v⁺ relative to max(|v⁻|, |v⁺|) (the impact can stop most of the motion).
 * Dependent rows (a contact row given twice; four points of one rigid body, 12 rows of rank 6): the same
 * exception as the direct method's under the FAIL policy, and the same answer under DROP_DEPENDENT_ROWS.
 */
class RecursiveMethodOnRobotsTest {
    private static final double TOL = 1e-12;
    private static final int STATES = 100;
    private static final double[][] XYZ = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    /** Contact points off the bodies' origins (m, body coordinates). */
    private static final double[][] POINTS = {{0.03, -0.02, -0.05}, {-0.01, 0.04, 0.02}, {0.02, 0.01, -0.03},
        {-0.03, -0.01, 0.01}, {0.015, 0.025, -0.02}};

    /** A shared model file and whether it is read with a floating base. */
    record Robot(String file, boolean floating) {
        @Override
        public String toString() {
            return file.replace(".urdf", "") + (floating ? " (floating)" : " (fixed)");
        }
    }

    static Stream<Robot> robots() {
        return Stream.of(new Robot("anymal.urdf", true), new Robot("hyq_no_sensors.urdf", true),
                new Robot("solo12.urdf", true), new Robot("romeo_small.urdf", true), new Robot("panda.urdf", false),
                new Robot("iiwa14_no_collision.urdf", false), new Robot("ur5_robot.urdf", false),
                new Robot("kinova.urdf", false));
    }

    // ------------------------------------------------------------------ models

    /** The robot as its file gives it, or with an armature on every moving joint (0.02 to 0.1 kg m² or kg). */
    static Model load(Robot robot, boolean armature) throws Exception {
        Path path = SharedFiles.model(robot.file());
        String xml = Files.readString(path);
        if (armature) {
            xml = withArmature(xml);
        }
        Model model = UrdfReader.parse(xml, path.toString(), new UrdfReader.Options(robot.floating(), false));
        if (armature) {
            for (var body : model.bodies()) {
                if (body.joint().type().isSingleDof()) {
                    assertTrue(body.joint().armature() > 0, robot + ": joint " + body.joint().name());
                }
            }
        }
        return model;
    }

    private static final Pattern MOVING_JOINT = Pattern.compile(
            "(<joint\\b[^>]*\\btype=\"(?:revolute|continuous|prismatic)\"[^>]*(?<!/)>)(.*?)(</joint>)",
            Pattern.DOTALL);

    /** The URDF text with {@code symdyn:armature} on every moving joint's {@code <dynamics>} (added if absent). */
    static String withArmature(String xml) {
        Matcher m = MOVING_JOINT.matcher(xml);
        StringBuilder out = new StringBuilder();
        int k = 0;
        while (m.find()) {
            String armature = "symdyn:armature=\"" + 0.02 * (1 + k++ % 5) + "\"";
            String body = m.group(2);
            body = body.contains("<dynamics") ? body.replaceFirst("<dynamics", "<dynamics " + armature)
                    : body + "<dynamics " + armature + "/>";
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(1) + body + m.group(3)));
        }
        m.appendTail(out);
        assertTrue(k > 0, "no moving joint found");
        return out.toString().replaceFirst("<robot\\b", "<robot xmlns:symdyn=\"urn:symdyn:1\"");
    }

    /** Bodies without children, in index order. */
    private static List<Integer> leaves(Model model) {
        boolean[] hasChild = new boolean[model.bodyCount()];
        for (var body : model.bodies()) {
            if (body.parentIndex() >= 0) {
                hasChild[body.parentIndex()] = true;
            }
        }
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < hasChild.length; i++) {
            if (!hasChild[i]) {
                out.add(i);
            }
        }
        return out;
    }

    /** The parent of a body, or the body itself when its parent is the world or the floating base. */
    private static int up(Model model, int body) {
        int p = model.body(body).parentIndex();
        return p < 0 || model.body(p).joint().type() == JointType.FLOATING ? body : p;
    }

    private static void contactTriple(ConstraintSet.Builder b, int body, double[] point, double[][] normals) {
        for (double[] n : normals) {
            b.addContact(body, point, n);
        }
    }

    /** An orthonormal triple of world directions, tilted off the axes. */
    private static double[][] tilted() {
        double c = Math.cos(0.4);
        double s = Math.sin(0.4);
        return new double[][] {{c, s, 0}, {-s * 0.6, c * 0.6, 0.8}, {s * 0.8, -c * 0.8, 0.6}};
    }

    private static List<double[]> axes6() {
        List<double[]> axes = new ArrayList<>();
        for (int k = 0; k < 6; k++) {
            double[] a = new double[6];
            a[k] = 1;
            axes.add(a);
        }
        return axes;
    }

    /** A loop frame off the body's origin. */
    private static Pose frame(double a, double b) {
        return Pose.fromXyzRpy(new double[] {0.02 * a, -0.03 * b, 0.05}, new double[] {0.3 * a, -0.2, 0.5 * b});
    }

    /** The constraint sets of one robot: name and description. */
    record Case(String name, ConstraintSet set) {
    }

    static List<Case> cases(Model model, boolean floating) {
        List<Integer> leaves = leaves(model);
        int l0 = leaves.get(0);
        List<Integer> single = new ArrayList<>();
        for (var body : model.bodies()) {
            if (body.joint().type().isSingleDof()) {
                single.add(body.index());
            }
        }
        List<Case> out = new ArrayList<>();
        double t = ConstraintGroup.DEFAULT_TIME_CONSTANT;
        if (floating) {
            assertTrue(leaves.size() >= 4, model.name() + " leaves " + leaves);
            int l1 = leaves.get(1);
            int l2 = leaves.get(2);
            int l3 = leaves.get(3);
            // Four feet (or head, feet, hand) and a knee: 15 rows.
            ConstraintSet.Builder contacts = ConstraintSet.builder(model);
            for (int k = 0; k < 4; k++) {
                contactTriple(contacts, leaves.get(k), POINTS[k], XYZ);
            }
            contactTriple(contacts, up(model, l0), POINTS[4], XYZ);
            out.add(new Case("contacts", contacts.build()));
            // Two limbs' ends held to each other, a third to the world: 12 rows.
            ConstraintSet.Builder loops = ConstraintSet.builder(model);
            loops.addLoop(l0, frame(1, 1), l1, frame(-1, 2), axes6(), false, t, "between", ConstraintSet.NO_ID);
            loops.addLoop(-1, frame(2, -1), l2, frame(1, -1), axes6(), false, t, "to_world", ConstraintSet.NO_ID);
            out.add(new Case("loops", loops.build()));
            // Couplers within a limb and across limbs, two feet on the ground: 8 rows.
            ConstraintSet.Builder couplers = ConstraintSet.builder(model);
            couplers.addCoupler(l0, up(model, l0), 0.7, 0.1, "within", ConstraintSet.NO_ID);
            couplers.addCoupler(l1, l3, -1.3, -0.2, "across", ConstraintSet.NO_ID);
            contactTriple(couplers, l2, POINTS[2], XYZ);
            contactTriple(couplers, l3, POINTS[3], XYZ);
            out.add(new Case("couplers", couplers.build()));
            // A tilted contact triple, a 3-axis loop between two limbs, a 3-axis pin of a knee, a coupler: 10 rows.
            ConstraintSet.Builder mixed = ConstraintSet.builder(model);
            contactTriple(mixed, l0, POINTS[0], tilted());
            mixed.addLoop(l1, frame(1, -2), l2, frame(-2, 1), List.of(new double[] {1, 0, 0, 0, 0, 0},
                    new double[] {0, 0, 0, 0, 1, 0}, new double[] {0, 0.6, 0, 0.8, 0, 0}), false, t, "partial",
                    ConstraintSet.NO_ID);
            mixed.addLoop(-1, Pose.translation(0.1, 0.2, 0.3), up(model, l3), frame(1, 1),
                    List.of(new double[] {0, 0, 0, 1, 0, 0}, new double[] {0, 0, 0, 0, 1, 0},
                        new double[] {0, 0, 0, 0, 0, 1}), true, 0.05, "pin", ConstraintSet.NO_ID);
            mixed.addCoupler(l3, up(model, l1), 0.5, 0, "mixed_coupler", ConstraintSet.NO_ID);
            out.add(new Case("mixed", mixed.build()));
        } else {
            int mid = up(model, up(model, l0));
            // The end and a body two joints above it: 6 rows (and the model's own rows).
            ConstraintSet.Builder contacts = ConstraintSet.builder(model);
            contactTriple(contacts, l0, POINTS[0], XYZ);
            contactTriple(contacts, mid, POINTS[1], XYZ);
            out.add(new Case("contacts", contacts.build()));
            // The end held to the world in 6D.
            ConstraintSet.Builder loops = ConstraintSet.builder(model);
            loops.addLoop(-1, frame(2, -1), l0, frame(1, 1), axes6(), false, t, "to_world", ConstraintSet.NO_ID);
            out.add(new Case("loops", loops.build()));
            // Two couplers and the end on the ground: 5 rows.
            ConstraintSet.Builder couplers = ConstraintSet.builder(model);
            couplers.addCoupler(single.get(0), single.get(2), 0.5, 0.2, "first", ConstraintSet.NO_ID);
            couplers.addCoupler(single.get(3), single.get(1), -2, 0, "second", ConstraintSet.NO_ID);
            contactTriple(couplers, l0, POINTS[2], XYZ);
            out.add(new Case("couplers", couplers.build()));
            // A tilted contact triple above the end, a 2-axis loop of the end to the world: 5 rows.
            ConstraintSet.Builder mixed = ConstraintSet.builder(model);
            contactTriple(mixed, mid, POINTS[3], tilted());
            mixed.addLoop(-1, Pose.translation(0.4, 0.1, 0.5), l0, frame(-1, 2),
                    List.of(new double[] {0, 0, 1, 0, 0, 0}, new double[] {0, 0, 0, 0.6, 0.8, 0}), true, 0.05,
                    "partial", ConstraintSet.NO_ID);
            out.add(new Case("mixed", mixed.build()));
        }
        return out;
    }

    // ------------------------------------------------------------------ comparisons

    private static double rel(double[] expected, double[] actual) {
        return TestMechanisms.maxDiff(expected, actual) / Math.max(1e-300, TestMechanisms.maxAbs(expected));
    }

    /** v⁺ against v⁻'s scale as well as its own: an impact can stop most of the motion. */
    private static double relImpact(double[] expected, double[] actual, double[] vMinus) {
        return TestMechanisms.maxDiff(expected, actual)
                / Math.max(1e-300, Math.max(TestMechanisms.maxAbs(expected), TestMechanisms.maxAbs(vMinus)));
    }

    /** Worst numbers of one robot. */
    private static final class Worst {
        double fd;
        double impulse;
        double fdRecursiveExact;
        double fdDirectExact;
        double impulseRecursiveExact;
        double impulseDirectExact;
        int states;
        int fellBack;
        final List<String> failures = new ArrayList<>();
        /** States where the direct method is the one more than 1e-12 from the exact solution. */
        final List<String> directOff = new ArrayList<>();
    }

    /**
     * v̇, λ, v⁺ and Λ of the recursive method within 1e-12 of the direct method's on 100 random states of every
     * constraint set, without and with armature.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("robots")
    void recursiveEqualsDirect(Robot robot) throws Exception {
        Worst worst = new Worst();
        Random rnd = new Random(robot.file().hashCode());
        for (boolean armature : new boolean[] {false, true}) {
            Model model = load(robot, armature);
            for (Case c : cases(model, robot.floating())) {
                run(robot + (armature ? " armature " : " ") + c.name(), c.set().bindGeneric(), rnd, worst);
            }
        }
        System.out.printf(Locale.ROOT, "recursive vs direct, %-28s %4d states: FD %.2e, impulses %.2e;"
                + " vs exact: FD recursive %.2e direct %.2e, impulses recursive %.2e direct %.2e; fell back %d%n",
                robot, worst.states, worst.fd, worst.impulse, worst.fdRecursiveExact, worst.fdDirectExact,
                worst.impulseRecursiveExact, worst.impulseDirectExact, worst.fellBack);
        for (String s : worst.directOff) {
            System.out.println("  direct method off: " + s);
        }
        assertTrue(worst.failures.isEmpty(), String.join("\n", worst.failures));
    }

    private static void run(String what, ConstraintData set, Random rnd, Worst worst) {
        Model model = set.set().model();
        int nv = set.nv();
        int m = set.size();
        int groups = set.set().groupCount();
        ConstrainedDynamics fd = new ConstrainedDynamics(set);
        ImpulseSolver impulses = new ImpulseSolver(set);
        assertNotNull(fd.recursiveMethod(), what);
        assertNotNull(impulses.recursiveMethod(), what);
        double[] direct = new double[nv];
        double[] recursive = new double[nv];
        for (int n = 0; n < STATES; n++) {
            double[] q = TestMechanisms.randomQ(model, rnd);
            double[] v = TestMechanisms.random(nv, 2, rnd);
            double[] tau = TestMechanisms.random(nv, 10, rnd);
            if (n % 3 == 1) {
                set.enableBaumgarte(n / 3 % groups);
            } else if (n % 3 == 2) {
                for (int g = 0; g < groups; g++) {
                    set.enableBaumgarte(g);
                }
            }
            String state = what + " state " + n;

            fd.forwardDynamicsDirect(q, v, tau, direct);
            double[] lambdaDirect = set.force().clone();
            fd.forwardDynamicsRecursive(q, v, tau, recursive);
            double[] lambdaRecursive = set.force().clone();
            if (fd.recursiveMethod().lastFellBack()) {
                worst.fellBack++;
            }
            // The recursive method forms no H and overwrites the G and γ workspaces: recompute them.
            set.computeSystem(q, v);
            double[] a = new double[nv];
            for (int i = 0; i < nv; i++) {
                a[i] = tau[i] - set.C()[i];
            }
            double[] ref = FastPathTest.refinedKkt(set.H(), set.G(), a, set.gamma());
            double[] refVdot = java.util.Arrays.copyOf(ref, nv);
            double[] refLambda = new double[m];
            for (int r = 0; r < m; r++) {
                refLambda[r] = -ref[nv + r];
            }
            double e = Math.max(rel(direct, recursive), rel(lambdaDirect, lambdaRecursive));
            double er = Math.max(rel(refVdot, recursive), rel(refLambda, lambdaRecursive));
            double ed = Math.max(rel(refVdot, direct), rel(refLambda, lambdaDirect));
            worst.fd = Math.max(worst.fd, e);
            worst.fdRecursiveExact = Math.max(worst.fdRecursiveExact, er);
            worst.fdDirectExact = Math.max(worst.fdDirectExact, ed);
            if (!(er <= TOL && e <= TOL + ed)) {
                worst.failures.add(String.format(Locale.ROOT, "%s FD: recursive vs direct %.2e; vs exact:"
                        + " recursive %.2e, direct %.2e", state, e, er, ed));
            }
            if (ed > TOL) {
                worst.directOff.add(String.format(Locale.ROOT, "%s FD: recursive vs direct %.2e; vs exact:"
                        + " recursive %.2e, direct %.2e", state, e, er, ed));
            }

            double[] target = n % 2 == 0 ? new double[m] : TestMechanisms.random(m, 1, rnd);
            System.arraycopy(target, 0, set.impulseTarget(), 0, m);
            impulses.solveDirect(q, v, direct);
            double[] impulseDirect = set.impulse().clone();
            impulses.solveRecursive(q, v, recursive);
            double[] impulseRecursive = set.impulse().clone();
            set.computeImpulseSystem(q);
            double[] ri = FastPathTest.refinedKkt(set.H(), set.G(), TestMechanisms.mult(set.H(), v), target);
            double[] refV = java.util.Arrays.copyOf(ri, nv);
            double[] refImpulse = java.util.Arrays.copyOfRange(ri, nv, nv + m);
            double ei = Math.max(relImpact(direct, recursive, v), rel(impulseDirect, impulseRecursive));
            double eir = Math.max(relImpact(refV, recursive, v), rel(refImpulse, impulseRecursive));
            double eid = Math.max(relImpact(refV, direct, v), rel(refImpulse, impulseDirect));
            worst.impulse = Math.max(worst.impulse, ei);
            worst.impulseRecursiveExact = Math.max(worst.impulseRecursiveExact, eir);
            worst.impulseDirectExact = Math.max(worst.impulseDirectExact, eid);
            if (!(eir <= TOL && ei <= TOL + eid)) {
                worst.failures.add(String.format(Locale.ROOT, "%s impulse: recursive vs direct %.2e; vs exact:"
                        + " recursive %.2e, direct %.2e", state, ei, eir, eid));
            }
            if (eid > TOL) {
                worst.directOff.add(String.format(Locale.ROOT, "%s impulse: recursive vs direct %.2e; vs exact:"
                        + " recursive %.2e, direct %.2e", state, ei, eir, eid));
            }
            for (int g = 0; g < groups; g++) {
                set.disableBaumgarte(g);
            }
            worst.states++;
        }
    }

    // ------------------------------------------------------------------ dependent rows

    /**
     * Two dependent sets per robot: a contact direction given twice (with two other rows), and four points of one
     * end body held along x, y and z (12 rows of rank 6). Policy FAIL: the recursive method throws what the direct
     * method throws (kind, rows involved, message) for forward dynamics and impulses. Policy DROP_DEPENDENT_ROWS:
     * the same rows dropped, and v̇, λ, v⁺ and Λ within 1e-12 of the exact solution with the kept rows and of the
     * direct method's plus that method's own error (its KKT LU on the kept rows is not refined: up to 2.4e-9 from
     * the exact solution on the ur5, whose arm the four points lock). Forward dynamics at rest (v with G v = 0,
     * v̇ measured against v̇₀'s scale as well as its own: on a locked arm v̇ is 0) and at random v, where the
     * four points' rows contradict each other (their centripetal accelerations) and both methods report the same
     * inconsistency; impulses from random v.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("robots")
    void dependentRowsAsByTheDirectMethod(Robot robot) throws Exception {
        Model model = load(robot, false);
        int end = leaves(model).get(0);
        ConstraintSet.Builder twice = ConstraintSet.builder(model);
        contactTriple(twice, end, POINTS[0], new double[][] {{1, 0, 0}, {0, 0, 1}, {0, 0, 1}});
        ConstraintSet.Builder foot = ConstraintSet.builder(model);
        for (double[] corner : new double[][] {{0.02, 0.02, 0}, {-0.02, 0.02, 0}, {-0.02, -0.02, 0},
            {0.02, -0.02, -0.01}}) {
            contactTriple(foot, end, corner, XYZ);
        }
        Random rnd = new Random(robot.file().hashCode() + 1);
        int[] counts = new int[4];
        double worstDrop = 0;
        double worstDropExact = 0;
        double worstDropDirectExact = 0;
        for (ConstraintSet description : List.of(twice.build(), foot.build())) {
            boolean rigidBody = description.size() >= 12;
            ConstraintData set = description.bindGeneric();
            int nv = set.nv();
            int m = set.size();
            ConstrainedDynamics fd = new ConstrainedDynamics(set);
            ImpulseSolver impulses = new ImpulseSolver(set);
            double[] a = new double[nv];
            double[] b = new double[nv];
            for (int n = 0; n < 40; n++) {
                double[] q = TestMechanisms.randomQ(model, rnd);
                boolean atRest = n % 2 == 0;
                double[] v0 = TestMechanisms.random(nv, 2, rnd);
                double[] v = atRest ? withoutRowVelocities(set, q, v0) : v0;
                double[] tau = TestMechanisms.random(nv, 10, rnd);
                String what = robot + (rigidBody ? " four points" : " twice") + " state " + n;

                set.settings().rankPolicy(RankPolicy.FAIL);
                ConstraintRankException direct = assertThrows(ConstraintRankException.class,
                        () -> fd.forwardDynamicsDirect(q, v, tau, a), what);
                ConstraintRankException recursive = assertThrows(ConstraintRankException.class,
                        () -> fd.forwardDynamicsRecursive(q, v, tau, b), what);
                assertSame(direct, recursive, what + " FD");
                direct = assertThrows(ConstraintRankException.class, () -> impulses.solveDirect(q, v, a), what);
                recursive = assertThrows(ConstraintRankException.class, () -> impulses.solveRecursive(q, v, b),
                        what);
                assertSame(direct, recursive, what + " impulse");
                counts[0]++;

                set.settings().rankPolicy(RankPolicy.DROP_DEPENDENT_ROWS);
                ConstraintRankException directDrop = null;
                double[] lambdaDirect = null;
                int[] kept = null;
                try {
                    fd.forwardDynamicsDirect(q, v, tau, a);
                    lambdaDirect = set.force().clone();
                    kept = keptRows(fd.systemSolver());
                } catch (ConstraintRankException ex) {
                    directDrop = ex;
                }
                ConstraintRankException recursiveDrop = null;
                double[] scale = null;
                try {
                    fd.forwardDynamicsRecursive(q, v, tau, b);
                    scale = fd.recursiveMethod().unconstrainedAcceleration().clone();
                } catch (ConstraintRankException ex) {
                    recursiveDrop = ex;
                }
                if (directDrop != null || recursiveDrop != null) {
                    assertNotNull(directDrop, what + ": only the recursive method threw " + recursiveDrop);
                    assertNotNull(recursiveDrop, what + ": only the direct method threw " + directDrop);
                    assertEquals(ConstraintRankException.Kind.INCONSISTENT, directDrop.kind(), what);
                    assertSame(directDrop, recursiveDrop, what + " drop");
                    assertTrue(rigidBody && !atRest, what + ": inconsistent " + directDrop.getMessage());
                    counts[1]++;
                } else {
                    double[] lambda = set.force().clone();
                    assertEquals(kept.length, fd.recursiveMethod().lastRank(), what);
                    assertDropped(kept, lambda, what);
                    // The exact solution with the kept rows alone; v̇ against v̇₀'s scale as well as its own (at
                    // rest on a locked arm v̇ is 0).
                    set.computeSystem(q, v);
                    double[] f = new double[nv];
                    for (int i = 0; i < nv; i++) {
                        f[i] = tau[i] - set.C()[i];
                    }
                    double[][] ref = reducedKkt(set.H(), set.G(), f, set.gamma(), kept, m, true);
                    double e = Math.max(relImpact(a, b, scale), rel(lambdaDirect, lambda));
                    double er = Math.max(relImpact(ref[0], b, scale), rel(ref[1], lambda));
                    double ed = Math.max(relImpact(ref[0], a, scale), rel(ref[1], lambdaDirect));
                    assertTrue(er <= TOL && e <= TOL + ed, String.format(Locale.ROOT, "%s dropped FD: recursive vs"
                            + " direct %.2e; vs exact: recursive %.2e, direct %.2e", what, e, er, ed));
                    worstDrop = Math.max(worstDrop, e);
                    worstDropExact = Math.max(worstDropExact, er);
                    worstDropDirectExact = Math.max(worstDropDirectExact, ed);
                    counts[2]++;
                }
                // Impulses from v⁻ = v0: at rest (G v = 0) the impulse is 0 and its relative error meaningless.
                impulses.solveDirect(q, v0, a);
                double[] impulseDirect = set.impulse().clone();
                kept = keptRows(impulses.systemSolver());
                impulses.solveRecursive(q, v0, b);
                double[] impulse = set.impulse().clone();
                assertEquals(kept.length, impulses.recursiveMethod().lastRank(), what);
                assertDropped(kept, impulse, what);
                set.computeImpulseSystem(q);
                double[][] ref = reducedKkt(set.H(), set.G(), TestMechanisms.mult(set.H(), v0), new double[m], kept,
                        m, false);
                double e = Math.max(relImpact(a, b, v0), rel(impulseDirect, impulse));
                double er = Math.max(relImpact(ref[0], b, v0), rel(ref[1], impulse));
                double ed = Math.max(relImpact(ref[0], a, v0), rel(ref[1], impulseDirect));
                assertTrue(er <= TOL && e <= TOL + ed, String.format(Locale.ROOT, "%s dropped impulse: recursive"
                        + " vs direct %.2e; vs exact: recursive %.2e, direct %.2e", what, e, er, ed));
                worstDrop = Math.max(worstDrop, e);
                worstDropExact = Math.max(worstDropExact, er);
                worstDropDirectExact = Math.max(worstDropDirectExact, ed);
                counts[3]++;
            }
        }
        System.out.printf(Locale.ROOT, "dependent rows, %-28s: %d same exceptions (FAIL), %d same inconsistencies,"
                + " %d + %d same dropped rows and answers (FD + impulses), worst vs direct %.2e; vs exact: recursive"
                + " %.2e, direct %.2e%n", robot, counts[0], counts[1], counts[2], counts[3], worstDrop,
                worstDropExact, worstDropDirectExact);
        assertTrue(counts[2] >= 40, "too few consistent dropped solves: " + counts[2]);
    }

    private static void assertSame(ConstraintRankException expected, ConstraintRankException actual, String what) {
        assertEquals(expected.kind(), actual.kind(), what);
        assertEquals(expected.involvedRows(), actual.involvedRows(), what);
        assertEquals(expected.getMessage(), actual.getMessage(), what);
    }

    /** The rows the direct method's last solve kept (the first rank pivots of its QR of G). */
    private static int[] keptRows(ConstrainedSystemSolver solver) {
        return java.util.Arrays.copyOf(solver.rankAnalysis().pivots(), solver.lastRank());
    }

    /** Every row not kept has multiplier +0, as the direct method gives it. */
    private static void assertDropped(int[] kept, double[] lambda, String what) {
        boolean[] isKept = new boolean[lambda.length];
        for (int k : kept) {
            isKept[k] = true;
        }
        for (int r = 0; r < lambda.length; r++) {
            if (!isKept[r]) {
                assertEquals(0.0, lambda[r], what + ": row " + r + " was not dropped");
            }
        }
    }

    /**
     * The exact solution of [H G_kᵀ; G_k 0][x; y] = [f; b_k] for the kept rows k: {x, multipliers scattered to m
     * rows (λ = -y for forward dynamics, Λ = y for impulses)}.
     */
    private static double[][] reducedKkt(DMatrixRMaj h, DMatrixRMaj g, double[] f, double[] b, int[] kept, int m,
            boolean forces) {
        int nv = h.numRows;
        DMatrixRMaj gk = new DMatrixRMaj(kept.length, nv);
        double[] bk = new double[kept.length];
        for (int k = 0; k < kept.length; k++) {
            for (int c = 0; c < nv; c++) {
                gk.set(k, c, g.get(kept[k], c));
            }
            bk[k] = b[kept[k]];
        }
        double[] ref = FastPathTest.refinedKkt(h, gk, f, bk);
        double[] multipliers = new double[m];
        for (int k = 0; k < kept.length; k++) {
            multipliers[kept[k]] = forces ? -ref[nv + k] : ref[nv + k];
        }
        return new double[][] {java.util.Arrays.copyOf(ref, nv), multipliers};
    }

    /** v minus its component that moves the rows (G⁺ G v), so G v = 0 to rounding. */
    private static double[] withoutRowVelocities(ConstraintData set, double[] q, double[] v) {
        set.computeSystem(q, v);
        DMatrixRMaj g = set.G();
        DMatrixRMaj pinv = new DMatrixRMaj(g.numCols, g.numRows);
        CommonOps_DDRM.pinv(g, pinv);
        double[] x = TestMechanisms.mult(pinv, TestMechanisms.mult(g, v));
        double[] out = v.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] -= x[i];
        }
        return out;
    }
}
