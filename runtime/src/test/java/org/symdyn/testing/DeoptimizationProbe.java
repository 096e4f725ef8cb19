package org.symdyn.testing;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.ConstrainedSystemFactorization;
import org.symdyn.contract.ConstraintFunctions;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.FrameKinematics;
import org.symdyn.contract.Kinematics;
import org.symdyn.contract.LimbConstrainedDynamics;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.contract.ModelInfo;

/**
 * The program that {@link DeoptimizationCheck} runs in a fresh JVM (issue 18): it warms generated classes with states
 * of one kind, waits until the JIT is idle, then calls every method with states of the other kind, and reports every
 * deoptimisation of a method of the classes during that second phase (JFR's {@code jdk.Deoptimization} events).
 *
 * <p>Kinds: {@code small} — every scalar coordinate (joint angle, prismatic position, base position) uniform in
 * [−0.5, 0.5], quaternions (floating bases, ball joints: the q names ending in {@code :qx}) rotations of at most
 * 0.5 rad with w &gt; 0, velocities, accelerations and forces in [−1, 1]; {@code large} — coordinates uniform in
 * [−2π, 2π] (every quadrant, both signs, k up to ±4), uniformly random rotations (either sign of w), the rest in
 * [−10, 10]. Every method of {@link Dynamics}, {@link ConstraintFunctions}, {@link FrameKinematics} (every frame),
 * {@link Kinematics} (every body) and {@link ModelFunctions} that the class implements is called in both phases,
 * with every index, so only the state values differ between the phases.
 *
 * <p>Output lines, read by {@link DeoptimizationCheck}: {@code C2 <class> <n>} (methods of the class compiled by C2
 * before the second phase; a check is meaningless without them), {@code DEOPT <class>.<method> reason=...} for each
 * deoptimisation in the second phase, {@code EXTRA <method>} for a public method with array arguments outside the
 * contract (called reflectively), and {@code DONE}.
 *
 * <p>Arguments: {@code small-then-large} or {@code large-then-small}, then the generated classes' names.
 */
public final class DeoptimizationProbe {
    static final String SMALL_THEN_LARGE = "small-then-large";
    static final String LARGE_THEN_SMALL = "large-then-small";

    private static final int POOL = 64;
    private static final int WARM_ROUNDS = 20_000;
    private static final int PROBE_ROUNDS = 3_000;

    private DeoptimizationProbe() {
    }

    /** One generated instance, its calls, and pools of states of both kinds. */
    private static final class Target {
        final String name;
        final List<Runnable> calls = new ArrayList<>();
        final double[] q;
        final double[] v;
        final double[] a;
        final double[][][] pools = new double[2][][];
        final double[][][] vPools = new double[2][][];
        final double[][][] aPools = new double[2][][];

        Target(Object instance, Random rnd) {
            name = instance.getClass().getName();
            ModelInfo info = (ModelInfo) instance;
            int nq = info.nq();
            int nv = info.nv();
            q = new double[nq];
            v = new double[nv];
            a = new double[nv];
            for (int kind = 0; kind < 2; kind++) {
                pools[kind] = new double[POOL][];
                vPools[kind] = new double[POOL][];
                aPools[kind] = new double[POOL][];
                for (int i = 0; i < POOL; i++) {
                    pools[kind][i] = configuration(info, rnd, kind == 1);
                    vPools[kind][i] = uniform(rnd, nv, kind == 1 ? 10 : 1);
                    aPools[kind][i] = uniform(rnd, nv, kind == 1 ? 10 : 1);
                }
            }
            addCalls(instance, nv);
        }

