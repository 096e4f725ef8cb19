package org.symdyn.rollout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.GenericModel;
import org.symdyn.contact.ContactReport;
import org.symdyn.model.Model;
import org.symdyn.systems.PdServo;
import org.symdyn.systems.TimeSteppingSystem;

class RolloutsTest {
    private static final Model MODEL = RolloutModels.bipedBox();
    private static final GenericModel GENERIC = new GenericModel(MODEL);

    /** The final state and the IMU's last (noisy) reading, as raw bits. */
    record Bits(long[] bits) {
        static Supplier<RolloutObserver<Bits>> observer() {
            return () -> new RolloutObserver<>() {
                @Override
                public void afterStep(long step, TimeSteppingSystem system, ContactReport report) {
                }

                @Override
                public Bits finish(TimeSteppingSystem system) {
                    double[] q = system.q();
                    double[] v = system.v();
                    double[] imu = system.reading("imu");
                    long[] b = new long[1 + q.length + v.length + imu.length];
                    int k = 0;
                    b[k++] = Double.doubleToRawLongBits(system.time());
                    for (double x : q) {
                        b[k++] = Double.doubleToRawLongBits(x);
                    }
                    for (double x : v) {
                        b[k++] = Double.doubleToRawLongBits(x);
                    }
                    for (double x : imu) {
                        b[k++] = Double.doubleToRawLongBits(x);
                    }
                    return new Bits(b);
                }
            };
        }

        String hex() {
            StringBuilder s = new StringBuilder();
            for (long x : bits) {
                s.append(Long.toHexString(x)).append(' ');
            }
            return s.toString().trim();
        }
    }

    private static List<String> run(List<RolloutSpec> specs, int threads) {
        Rollouts rollouts = Rollouts.builder(GENERIC, SystemFactory.of(MODEL)).threads(threads).build();
        List<String> out = new ArrayList<>();
        for (RolloutResult<Bits> r : rollouts.run(specs, Bits.observer())) {
            assertFalse(r.failed(), () -> "rollout " + r.index() + ": " + r.failure());
            out.add(r.outcome().hex());
        }
        return out;
    }

    @Test
    void sameBitsWhateverTheThreadCountAndTheOrder() {
        List<RolloutSpec> specs = RolloutModels.drops(16, 11, 0.4);
        List<String> one = run(specs, 1);
        assertEquals(one, run(specs, 2));
        assertEquals(one, run(specs, 3));
        List<RolloutSpec> reversed = new ArrayList<>(specs);
        Collections.reverse(reversed);
        List<String> back = run(reversed, 2);
        Collections.reverse(back);
        assertEquals(one, back);
        // the batch is not trivial: the rollouts differ from each other and the IMU's noise differs by seed
        assertEquals(specs.size(), one.stream().distinct().count());
    }

    @Test
    void sameBitsInAnotherJvmThatOnlyInterprets() throws IOException, InterruptedException {
        // another JVM, without a JIT (-Xint): no compiled code, no intrinsic that compiled code could use differently
        List<RolloutSpec> specs = RolloutModels.drops(4, 23, 0.15);
        List<String> here = run(specs, 2);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xint", "-cp", System.getProperty("java.class.path"),
                ChildJvm.class.getName()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the child JVM did not finish");
        assertEquals(0, p.exitValue(), output);
        assertEquals(String.join("\n", here), output.strip());
    }

    /** The other JVM of {@link #sameBitsInAnotherJvmThatOnlyInterprets}: prints the same batch's bits. */
    static final class ChildJvm {
        public static void main(String[] args) {
            System.out.println(String.join("\n", run(RolloutModels.drops(4, 23, 0.15), 1)));
        }
    }

