package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.generator.CodeGeneratorTest.box;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.contract.LimbConstrainedDynamics;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.ContactConstraintModel;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.JointType;
import org.symdyn.model.LoopConstraintModel;
import org.symdyn.model.Model;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ImpulseSolver;
import org.symdyn.testing.SharedFiles;

/**
 * The generated limb-eliminated constrained forward dynamics ({@link LimbConstrainedDynamics}) against the generic
 * runtime's direct (saddle-point) method on random states: v̇ and λ within 1e-12 of their scale (at least 1) wherever
 * the returned pivot ratio is above the solvers' tolerance, and the impulses v⁺ and Λ likewise against its direct
 * impulse solver; the ratio itself near 0 where a leg is straight; and
 * classes whose rows are not carried by limbs of a floating base (a four-bar, rows across limbs) do not claim it.
 */
class LimbConstrainedDynamicsTest {
    private static final double TOL = 1e-12;
    /**
     * The limb answer's error (v̇ and λ, relative to their scale) times its pivot ratio, on every random state: the
     * bound behind {@link ConstrainedDynamics#LIMB_PIVOT_RATIO}.
     */
    private static final double ERROR_TIMES_RATIO = 2e-14;
    private static final int STATES = 200;
    private static final Path SAMPLES = Path.of("..", "samples", "src", "main", "symdyn");

    private static final String[] AXES = {"1 0 0", "0 1 0", "0 0 1"};