        private void addCalls(Object o, int nv) {
            Set<String> covered = new LinkedHashSet<>();
            // setting parameters is set-up, not a hot path (and setParameters takes one value per parameter)
            names(org.symdyn.contract.ModelParameters.class, covered);
            // Outputs of exactly their lengths (the contract refuses others) and never the same array twice in one call.
            double[] out = new double[nv];
            double[] out6 = new double[6];
            double[] out3 = new double[3];
            double[] point = {0.1, -0.2, 0.3};
            double[] rotation = new double[9];
            double[] position = new double[3];
            if (o instanceof Dynamics d) {
                DMatrixRMaj h = new DMatrixRMaj(nv, nv);
                calls.add(() -> d.massMatrix(q, h));
                calls.add(() -> d.biasForces(q, v, out));
                calls.add(() -> d.gravityForces(q, out));
                calls.add(() -> d.inverseDynamics(q, v, a, out));
                calls.add(() -> d.forwardDynamics(q, v, a, out));
                names(Dynamics.class, covered);
            }
            if (o instanceof ConstraintFunctions c) {
                int rows = c.constraintRows();
                DMatrixRMaj g = new DMatrixRMaj(rows, nv);
                double[] r1 = new double[rows];
                calls.add(() -> c.positionError(q, r1));
                calls.add(() -> c.velocityError(q, v, r1));
                calls.add(() -> c.constraintJacobian(q, g));
                calls.add(() -> c.gamma(q, v, r1));
                names(ConstraintFunctions.class, covered);
            }
            if (o instanceof FrameKinematics f) {
                int frames = ((ModelInfo) o).frameNames().size();
                for (int i = 0; i < frames; i++) {
                    int frame = i;
                    calls.add(() -> f.framePose(q, frame, rotation, position));
                }
                names(FrameKinematics.class, covered);
            }
            if (o instanceof Kinematics k) {
                int bodies = ((ModelInfo) o).bodyNames().size();
                DMatrixRMaj j3 = new DMatrixRMaj(3, nv);
                DMatrixRMaj j6 = new DMatrixRMaj(6, nv);
                for (int i = 0; i < bodies; i++) {
                    int body = i;
                    calls.add(() -> k.bodyPose(q, body, rotation, position));
                    calls.add(() -> k.bodyVelocity(q, v, body, out6));
                    calls.add(() -> k.bodyAcceleration(q, v, a, body, out6));
                    calls.add(() -> k.pointPosition(q, body, point, position));
                    calls.add(() -> k.pointVelocity(q, v, body, point, out3));
                    calls.add(() -> k.pointAcceleration(q, v, a, body, point, out3));
                    calls.add(() -> k.pointBiasAcceleration(q, v, body, point, out3));
                    calls.add(() -> k.pointJacobian(q, body, point, j3));
                    calls.add(() -> k.bodyJacobian(q, body, j6));
                }
                names(Kinematics.class, covered);
            }
            if (o instanceof ModelFunctions m) {
                int rows = m.constraintRows();
                DMatrixRMaj h = new DMatrixRMaj(nv, nv);
                DMatrixRMaj g = new DMatrixRMaj(rows, nv);
                double[] gamma = new double[rows];
                double[] phi = new double[rows];
                double[] phidot = new double[rows];
                calls.add(() -> m.constrainedSystem(q, v, h, out, g, gamma));
                calls.add(() -> m.constrainedSystem(q, v, h, out, g, gamma, phi, phidot));
                calls.add(() -> m.impulseSystem(q, h, g));
                names(ModelFunctions.class, covered);
                if (o instanceof ConstrainedSystemFactorization f) {
                    // On the H and G of this state, as the solvers call it.
                    double[] x = new double[nv];
                    double[] y = new double[rows];
                    calls.add(() -> {
                        m.constrainedSystem(q, v, h, out, g, gamma);
                        f.factorConstrainedSystem(h, g);
                        f.solveConstrainedSystem(v, gamma, x, y);
                    });
                    names(ConstrainedSystemFactorization.class, covered);
                }
            }
            if (o instanceof LimbConstrainedDynamics l) {
                int rows = l.constraintRows();
                double[] x = new double[nv];
                double[] y = new double[rows];
                double[] target = new double[rows];
                calls.add(() -> l.limbConstrainedDynamics(q, v, a, target, x, y));
                calls.add(() -> l.limbImpulse(q, v, target, x, y));
                names(LimbConstrainedDynamics.class, covered);
            }
            // Public methods with array arguments outside these interfaces (a newer generator's): called
            // reflectively with generous arrays, so that they are probed too.
            for (Method method : o.getClass().getMethods()) {
                if (covered.contains(method.getName()) || method.getDeclaringClass() == Object.class) {
                    continue;
                }
                Class<?>[] types = method.getParameterTypes();
                boolean arrays = false;
                boolean supported = true;
                Object[] args = new Object[types.length];
                for (int i = 0; i < types.length; i++) {
                    if (types[i] == double[].class) {
                        arrays = true;
                        args[i] = i == 0 ? q : (i == 1 ? v : new double[Math.max(64, 6 * nv)]);
                    } else if (types[i] == DMatrixRMaj.class) {
                        arrays = true;
                        args[i] = new DMatrixRMaj(Math.max(6, nv), nv);
                    } else if (types[i] == int.class) {
                        args[i] = 0;
                    } else {
                        supported = false;
                    }
                }
                if (!arrays) {
                    continue;
                }
                System.out.println("EXTRA " + name + "." + method.getName() + (supported ? "" : " (not called)"));
                if (supported) {
                    calls.add(() -> {
                        try {
                            method.invoke(o, args);
                        } catch (ReflectiveOperationException e) {
                            throw new IllegalStateException(method + " failed", e);
                        }
                    });
                }
            }
        }