    /**
     * A parameter the model declares is set on the interpreter as on a generated class: a rollout with the trunk's
     * mass at 7 kg ends where the same rollout of the file with 7 kg written in it ends, and the next rollout on the
     * same worker is back at the declared 5 kg.
     */
    @Test
    void aDeclaredParameterIsSetOnTheInterpreter() throws Exception {
        String declared = RolloutModels.URDF.replace("</robot>",
                "  <symdyn:parameter name=\"trunkMass\" link=\"trunk\" field=\"mass\"/>\n</robot>");
        Model model = org.symdyn.io.urdf.UrdfReader.parse(declared, "biped_box.urdf", null);
        Model heavy = org.symdyn.io.urdf.UrdfReader.parse(declared.replace("<mass value=\"5\"/>",
                "<mass value=\"7\"/>"), "biped_box.urdf", null);
        RolloutSpec base = RolloutModels.drops(1, 9, 0.2).get(0);
        List<RolloutSpec> specs = List.of(base.withParameter("trunkMass", 7.0), base);
        List<RolloutResult<FinalState>> set = Rollouts.builder(new GenericModel(model), SystemFactory.of(model))
                .threads(1).build().run(specs, Outcomes.finalState());
        List<RolloutResult<FinalState>> written = Rollouts.builder(new GenericModel(heavy),
                SystemFactory.of(heavy)).threads(1).build().run(List.of(base), Outcomes.finalState());
        List<RolloutResult<FinalState>> plain = Rollouts.builder(new GenericModel(model), SystemFactory.of(model))
                .threads(1).build().run(List.of(base), Outcomes.finalState());
        for (RolloutResult<FinalState> r : List.of(set.get(0), set.get(1), written.get(0), plain.get(0))) {
            assertFalse(r.failed(), () -> r.failure().toString());
        }
        double[] q7 = set.get(0).outcome().q();
        double[] q5 = set.get(1).outcome().q();
        for (int i = 0; i < q7.length; i++) {
            assertEquals(written.get(0).outcome().q()[i], q7[i], 1e-9, "q[" + i + "] at 7 kg");
            assertEquals(plain.get(0).outcome().q()[i], q5[i], 0, "q[" + i + "] back at 5 kg");
        }
        double apart = 0;
        for (int i = 0; i < q7.length; i++) {
            apart = Math.max(apart, Math.abs(q7[i] - q5[i]));
        }
        assertTrue(apart > 1e-6, "the mass changes the motion: " + apart);
    }

    @Test
    void aFailingRolloutIsReportedAndTheOthersComplete() {
        List<RolloutSpec> good = RolloutModels.drops(3, 5, 0.1);
        double[] q0 = good.get(0).q0();
        double[] v0 = good.get(0).v0();
        double[] nanQ = q0.clone();
        nanQ[2] = Double.NaN;
        List<RolloutSpec> specs = List.of(good.get(0),
                RolloutSpec.of(nanQ, v0, 0.1, 1e-3),
                RolloutSpec.of(new double[3], v0, 0.1, 1e-3),
                good.get(1).withParameter("kp", Double.NaN),
                good.get(1).withParameter("stiffness", 3),
                RolloutSpec.of(q0, v0, 0.1, 0),
                RolloutSpec.of(q0, v0, 0.1, 1e-3).withParameter("target.servo_l", 0.2),
                good.get(2));
        // rollout 6 gets a controller that writes a NaN torque at its 10th step
        Controller.Factory controllers = (spec, system) -> spec.parameters().containsKey("target.servo_l")
                ? s -> {
                    if (s.stepCount() == 10) {
                        s.input()[6] = Double.NaN;
                    }
                } : Controller.NONE;
        List<RolloutResult<FinalState>> results = Rollouts.builder(GENERIC, SystemFactory.of(MODEL)).threads(2)
                .controller(controllers).build().run(specs, Outcomes.finalState());
        for (int i : new int[] {0, 7}) {
            assertFalse(results.get(i).failed(), () -> results.get(i).failure().toString());
            assertNotNull(results.get(i).outcome());
            assertEquals(100, results.get(i).steps());
            assertEquals(0.1, results.get(i).outcome().time()); // counted on the grid, not summed
        }
        assertFailure(results.get(1), RolloutFailure.Kind.INVALID_SPEC, "NaN");
        assertFailure(results.get(2), RolloutFailure.Kind.INVALID_SPEC, "nq = 9");
        assertFailure(results.get(3), RolloutFailure.Kind.INVALID_SPEC, "kp");
        assertFailure(results.get(4), RolloutFailure.Kind.INVALID_SPEC, "unknown parameter");
        assertTrue(results.get(4).failure().message().contains("kp.servo_l"), results.get(4).failure().message());
        assertFailure(results.get(5), RolloutFailure.Kind.INVALID_SPEC, "time step");
        RolloutResult<FinalState> tooLong = Rollouts.builder(GENERIC, SystemFactory.of(MODEL)).build()
                .run(List.of(RolloutSpec.of(q0, v0, 1e10, 1e-9)), Outcomes.finalState()).get(0);
        assertFailure(tooLong, RolloutFailure.Kind.INVALID_SPEC, "a rollout may take");
        assertFailure(results.get(6), RolloutFailure.Kind.NON_FINITE_STATE, "");
        assertEquals(10, results.get(6).failure().step());
        assertEquals(0.010, results.get(6).failure().time(), 1e-12);
        for (int i = 0; i < specs.size(); i++) {
            assertEquals(i, results.get(i).index());
            assertEquals(specs.get(i), results.get(i).spec());
        }
    }