    /** solo12 with its four feet held by three rows each, declared in the file (as the benchmarks' solo12Declared). */
    static Model solo12Declared() throws Exception {
        return withContacts("solo12.urdf", new String[] {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"}, false);
    }

    /**
     * A shared model, floating, with contact rows declared at each of {@code links}: three (x, y, z) at the link's
     * origin, and with {@code secondPoint} two more (y, z) 0.1 m along its x axis, which hold the link but for a
     * rotation about that axis (5 independent rows).
     */
    static Model withContacts(String file, String[] links, boolean secondPoint) throws Exception {
        Path path = SharedFiles.model(file);
        StringBuilder contacts = new StringBuilder();
        for (String link : links) {
            for (int axis = 0; axis < 3; axis++) {
                contacts.append(String.format("  <symdyn:contact name=\"%s_%c\" link=\"%s\" point=\"0 0 0\""
                        + " normal=\"%s\"/>%n", link, "xyz".charAt(axis), link, AXES[axis]));
            }
            for (int axis = 1; secondPoint && axis < 3; axis++) {
                contacts.append(String.format("  <symdyn:contact name=\"%s_toe_%c\" link=\"%s\" point=\"0.1 0 0\""
                        + " normal=\"%s\"/>%n", link, "xyz".charAt(axis), link, AXES[axis]));
            }
        }
        String xml = Files.readString(path).replaceFirst("<robot ", "<robot xmlns:symdyn=\"urn:symdyn:1\" ")
                .replace("</robot>", contacts + "</robot>");
        return UrdfReader.parse(xml, path.toString(), new UrdfReader.Options(true, false));
    }

    /**
     * A floating base with three limbs: a skew revolute, a ball and a prismatic joint held by a contact at an offset
     * point along a tilted normal and a loop to the world on two axes (3 rows on 5 dofs); a planar joint (its motion
     * subspace depends on q), a revolute and a prismatic one held by a contact and a coupler between the last two (2
     * rows on 5 dofs); and a free revolute limb without rows.
     */
    static Model threeLimbs() throws Exception {
        double nan = Double.NaN;
        return Model.builder("three_limbs").gravity(0.3, -9.7, -0.2)
                .addBody("base", "world", "free", JointType.FLOATING, null, Pose.IDENTITY, box(5))
                .addBody("a1", "base", "ja1", JointType.REVOLUTE, new double[] {0.2, 0.3, 0.9},
                        Pose.fromXyzRpy(new double[] {0.1, 0.2, 0.3}, new double[] {0.4, -0.3, 1.2}), box(1.5))
                .addBody("a2", "a1", "ja2", JointType.BALL, null, Pose.translation(0.5, 0, 0), box(0.7))
                .addBody("a3", "a2", "ja3", JointType.PRISMATIC, new double[] {0.6, 0, 0.8},
                        Pose.fromXyzRpy(new double[] {0.3, 0.1, 0}, new double[] {0, 0, 0.4}), box(0.4))
                .addBody("b1", "base", "jb1", JointType.PLANAR, new double[] {0, 0, 1}, Pose.translation(0, 0.3, 0),
                        box(2))
                .addBody("b2", "b1", "jb2", JointType.REVOLUTE, new double[] {1, 0, 0},
                        Pose.fromXyzRpy(new double[] {-0.1, -0.2, 0}, new double[] {0, 0, 0.5}), box(1.3))
                .addBody("b3", "b2", "jb3", JointType.PRISMATIC, new double[] {0, 0.6, 0.8},
                        Pose.translation(0.3, 0, -0.1), box(0.5))
                .addBody("c1", "base", "jc1", JointType.REVOLUTE, new double[] {0, 1, 0}, Pose.translation(-0.4, 0, 0),
                        box(1))
                .addConstraint(new ContactConstraintModel("tip", 3, new double[] {0.3, 0, 0},
                        new double[] {0, 0.6, 0.8}, nan, SourceLocation.UNKNOWN))
                .addConstraint(new LoopConstraintModel("anchor", 2,
                        Pose.fromXyzRpy(new double[] {0.05, 0.1, 0}, new double[] {0.2, 0.3, -0.1}), -1,
                        Pose.fromXyzRpy(new double[] {0.3, -0.2, 0.1}, new double[] {0, 0.4, 0}),
                        List.of(new double[] {0, 0, 0, 1, 0, 0}, new double[] {0, 0.8, 0.6, 0, 0, 0}), nan,
                        SourceLocation.UNKNOWN))
                .addConstraint(new ContactConstraintModel("b_tip", 6, new double[] {0.1, 0.2, 0},
                        new double[] {0, 0, 1}, nan, SourceLocation.UNKNOWN))
                .addConstraint(new CouplerConstraintModel("b_gear", 6, 5, -1.5, 0.25, nan, SourceLocation.UNKNOWN))
                .build();
    }

    /**
     * Two floating bodies, each with one limb held by a single contact row (a limb with one row: its K_c is 1 x 1),
     * and a third limb on the first without rows.
     */
    static Model twoTrees() throws Exception {
        double nan = Double.NaN;
        return Model.builder("two_trees").gravity(0, 0, -9.81)
                .addBody("body1", "world", "free1", JointType.FLOATING, null, Pose.IDENTITY, box(3))
                .addBody("arm1", "body1", "j1", JointType.REVOLUTE, new double[] {0, 1, 0},
                        Pose.translation(0.3, 0, 0), box(1))
                .addBody("tail1", "body1", "t1", JointType.REVOLUTE, new double[] {1, 0, 0},
                        Pose.translation(-0.3, 0, 0), box(0.5))
                .addBody("body2", "world", "free2", JointType.FLOATING, null, Pose.translation(2, 0, 0), box(2))
                .addBody("arm2", "body2", "j2", JointType.REVOLUTE, new double[] {0, 0.6, 0.8},
                        Pose.translation(0, 0.3, 0), box(0.8))
                .addBody("hand2", "arm2", "k2", JointType.REVOLUTE, new double[] {1, 0, 0},
                        Pose.translation(0.4, 0, 0), box(0.3))
                .addConstraint(new ContactConstraintModel("touch1", 1, new double[] {0.4, 0, 0},
                        new double[] {0, 0, 1}, nan, SourceLocation.UNKNOWN))
                .addConstraint(new ContactConstraintModel("touch2", 5, new double[] {0.2, 0.1, 0},
                        new double[] {0.6, 0, 0.8}, nan, SourceLocation.UNKNOWN))
                .build();
    }

    /**
     * Rows the elimination cannot take leave the method out: a row on the base alone, more rows than a limb has dofs,
     * a loop between two limbs. The same model with one acceptable row has it.
     */
    @Test
    void rowsNotCarriedByOneLimbLeaveItOut() throws Exception {
        double nan = Double.NaN;
        java.util.function.Supplier<org.symdyn.model.ModelBuilder> base = () -> Model.builder("limbs")
                .addBody("base", "world", "free", JointType.FLOATING, null, Pose.IDENTITY, box(3))
                .addBody("a", "base", "ja", JointType.REVOLUTE, new double[] {0, 1, 0}, Pose.translation(0.3, 0, 0),
                        box(1))
                .addBody("b", "base", "jb", JointType.REVOLUTE, new double[] {1, 0, 0}, Pose.translation(-0.3, 0, 0),
                        box(1));
        ContactConstraintModel onA = new ContactConstraintModel("onA", 1, new double[] {0.4, 0, 0},
                new double[] {0, 0, 1}, nan, SourceLocation.UNKNOWN);
        Map<String, Model> refused = new java.util.LinkedHashMap<>();
        refused.put("a row on the base alone", base.get().addConstraint(new ContactConstraintModel("onBase", 0,
                new double[] {0.1, 0, 0}, new double[] {0, 0, 1}, nan, SourceLocation.UNKNOWN)).build());
        refused.put("two rows on a one-dof limb", base.get().addConstraint(onA).addConstraint(
                new ContactConstraintModel("onA2", 1, new double[] {0.4, 0, 0}, new double[] {1, 0, 0}, nan,
                        SourceLocation.UNKNOWN)).build());
        refused.put("a loop between two limbs", base.get().addConstraint(new LoopConstraintModel("ab", 1,
                Pose.translation(0.2, 0, 0), 2, Pose.translation(0.2, 0, 0), List.of(new double[] {0, 0, 0, 0, 0, 1}),
                nan, SourceLocation.UNKNOWN)).build());
        for (Map.Entry<String, Model> e : refused.entrySet()) {
            ModelFunctions f = GeneratedVsGenericTest.instance(new CodeGenerator().generate(e.getValue(),
                    GeneratorOptions.of("test.gen", "Refused" + Math.abs(e.getKey().hashCode()))));
            assertFalse(f instanceof LimbConstrainedDynamics, e.getKey());
            assertTrue(f.constraintRows() > 0, e.getKey());
        }
        ModelFunctions accepted = GeneratedVsGenericTest.instance(new CodeGenerator().generate(
                base.get().addConstraint(onA).build(), GeneratorOptions.of("test.gen", "AcceptedOneRow")));
        assertTrue(accepted instanceof LimbConstrainedDynamics, "one row on a one-dof limb");
    }

    static Stream<Arguments> models() {
        return Stream.of(
                Arguments.of("quadruped.urdf", (ModelSource) () -> UrdfReader.read(SAMPLES.resolve("quadruped.urdf"))),
                Arguments.of("quadruped.urdf with armature", (ModelSource) () -> ArmatureGenerationTest.withArmature(
                        UrdfReader.read(SAMPLES.resolve("quadruped.urdf")), i -> 0.01 + 0.02 * i)),
                Arguments.of("three limbs (ball, planar, prismatic; contact, loop, coupler)",
                        (ModelSource) LimbConstrainedDynamicsTest::threeLimbs),
                Arguments.of("two floating trees, one row a limb", (ModelSource) LimbConstrainedDynamicsTest::twoTrees),
                Arguments.of("solo12 on 12 declared foot rows", (ModelSource) LimbConstrainedDynamicsTest::solo12Declared));
    }

    /** More robots: hyq and anymal on their four feet, romeo_small on two points of each sole (5 rows a leg). */
    static Stream<Arguments> moreModels() {
        return Stream.of(
                Arguments.of("hyq on its feet", (ModelSource) () -> withContacts("hyq_no_sensors.urdf",
                        new String[] {"lf_foot", "rf_foot", "lh_foot", "rh_foot"}, false)),
                Arguments.of("anymal on its feet", (ModelSource) () -> withContacts("anymal.urdf",
                        new String[] {"LF_FOOT", "RF_FOOT", "LH_FOOT", "RH_FOOT"}, false)),
                Arguments.of("romeo_small on its soles", (ModelSource) () -> withContacts("romeo_small.urdf",
                        new String[] {"l_sole", "r_sole"}, true)));
    }

    @Tag("exhaustive")
    @ParameterizedTest(name = "{0}")
    @MethodSource("moreModels")
    void moreRobotsMatchTheDirectMethod(String name, ModelSource source) throws Exception {
        matchesTheDirectMethodOfTheGenericRuntime(name, source);
    }

    interface ModelSource {
        Model read() throws Exception;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void matchesTheDirectMethodOfTheGenericRuntime(String name, ModelSource source) throws Exception {
        Model model = source.read();
        ModelFunctions f = GeneratedVsGenericTest.instance(new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "Limbs" + Math.abs(name.hashCode()))));
        assertTrue(f instanceof LimbConstrainedDynamics, name + " carries its rows on limbs");
        LimbConstrainedDynamics limbs = (LimbConstrainedDynamics) f;
        ConstraintData generic = ConstraintSet.of(model).bindGeneric();
        ConstrainedDynamics direct = new ConstrainedDynamics(generic);
        ImpulseSolver impulses = new ImpulseSolver(generic);
        int nv = model.nv();
        int m = limbs.constraintRows();
        Random rnd = new Random(name.hashCode());
        double[] expected = new double[nv];
        double[] vdot = new double[nv];
        double[] lambda = new double[m];
        int compared = 0;
        double worstTimesRatio = 0;
        for (int n = 0; n < STATES; n++) {
            double[] q = GeneratedVsGenericTest.randomConfiguration(model, rnd);
            double[] v = GeneratedVsGenericTest.random(rnd, nv, 2);
            double[] tau = GeneratedVsGenericTest.random(rnd, nv, 10);
            String at = name + " state " + n;
            double ratio = limbs.limbConstrainedDynamics(q, v, tau, new double[m], vdot, lambda);
            assertTrue(ratio > 0 && ratio <= 1 + 1e-12, at + ": pivot ratio " + ratio);
            direct.forwardDynamicsDirect(q, v, tau, expected);
            double error = Math.max(relativeError(expected, vdot), relativeError(generic.force(), lambda));
            assertTrue(error * ratio <= ERROR_TIMES_RATIO, at + ": error " + error + " at ratio " + ratio);
            worstTimesRatio = Math.max(worstTimesRatio, error * ratio);
            if (!(ratio > ConstrainedDynamics.LIMB_PIVOT_RATIO)) {
                continue;
            }
            GeneratedVsGenericTest.assertClose(expected, vdot, TOL, "limb vdot", at + " ratio " + ratio);
            GeneratedVsGenericTest.assertClose(generic.force(), lambda, TOL, "limb lambda", at + " ratio " + ratio);
            double[] vMinus = GeneratedVsGenericTest.random(rnd, nv, 2);
            double[] target = GeneratedVsGenericTest.random(rnd, m, n % 2);
            System.arraycopy(target, 0, generic.impulseTarget(), 0, m);
            impulses.solveDirect(q, vMinus, expected);
            double impulseRatio = limbs.limbImpulse(q, vMinus, target, vdot, lambda);
            assertEquals(ratio, impulseRatio, 1e-13, at + ": the same factorisations");
            GeneratedVsGenericTest.assertClose(expected, vdot, TOL, "limb v+", at);
            GeneratedVsGenericTest.assertClose(generic.impulse(), lambda, TOL, "limb impulse", at);
            compared++;
        }
        // Uniformly random angles often leave some knee within 0.1 rad of straight (ratio below 1e-2): anymal's, with no
        // joint limits, in about half the states.
        assertTrue(compared > STATES / 4, name + ": compared " + compared + " of " + STATES);
        System.out.printf("%s: limb answer taken on %d of %d states; error x ratio at most %.2e%n", name, compared,
                STATES, worstTimesRatio);
    }

    /**
     * The solvers' direct method on the generated class alone takes the limb-eliminated answer where it is well
     * conditioned, Baumgarte terms included, and the saddle-point solve elsewhere (straight legs, the generated solves
     * switched off), with the generic runtime's v̇ and λ in every case; a non-finite τ is refused as before.
     */
    @Test
    void theDirectMethodUsesItWhereItIsWellConditioned() throws Exception {
        Model model = UrdfReader.read(SAMPLES.resolve("quadruped.urdf"));
        ModelFunctions f = GeneratedVsGenericTest.instance(new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "LimbsInTheSolver")));
        ConstraintData data = ConstraintSet.of(model).bind(f);
        ConstrainedDynamics fd = new ConstrainedDynamics(data);
        LimbConstrainedDynamics limbsOf = (LimbConstrainedDynamics) f;
        ConstraintData generic = ConstraintSet.of(model).bindGeneric();
        ConstrainedDynamics reference = new ConstrainedDynamics(generic);
        ImpulseSolver impulses = new ImpulseSolver(data);
        ImpulseSolver referenceImpulses = new ImpulseSolver(generic);
        int nv = model.nv();
        Random rnd = new Random(7);
        double[] vdot = new double[nv];
        double[] expected = new double[nv];
        int limbs = 0;
        int other = 0;
        for (int n = 0; n < 60; n++) {
            double[] q = GeneratedVsGenericTest.randomConfiguration(model, rnd);
            if (n % 20 == 0) {
                java.util.Arrays.fill(q, 7, q.length, 0.0); // straight legs
            }
            double[] v = GeneratedVsGenericTest.random(rnd, nv, 2);
            double[] tau = GeneratedVsGenericTest.random(rnd, nv, 10);
            boolean stabilised = n % 10 == 3;
            boolean switchedOff = n % 10 == 7;
            if (stabilised) {
                data.enableBaumgarte(0);
                generic.enableBaumgarte(0);
            }
            data.settings().generatedFactorization(!switchedOff);
            fd.forwardDynamicsDirect(q, v, tau, vdot);
            reference.forwardDynamicsDirect(q, v, tau, expected);
            double ratio = limbsOf.limbConstrainedDynamics(q, v, tau, new double[data.size()], new double[nv],
                    new double[data.size()]);
            String at = "state " + n + " ratio " + ratio;
            GeneratedVsGenericTest.assertClose(expected, vdot, TOL, "solver vdot", at);
            GeneratedVsGenericTest.assertClose(generic.force(), data.force(), TOL, "solver lambda", at);
            boolean expectLimbs = !switchedOff && ratio > ConstrainedDynamics.LIMB_PIVOT_RATIO;
            assertEquals(expectLimbs, fd.lastUsedLimbs(), at);
            if (n % 20 == 0) {
                assertFalse(fd.lastUsedLimbs(), "straight legs: " + at);
            }
            if (fd.lastUsedLimbs()) {
                assertEquals(data.size(), fd.systemSolver().lastRank(), at);
                assertFalse(fd.systemSolver().lastFellBack(), at);
                assertFalse(fd.systemSolver().lastUsedGeneratedFactorization(), at);
                assertTrue(Double.isNaN(fd.systemSolver().lastSchurPivotRatio()), at);
                limbs++;
            } else {
                other++;
            }
            data.disableBaumgarte(0);
            generic.disableBaumgarte(0);
            double[] vMinus = GeneratedVsGenericTest.random(rnd, nv, 2);
            impulses.solveDirect(q, vMinus, vdot);
            referenceImpulses.solveDirect(q, vMinus, expected);
            GeneratedVsGenericTest.assertClose(expected, vdot, TOL, "solver v+", at);
            GeneratedVsGenericTest.assertClose(generic.impulse(), data.impulse(), TOL, "solver impulse", at);
            double impulseRatio = ((LimbConstrainedDynamics) f).limbImpulse(q, vMinus, new double[data.size()],
                    new double[nv], new double[data.size()]);
            assertEquals(!switchedOff && impulseRatio > ConstrainedDynamics.LIMB_PIVOT_RATIO,
                    impulses.lastUsedLimbs(), "impulse " + at);
            if (impulses.lastUsedLimbs()) {
                assertEquals(impulseRatio, impulses.lastLimbPivotRatio(), 0.0, at);
                assertEquals(data.size(), impulses.systemSolver().lastRank(), at);
            }
        }
        assertTrue(limbs > 30 && other > 10, limbs + " limb solves, " + other + " others");
        data.settings().generatedFactorization(true);
        double[] q = GeneratedVsGenericTest.randomConfiguration(model, rnd);
        double[] tau = new double[nv];
        tau[8] = Double.NaN;
        double[] before = data.force().clone();
        assertThrows(ArithmeticException.class, () -> fd.forwardDynamicsDirect(q, new double[nv], tau, vdot));
        assertFalse(fd.lastUsedLimbs());
        org.junit.jupiter.api.Assertions.assertArrayEquals(before, data.force(), "a refused solve leaves λ as it was");
        double[] badV = new double[nv];
        badV[3] = Double.POSITIVE_INFINITY;
        assertThrows(ArithmeticException.class, () -> fd.forwardDynamicsDirect(q, badV, new double[nv], vdot));
        assertThrows(ArithmeticException.class, () -> impulses.solveDirect(q, badV, vdot));
        assertFalse(impulses.lastUsedLimbs());
        double[] badQ = q.clone();
        badQ[9] = Double.NaN;
        assertThrows(ArithmeticException.class, () -> fd.forwardDynamicsDirect(badQ, new double[nv], new double[nv],
                vdot));
    }

    /**
     * Dependent rows within a limb (a foot held twice along z, and along y, on its three-dof leg) are reported as the
     * saddle-point path reports them: the limb answer's ratio sends the direct method there, with the same exception,
     * message and rows; and with the rank policy that drops them, the same answer.
     */
    @Test
    void dependentRowsOnALimbAreReportedAsBefore() throws Exception {
        Path file = SAMPLES.resolve("quadruped.urdf");
        String xml = Files.readString(file).replace(
                "name=\"lf_foot_x\" link=\"lf_foot\" point=\"0 0 0\" normal=\"1 0 0\"",
                "name=\"lf_foot_z2\" link=\"lf_foot\" point=\"0 0 0\" normal=\"0 0 1\"");
        assertTrue(xml.contains("lf_foot_z2"), "the sample's rows as expected");
        Model model = UrdfReader.parse(xml, file.toString(), new UrdfReader.Options(false, false));
        Twin twin = Twin.generate(model, "DependentFoot");
        ConstraintData limbs = twin.limbs();
        ConstraintData schur = twin.schur();
        ConstrainedDynamics fdLimbs = new ConstrainedDynamics(limbs);
        ConstrainedDynamics fdSchur = new ConstrainedDynamics(schur);
        int nv = model.nv();
        Random rnd = new Random(5);
        double[] q = GeneratedVsGenericTest.randomConfiguration(model, rnd);
        double[] v = GeneratedVsGenericTest.random(rnd, nv, 2);
        double[] tau = GeneratedVsGenericTest.random(rnd, nv, 10);
        org.symdyn.solvers.ConstraintRankException expected = assertThrows(
                org.symdyn.solvers.ConstraintRankException.class, () -> fdSchur.forwardDynamicsDirect(q, v, tau,
                        new double[nv]));
        org.symdyn.solvers.ConstraintRankException actual = assertThrows(
                org.symdyn.solvers.ConstraintRankException.class, () -> fdLimbs.forwardDynamicsDirect(q, v, tau,
                        new double[nv]));
        assertFalse(fdLimbs.lastUsedLimbs());
        assertEquals(expected.getMessage(), actual.getMessage());
        assertEquals(expected.involvedRows(), actual.involvedRows());
        for (ConstraintData d : List.of(limbs, schur)) {
            d.settings().rankPolicy(org.symdyn.constraints.SolverSettings.RankPolicy.DROP_DEPENDENT_ROWS);
        }
        double[] a = new double[nv];
        double[] b = new double[nv];
        fdSchur.forwardDynamicsDirect(q, v, tau, a);
        fdLimbs.forwardDynamicsDirect(q, v, tau, b);
        assertFalse(fdLimbs.lastUsedLimbs());
        GeneratedVsGenericTest.assertClose(a, b, TOL, "vdot, a row dropped", "");
        GeneratedVsGenericTest.assertClose(schur.force(), limbs.force(), TOL, "lambda, a row dropped", "");
    }

    /**
     * Six rows of a loop to the world on one 6-dof limb, their axes chosen at q so that K_c = J A⁻¹ Jᵀ = L D Lᵀ with
     * every multiplier of L at -10 and every pivot after the first 0.1 of its diagonal entry (a review's Kahan-like
     * rows): K_c's scaled condition number is about 4e5. The LDLᵀ pivots over the rows' entries read 0.0104, above
     * {@link ConstrainedDynamics#LIMB_PIVOT_RATIO}, and the limb answer came 6e-11 off; each row's pivot were it
     * eliminated last reads far below it, and the solvers take the saddle-point path.
     */
    @Test
    void illOrderedRowsOnALimbAreDeclined() throws Exception {
        Model unit = kahanArm(List.of(new double[] {1, 0, 0, 0, 0, 0}, new double[] {0, 1, 0, 0, 0, 0},
                new double[] {0, 0, 1, 0, 0, 0}, new double[] {0, 0, 0, 1, 0, 0}, new double[] {0, 0, 0, 0, 1, 0},
                new double[] {0, 0, 0, 0, 0, 1}));
        double[] q = new double[unit.nq()];
        q[6] = 1; // the base at the origin, identity quaternion (w last)
        Random rnd = new Random(3);
        for (int i = 7; i < q.length; i++) {
            q[i] = rnd.nextDouble() - 0.5;
        }
        ConstraintData data = ConstraintSet.of(unit).bindGeneric();
        data.computeSystem(q, new double[unit.nv()]);
        int n = 6;
        org.ejml.data.DMatrixRMaj a = new org.ejml.data.DMatrixRMaj(n, n);
        org.ejml.data.DMatrixRMaj j = new org.ejml.data.DMatrixRMaj(n, n);
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                a.set(r, c, data.H().get(6 + r, 6 + c));
                j.set(r, c, data.G().get(r, 6 + c));
            }
        }
        assertTrue(org.ejml.dense.row.factory.DecompositionFactory_DDRM.chol(n, true).decompose(a));
        double[] d = new double[n];
        d[0] = 1;
        double sum = 100 * d[0];
        for (int k = 1; k < n; k++) {
            d[k] = 0.1 / 0.9 * sum;
            sum += 100 * d[k];
        }
        org.ejml.data.DMatrixRMaj f = new org.ejml.data.DMatrixRMaj(n, n);
        for (int r = 0; r < n; r++) {
            for (int c = 0; c <= r; c++) {
                f.set(r, c, (r == c ? 1 : -10) * Math.sqrt(d[c]));
            }
            for (int c = r + 1; c < n; c++) {
                a.set(r, c, 0); // the Cholesky factor R in place, lower
            }
        }
        // rows W G with W J_l = F Rᵀ: K_c = F Rᵀ A⁻¹ R Fᵀ = F Fᵀ
        org.ejml.data.DMatrixRMaj target = new org.ejml.data.DMatrixRMaj(n, n);
        org.ejml.dense.row.CommonOps_DDRM.multTransB(f, a, target);
        org.ejml.data.DMatrixRMaj w = new org.ejml.data.DMatrixRMaj(n, n);
        assertTrue(org.ejml.dense.row.CommonOps_DDRM.invert(j));
        org.ejml.dense.row.CommonOps_DDRM.mult(target, j, w);
        List<double[]> axes = new java.util.ArrayList<>();
        for (int r = 0; r < n; r++) {
            axes.add(new double[] {w.get(r, 0), w.get(r, 1), w.get(r, 2), w.get(r, 3), w.get(r, 4), w.get(r, 5)});
        }
        Model model = kahanArm(axes);
        LimbConstrainedDynamics limbs = (LimbConstrainedDynamics) GeneratedVsGenericTest.instance(
                new CodeGenerator().generate(model, GeneratorOptions.of("test.gen", "KahanArm")));
        int nv = model.nv();
        double ratio = limbs.limbConstrainedDynamics(q, new double[nv], new double[nv], new double[n], new double[nv],
                new double[n]);
        assertTrue(ratio < ConstrainedDynamics.LIMB_PIVOT_RATIO * 1e-2, "ratio " + ratio);
        ConstrainedDynamics solver = new ConstrainedDynamics(ConstraintSet.of(model).bind(
                GeneratedVsGenericTest.instance(new CodeGenerator().generate(model, GeneratorOptions.of("test.gen",
                        "KahanArmSolved")))));
        solver.forwardDynamicsDirect(q, new double[nv], new double[nv], new double[nv]);
        assertFalse(solver.lastUsedLimbs(), "the saddle-point path answers");
    }

    /** A floating base with a 6-dof arm held to the world by a loop with {@code axes}, and a 2-dof limb. */
    private static Model kahanArm(List<double[]> axes) throws Exception {
        double[][] hinge = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.6, 0.8, 0}, {0, 0.6, 0.8}, {0.8, 0, 0.6}};
        org.symdyn.model.ModelBuilder b = Model.builder("kahan_arm").gravity(0, 0, -9.81)
                .addBody("base", "world", "free", JointType.FLOATING, null, Pose.IDENTITY, box(10));
        String parent = "base";
        for (int k = 0; k < 6; k++) {
            b.addBody("a" + k, parent, "ja" + k, JointType.REVOLUTE, hinge[k],
                    Pose.fromXyzRpy(new double[] {0.1, 0.05 * k, -0.15}, new double[] {0.3, -0.2, 0.1 * k}),
                    box(0.5 + 0.1 * k));
            parent = "a" + k;
        }
        b.addBody("b0", "base", "jb0", JointType.REVOLUTE, new double[] {0, 1, 0}, Pose.translation(-0.2, 0, 0),
                box(0.7));
        b.addBody("b1", "b0", "jb1", JointType.REVOLUTE, new double[] {1, 0, 0}, Pose.translation(0, 0, -0.2),
                box(0.4));
        return b.addConstraint(new LoopConstraintModel("kahan", -1, Pose.translation(0.3, 0.2, 0), 6,
                Pose.translation(0.05, 0.1, -0.1), axes, Double.NaN, SourceLocation.UNKNOWN)).build();
    }

    /** With a leg straight its three foot rows are dependent within the leg: the ratio says so. */
    @Test
    void aStraightLegShowsInThePivotRatio() throws Exception {
        Model model = UrdfReader.read(SAMPLES.resolve("quadruped.urdf"));
        LimbConstrainedDynamics limbs = (LimbConstrainedDynamics) GeneratedVsGenericTest.instance(
                new CodeGenerator().generate(model, GeneratorOptions.of("test.gen", "StraightLegs")));
        double[] q = new double[model.nq()];
        q[6] = 1; // identity quaternion, every joint at zero: straight legs
        double ratio = limbs.limbConstrainedDynamics(q, new double[model.nv()], new double[model.nv()],
                new double[limbs.constraintRows()], new double[model.nv()], new double[limbs.constraintRows()]);
        assertTrue(!(ratio > 1e-9), "ratio " + ratio);
    }

    /**
     * A row that barely moves its limb but moves the base: an arm hinged about y holds a point along world x, so that
     * at hinge angle θ the row's entry at the hinge is 0.4 sin θ while its entries at the base stay of order 1. K_c is
     * then about σ² = sin² θ, and K_c⁻¹ amplifies roundoff as 1 / σ² though G H⁻¹ Gᵀ is well conditioned. A limb's
     * own pivot ratio stays 1 (one row); the returned ratio, over the row's whole entry of G H⁻¹ Gᵀ, falls as σ²
     * (18.8 σ² here; the error reaches 1e-2 at σ = 5e-8),
     * sends the solvers to the saddle-point solve below {@link ConstrainedDynamics#LIMB_PIVOT_RATIO}, and bounds the
     * error as error x ratio ≤ 1e-14 (roundoff's 1e-16 amplified by the row's condition) at every σ.
     */
    @Test
    void aRowThatBarelyMovesItsLimbLowersTheRatio() throws Exception {
        double nan = Double.NaN;
        Model model = Model.builder("barely").gravity(0, 0, -9.81)
                .addBody("base", "world", "free", JointType.FLOATING, null, Pose.IDENTITY, box(3))
                .addBody("arm", "base", "j", JointType.REVOLUTE, new double[] {0, 1, 0}, Pose.translation(0.3, 0, 0),
                        box(1))
                .addBody("leg", "base", "k", JointType.REVOLUTE, new double[] {1, 0, 0}, Pose.translation(-0.3, 0, 0),
                        box(1))
                .addConstraint(new ContactConstraintModel("along", 1, new double[] {0.4, 0, 0},
                        new double[] {1, 0, 0}, nan, SourceLocation.UNKNOWN))
                .addConstraint(new ContactConstraintModel("below", 2, new double[] {0, 0.2, -0.3},
                        new double[] {0, 0, 1}, nan, SourceLocation.UNKNOWN))
                .build();
        ModelFunctions f = GeneratedVsGenericTest.instance(new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "BarelyMovesItsLimb")));
        LimbConstrainedDynamics limbs = (LimbConstrainedDynamics) f;
        ConstraintData generic = ConstraintSet.of(model).bindGeneric();
        ConstrainedDynamics reference = new ConstrainedDynamics(generic);
        ConstraintData data = ConstraintSet.of(model).bind(f);
        ConstrainedDynamics solver = new ConstrainedDynamics(data);
        int nv = model.nv();
        int m = limbs.constraintRows();
        Random rnd = new Random(11);
        double[] expected = new double[nv];
        double[] vdot = new double[nv];
        double[] lambda = new double[m];
        double worst = 0;
        for (double sigma = 0.5; sigma > 1e-8; sigma /= 10) {
            for (int n = 0; n < 5; n++) {
                double[] q = new double[model.nq()];
                q[6] = 1;
                q[7] = Math.asin(sigma) * (n % 2 == 0 ? 1 : -1);
                q[8] = rnd.nextDouble() - 0.5;
                double[] v = GeneratedVsGenericTest.random(rnd, nv, 2);
                double[] tau = GeneratedVsGenericTest.random(rnd, nv, 10);
                String at = "sigma " + sigma + " state " + n;
                double ratio = limbs.limbConstrainedDynamics(q, v, tau, new double[m], vdot, lambda);
                reference.forwardDynamicsDirect(q, v, tau, expected);
                double error = Math.max(relativeError(expected, vdot), relativeError(generic.force(), lambda));
                // 18.8 σ² once K_c is small against the base's term (from σ = 0.05 down); the error reaches 1e-2 at
                // σ = 5e-8, where the limb's own ratio, 1, would have taken it.
                assertTrue(ratio > 0 && ratio <= 1 + 1e-12 && (sigma > 0.1 || ratio < 20 * sigma * sigma),
                        at + ": ratio " + ratio);
                assertTrue(error * ratio <= 1e-14, at + ": error " + error + " at ratio " + ratio);
                worst = Math.max(worst, error * ratio);
                double[] answer = new double[nv];
                solver.forwardDynamicsDirect(q, v, tau, answer);
                assertEquals(ratio > ConstrainedDynamics.LIMB_PIVOT_RATIO, solver.lastUsedLimbs(), at);
                GeneratedVsGenericTest.assertClose(expected, answer, TOL, "solver vdot", at + " ratio " + ratio);
                GeneratedVsGenericTest.assertClose(generic.force(), data.force(), TOL, "solver lambda", at);
            }
        }
        System.out.printf("a row barely moving its limb: error x ratio at most %.2e%n", worst);
    }

    /**
     * A row of roundoff alone: a loop inside a limb, assembled (its two frames coincide, so that the row does not
     * move with the base), holds a point of its second hinge's body along that hinge's own axis (tilted 1e-12 rad off
     * it), which neither hinge can move. It is its limb's only row: its pivot equals its whole diagonal entry of
     * G H⁻¹ Gᵀ, so its pivot ratio reads 1; against the foot's row it is below 1e-20. The solvers' default path
     * must report it as the Schur complement's rank test does (the same exception and message), not take the limb
     * answer.
     */
    @Test
    void aRowOfRoundoffIsReportedAsBefore() throws Exception {
        double nan = Double.NaN;
        double[] axis = {0.6, 0, 0.8};
        double tilt = 1e-12;
        double[] along = {0.6 - 0.8 * tilt, 0, 0.8 + 0.6 * tilt};
        Model model = Model.builder("roundoff").gravity(0, 0, -9.81)
                .addBody("base", "world", "free", JointType.FLOATING, null, Pose.IDENTITY, box(3))
                .addBody("a1", "base", "j1", JointType.REVOLUTE, axis, Pose.translation(0.3, 0, 0), box(1))
                .addBody("a2", "a1", "j2", JointType.REVOLUTE, axis, Pose.translation(0.4, 0, 0), box(0.5))
                .addBody("b1", "base", "k1", JointType.REVOLUTE, new double[] {1, 0, 0}, Pose.translation(-0.3, 0, 0),
                        box(1))
                .addConstraint(new LoopConstraintModel("inside", 1, Pose.translation(0.6, 0.1, 0), 2,
                        Pose.translation(0.2, 0.1, 0), List.<double[]>of(new double[] {0, 0, 0, along[0], along[1],
                                along[2]}), nan, SourceLocation.UNKNOWN))
                .addConstraint(new ContactConstraintModel("foot", 3, new double[] {0, 0.2, -0.3},
                        new double[] {0, 0, 1}, nan, SourceLocation.UNKNOWN))
                .build();
        Twin twin = Twin.generate(model, "RoundoffRow");
        LimbConstrainedDynamics f = twin.f();
        ConstrainedDynamics fdLimbs = new ConstrainedDynamics(twin.limbs());
        ConstrainedDynamics fdSchur = new ConstrainedDynamics(twin.schur());
        ImpulseSolver impulses = new ImpulseSolver(twin.limbs());
        int nv = model.nv();
        Random rnd = new Random(3);
        for (int n = 0; n < 5; n++) {
            double[] q = GeneratedVsGenericTest.randomConfiguration(model, rnd);
            q[8] = 0; // the second hinge where the loop is assembled: the loop's frames coincide
            double[] v = GeneratedVsGenericTest.random(rnd, nv, 2);
            double[] tau = GeneratedVsGenericTest.random(rnd, nv, 10);
            double ratio = f.limbConstrainedDynamics(q, v, tau, new double[2], new double[nv], new double[2]);
            double rank = f.lastLimbRankRatio();
            String at = "state " + n + " ratio " + ratio + " rank ratio " + rank;
            assertTrue(rank < 1e-20, at);
            System.out.println("a row of roundoff: " + at);
            org.symdyn.solvers.ConstraintRankException expected = assertThrows(
                    org.symdyn.solvers.ConstraintRankException.class, () -> fdSchur.forwardDynamicsDirect(q, v, tau,
                            new double[nv]), at);
            org.symdyn.solvers.ConstraintRankException actual = assertThrows(
                    org.symdyn.solvers.ConstraintRankException.class, () -> fdLimbs.forwardDynamicsDirect(q, v, tau,
                            new double[nv]), at);
            assertFalse(fdLimbs.lastUsedLimbs(), at);
            assertEquals(expected.getMessage(), actual.getMessage(), at);
            assertThrows(org.symdyn.solvers.ConstraintRankException.class, () -> impulses.solveDirect(q, v,
                    new double[nv]), at);
            assertFalse(impulses.lastUsedLimbs(), at);
            // Each method writes the rank test itself: at another state, each reads what the other wrote there.
            double[] other = GeneratedVsGenericTest.randomConfiguration(model, rnd);
            f.limbImpulse(other, v, new double[2], new double[nv], new double[2]);
            double atOther = f.lastLimbRankRatio();
            f.limbImpulse(q, v, new double[2], new double[nv], new double[2]);
            assertEquals(rank, f.lastLimbRankRatio(), 0.0, at);
            f.limbConstrainedDynamics(other, v, tau, new double[2], new double[nv], new double[2]);
            assertEquals(atOther, f.lastLimbRankRatio(), 0.0, at);
            assertTrue(atOther != rank, at + ": another state, another rank ratio " + atOther);
        }
    }

    /**
     * A model's generated class (which must have the limb-eliminated methods) bound twice: {@code limbs} with the
     * default settings, {@code schur} with {@code limbElimination(false)}, the Schur complement's path always.
     */
    private record Twin(LimbConstrainedDynamics f, ConstraintData limbs, ConstraintData schur) {
        static Twin generate(Model model, String className) throws Exception {
            ModelFunctions f = GeneratedVsGenericTest.instance(new CodeGenerator().generate(model,
                    GeneratorOptions.of("test.gen", className)));
            assertTrue(f instanceof LimbConstrainedDynamics, className + ": the rows are carried by limbs");
            ConstraintData schur = ConstraintSet.of(model).bind(f);
            schur.settings().limbElimination(false);
            return new Twin((LimbConstrainedDynamics) f, ConstraintSet.of(model).bind(f), schur);
        }
    }

    /** The largest difference over the scale of {@code expected} (its largest magnitude, at least 1). */
    private static double relativeError(double[] expected, double[] actual) {
        double scale = 1;
        double worst = 0;
        for (int i = 0; i < expected.length; i++) {
            scale = Math.max(scale, Math.abs(expected[i]));
            worst = Math.max(worst, Math.abs(expected[i] - actual[i]));
        }
        return worst / scale;
    }

    /** A four-bar (fixed base, a loop) is not carried by limbs of a floating base: no such method. */
    @Test
    void rowsNotOnLimbsOfAFloatingBaseLeaveItOut() throws Exception {
        ModelFunctions f = GeneratedVsGenericTest.instance(new CodeGenerator().generate(TestMechanisms.fourBar(),
                GeneratorOptions.of("test.gen", "NoLimbsFourBar")));
        assertFalse(f instanceof LimbConstrainedDynamics);
        assertFalse(GeneratedVsGenericTest.instance(new CodeGenerator().generate(CodeGeneratorTest.everyJointType(),
                GeneratorOptions.of("test.gen", "NoLimbsEveryJoint"))) instanceof LimbConstrainedDynamics);
    }
}