        /** One round: every call once, at state {@code i} of the pool of {@code kind} (0 small, 1 large). */
        void round(int kind, int i) {
            System.arraycopy(pools[kind][i % POOL], 0, q, 0, q.length);
            System.arraycopy(vPools[kind][i % POOL], 0, v, 0, v.length);
            System.arraycopy(aPools[kind][(i + 7) % POOL], 0, a, 0, a.length);
            for (Runnable call : calls) {
                call.run();
            }
        }
    }

    private static void names(Class<?> type, Set<String> into) {
        for (Method m : type.getMethods()) {
            into.add(m.getName());
        }
    }

    static double[] uniform(Random rnd, int n, double range) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = range * (2 * rnd.nextDouble() - 1);
        }
        return x;
    }

    /** A configuration of the given kind; quaternions at the q names ending in ":qx" (x, y, z, w). */
    static double[] configuration(ModelInfo info, Random rnd, boolean large) {
        List<String> names = info.qNames();
        double[] q = uniform(rnd, names.size(), large ? 2 * Math.PI : 0.5);
        for (int i = 0; i + 3 < names.size(); i++) {
            if (!names.get(i).endsWith(":qx")) {
                continue;
            }
            double[] axis = uniform(rnd, 3, 1);
            double norm = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
            double angle = large ? 2 * Math.PI * rnd.nextDouble() : 0.5 * rnd.nextDouble();
            double sign = large && rnd.nextBoolean() ? -1 : 1; // both covers of the rotation
            double s = Math.sin(angle / 2) / norm;
            q[i] = sign * s * axis[0];
            q[i + 1] = sign * s * axis[1];
            q[i + 2] = sign * s * axis[2];
            q[i + 3] = sign * Math.cos(angle / 2);
            i += 3;
        }
        return q;
    }

    /** Waits until the JIT has compiled nothing for {@code quietMillis} (at most {@code maxMillis}). */
    static void awaitIdleJit(long quietMillis, long maxMillis) throws InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            Thread.sleep(quietMillis);
            return;
        }
        long start = System.nanoTime();
        long last = jit.getTotalCompilationTime();
        long quietSince = System.nanoTime();
        while ((System.nanoTime() - start) / 1_000_000 < maxMillis) {
            Thread.sleep(50);
            long now = jit.getTotalCompilationTime();
            if (now != last) {
                last = now;
                quietSince = System.nanoTime();
            } else if ((System.nanoTime() - quietSince) / 1_000_000 >= quietMillis) {
                return;
            }
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2 || !(args[0].equals(SMALL_THEN_LARGE) || args[0].equals(LARGE_THEN_SMALL))) {
            throw new IllegalArgumentException("usage: small-then-large|large-then-small class...");
        }
        int first = args[0].equals(SMALL_THEN_LARGE) ? 0 : 1;
        Random rnd = new Random(18);
        List<Target> targets = new ArrayList<>();
        Set<String> classes = new LinkedHashSet<>();
        for (int i = 1; i < args.length; i++) {
            Object instance = Class.forName(args[i]).getDeclaredConstructor().newInstance();
            targets.add(new Target(instance, rnd));
            classes.add(args[i]);
        }
        try (Recording recording = new Recording()) {
            recording.enable("jdk.Deoptimization").withoutStackTrace();
            recording.enable("jdk.Compilation").withThreshold(Duration.ZERO).withoutStackTrace();
            recording.start();

            // Phase 1: warm every class with states of the first kind until C2 is done with it.
            for (int pass = 0; pass < 2; pass++) {
                for (Target t : targets) {
                    for (int i = 0; i < (pass == 0 ? WARM_ROUNDS : WARM_ROUNDS / 4); i++) {
                        t.round(first, i);
                    }
                }
                awaitIdleJit(1000, 30_000);
            }
            Instant phase2 = Instant.now();
            // Phase 2: the other kind of states, every call.
            for (Target t : targets) {
                for (int i = 0; i < PROBE_ROUNDS; i++) {
                    t.round(1 - first, i);
                }
            }
            awaitIdleJit(300, 5_000);
            recording.stop();
            Path file = Files.createTempFile("symdyn-deopt", ".jfr");
            try {
                recording.dump(file);
                report(RecordingFile.readAllEvents(file), classes, phase2);
            } finally {
                Files.deleteIfExists(file);
            }
        }
        System.out.println("DONE");
    }

    private static boolean ours(RecordedMethod m, Set<String> classes) {
        if (m == null) {
            return false;
        }
        String type = m.getType().getName();
        int nested = type.indexOf('$');
        String outer = nested < 0 ? type : type.substring(0, nested);
        // The generated classes, and runtime helpers their code inlines (SinCos, BranchFree, ...).
        return classes.contains(outer) || (type.startsWith("org.symdyn.") && !type.startsWith("org.symdyn.testing."));
    }

    private static void report(List<RecordedEvent> events, Set<String> classes, Instant phase2) {
        Map<String, Integer> c2 = new HashMap<>();
        for (String c : classes) {
            c2.put(c, 0);
        }
        for (RecordedEvent e : events) {
            String type = e.getEventType().getName();
            if (type.equals("jdk.Compilation") && e.getEndTime().isBefore(phase2) && e.getBoolean("succeded")
                    && e.getInt("compileLevel") == 4) {
                RecordedMethod m = e.getValue("method");
                String owner = m.getType().getName();
                if (c2.containsKey(owner)) {
                    c2.merge(owner, 1, Integer::sum);
                }
            } else if (type.equals("jdk.Deoptimization") && !e.getStartTime().isBefore(phase2)) {
                RecordedMethod m = e.getValue("method");
                if (ours(m, classes)) {
                    System.out.println("DEOPT " + m.getType().getName() + "." + m.getName() + " reason="
                            + e.getValue("reason") + " action=" + e.getValue("action") + " line="
                            + e.getValue("lineNumber") + " bci=" + e.getValue("bci") + " instruction="
                            + e.getValue("instruction") + " compiler=" + e.getValue("compiler"));
                }
            }
        }
        for (Map.Entry<String, Integer> c : c2.entrySet()) {
            System.out.println("C2 " + c.getKey() + " " + c.getValue());
        }
    }
}