    private static void assertFailure(RolloutResult<?> r, RolloutFailure.Kind kind, String inMessage) {
        assertTrue(r.failed(), () -> "rollout " + r.index() + " should have failed");
        assertNull(r.outcome());
        assertEquals(kind, r.failure().kind(), r.failure().toString());
        assertTrue(r.failure().message().contains(inMessage), r.failure().message());
    }

    @Test
    void aThrowingControllerFailsItsRolloutOnly() {
        List<RolloutSpec> specs = RolloutModels.drops(4, 8, 0.05);
        RolloutSpec bad = specs.get(2);
        List<RolloutResult<FinalState>> results = Rollouts.builder(GENERIC, SystemFactory.of(MODEL)).threads(2)
                .controller((spec, system) -> spec.equals(bad) ? s -> {
                    throw new IllegalStateException("controller lost");
                } : Controller.NONE).build().run(specs, Outcomes.finalState());
        assertFailure(results.get(2), RolloutFailure.Kind.EXCEPTION, "controller lost");
        assertEquals(0, results.get(2).failure().step());
        assertEquals(3, results.stream().filter(r -> !r.failed()).count());
    }

    /** A helper's findings: each of these crashed the batch, completed wrongly or went on silently. */
    @Test
    void divergenceCheckedExceptionsThreadBoundsAndAnInterruptedRun() throws Exception {
        List<RolloutSpec> specs = RolloutModels.drops(4, 9, 0.05);
        // a state that runs away while finite (a controller pushing 1e12 N·m) is DIVERGED, not completed
        RolloutSpec pushed = specs.get(1);
        List<RolloutResult<FinalState>> results = Rollouts.builder(GENERIC, SystemFactory.of(MODEL)).threads(2)
                .controller((spec, system) -> spec.equals(pushed) ? s -> s.input()[6] = 1e12 : spec.equals(specs.get(2))
                        ? s -> sneakyThrow(new java.io.IOException("a checked exception, undeclared"))
                        : Controller.NONE).build().run(specs, Outcomes.finalState());
        assertFailure(results.get(1), RolloutFailure.Kind.DIVERGED, "beyond 1000000.0");
        assertFailure(results.get(2), RolloutFailure.Kind.EXCEPTION, "IOException");
        assertFalse(results.get(0).failed() || results.get(3).failed());
        IllegalArgumentException threads = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> Rollouts.builder(GENERIC, SystemFactory.of(MODEL))
                        .threads(Integer.MAX_VALUE));
        assertTrue(threads.getMessage().contains("1 to " + Rollouts.Builder.MAX_THREADS), threads.getMessage());
        // an interrupted run leaves its workers' models to them: the next run gets fresh ones, and the same answers
        List<RolloutSpec> long4 = RolloutModels.drops(4, 11, 0.5);
        Rollouts reused = Rollouts.builder(() -> new GenericModel(MODEL), SystemFactory.of(MODEL)).threads(2)
                .build();
        List<RolloutResult<FinalState>> clean = reused.run(long4, Outcomes.finalState());
        Thread.currentThread().interrupt(); // the run's wait for its workers ends at once, while they still run
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> reused.run(long4, Outcomes.finalState()));
        assertTrue(Thread.interrupted(), "the interrupt is kept");
        List<RolloutResult<FinalState>> again = reused.run(long4, Outcomes.finalState());
        for (int i = 0; i < long4.size(); i++) {
            assertFalse(again.get(i).failed(), () -> again.toString());
            org.junit.jupiter.api.Assertions.assertArrayEquals(clean.get(i).outcome().q(), again.get(i).outcome().q());
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> void sneakyThrow(Throwable e) throws E {
        throw (E) e;
    }

    @Test
    void frictionDecidesWhetherASlidingBodyStops() {
        // standing on both feet and the trunk's corners lifted: slide along x at 1 m/s
        double[] q0 = {0, 0, 0.25, 0, 0, 0, 1, 0, 0};
        double[] v0 = new double[8];
        v0[3] = 1;
        RolloutSpec slide = RolloutSpec.of(q0, v0, 0.5, 1e-3);
        List<RolloutResult<FinalState>> results = Rollouts.builder(GENERIC, SystemFactory.of(MODEL)).threads(1)
                .build().run(List.of(slide.withParameter("friction", 0), slide.withParameter("friction", 1)),
                        Outcomes.finalState());
        double xFrictionless = results.get(0).outcome().q()[0];
        double xRough = results.get(1).outcome().q()[0];
        // without friction nothing acts along x (the floor pushes along z only): x = 1 m/s * 0.5 s
        assertEquals(0.5, xFrictionless, 1e-9);
        // μ = 1 stops the feet within v² / (2 μ g) ≈ 0.05 m (the trunk then tips, but stays near)
        assertTrue(xRough < 0.15, () -> "x = " + xRough);
    }

    @Test
    void servoParametersReachTheServos() {
        RolloutSpec spec = RolloutModels.drops(1, 2, 0.001).get(0).withParameter("kd", 7).withParameter("kp.servo_r",
                123).withParameter("target.servo_l", -0.25);
        List<double[]> seen = new ArrayList<>();
        Rollouts.builder(GENERIC, SystemFactory.of(MODEL)).threads(1).controller((s, system) -> {
            PdServo l = system.actuator("servo_l", PdServo.class);
            PdServo r = system.actuator("servo_r", PdServo.class);
            seen.add(new double[] {l.kp(), l.kd(), l.target(), r.kp(), r.kd(), r.target()});
            return Controller.NONE;
        }).build().run(List.of(spec), Outcomes.finalState());
        double kp = spec.parameters().get("kp");
        assertEquals(List.of(kp, 7.0, -0.25, 123.0, 7.0, 0.0), java.util.Arrays.stream(seen.get(0)).boxed().toList());
    }

    @Test
    void outcomes() {
        RolloutSpec drop = RolloutSpec.of(new double[] {0, 0, 0.5, 0, 0, 0, 1, 0, 0}, new double[8], 0.0355, 1e-3);
        assertEquals(36, drop.stepCount());
        Rollouts rollouts = Rollouts.builder(GENERIC, SystemFactory.of(MODEL)).threads(1).build();
        Trajectory tr = rollouts.run(List.of(drop), Outcomes.trajectory(10)).get(0).outcome();
        // initial state, steps 10, 20, 30, and the final state at 0.0355 s
        assertEquals(5, tr.size());
        assertEquals(0, tr.time()[0]);
        assertEquals(0.5, tr.q()[0][2]);
        assertEquals(10 * 1e-3, tr.time()[1]); // on the grid, not a sum of steps
        assertEquals(0.0355, tr.time()[4]);
        FinalState end = rollouts.run(List.of(drop), Outcomes.finalState()).get(0).outcome();
        assertEquals(java.util.Arrays.toString(end.q()), java.util.Arrays.toString(tr.q()[4]));

        // a free fall until the feet (0.25 m below the trunk's origin at q = 0) reach the floor: t = sqrt(2 d / g)
        double d = 0.5 - 0.25;
        RolloutSpec fall = RolloutSpec.of(new double[] {0, 0, 0.5, 0, 0, 0, 1, 0, 0}, new double[8], 0.4, 1e-3);
        double first = rollouts.run(List.of(fall), Outcomes.firstContactTime()).get(0).outcome();
        assertEquals(Math.sqrt(2 * d / 9.81), first, 2e-3, "first contact within two steps of the free-fall time");

        // the running cost of the trunk's height equals the sum over the trajectory's samples taken every step
        double cost = rollouts.run(List.of(drop), Outcomes.runningCost((t, q, v) -> q[2])).get(0).outcome();
        Trajectory every = rollouts.run(List.of(drop), Outcomes.trajectory(1)).get(0).outcome();
        double sum = 0;
        for (int k = 1; k < every.size(); k++) {
            sum += every.q()[k][2] * (every.time()[k] - every.time()[k - 1]);
        }
        assertEquals(sum, cost, 1e-15);
        assertThrows(IllegalArgumentException.class, () -> Outcomes.trajectory(0));
    }

    @Test
    void stepsEndExactlyAtTheDuration() {
        assertEquals(1000, RolloutSpec.of(new double[9], new double[8], 1.0, 1e-3).stepCount());
        RolloutSpec odd = RolloutSpec.of(new double[9], new double[8], 0.0105, 1e-3);
        assertEquals(11, odd.stepCount());
        assertEquals(1e-3, odd.stepSize(9, 11));
        assertEquals(0.0005, odd.stepSize(10, 11), 1e-15);
        assertEquals(0, RolloutSpec.of(new double[9], new double[8], 0, 1e-3).stepCount());
        // past 2^52 steps the count is refused, not wrapped round to Long.MIN_VALUE (a "completed" rollout at t = 0)
        assertEquals(0, RolloutSpec.of(new double[9], new double[8], 1e10, 1e-9).stepCount());
        assertEquals(0, RolloutSpec.of(new double[9], new double[8], Double.MAX_VALUE, 1e-300).stepCount());
        assertEquals(RolloutSpec.MAX_STEPS, RolloutSpec.of(new double[9], new double[8], RolloutSpec.MAX_STEPS, 1)
                .stepCount());
    }

    @Test
    void theListenerHearsEveryRolloutOnce() {
        List<Integer> done = Collections.synchronizedList(new ArrayList<>());
        List<RolloutSpec> specs = RolloutModels.drops(6, 4, 0.02);
        Rollouts.builder(GENERIC, SystemFactory.of(MODEL)).threads(2)
                .listener((r, count, total) -> {
                    assertEquals(6, total);
                    done.add(count);
                }).build().run(specs, Outcomes.finalState());
        assertEquals(List.of(1, 2, 3, 4, 5, 6), done);
    }

    @Test
    void specsAreValuesAndParametersSorted() {
        TreeMap<String, Double> p = new TreeMap<>(java.util.Comparator.reverseOrder());
        p.put("kp.servo_l", 1.0);
        p.put("kp", 2.0);
        RolloutSpec a = new RolloutSpec(new double[9], new double[8], p, 1, 1, 1e-3);
        assertEquals(List.of("kp", "kp.servo_l"), new ArrayList<>(a.parameters().keySet()));
        RolloutSpec b = RolloutSpec.of(new double[9], new double[8], 1, 1e-3).withParameter("kp.servo_l", 1)
                .withParameter("kp", 2).withSeed(1);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        // any map will do: the spec keeps a sorted copy
        RolloutSpec c = new RolloutSpec(new double[9], new double[8], java.util.Map.of("kp.servo_l", 1.0, "kp", 2.0,
                "friction", 0.5), 1, 1, 1e-3);
        assertEquals(List.of("friction", "kp", "kp.servo_l"), new ArrayList<>(c.parameters().keySet()));
        assertThrows(UnsupportedOperationException.class, () -> c.parameters().put("kd", 1.0));
        double[] q = a.q0();
        q[0] = 5;
        assertEquals(0, a.q0()[0]);
    }
}
