package org.symdyn.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.generator.CodeGenerator;
import org.symdyn.generator.ForwardDynamicsForm;
import org.symdyn.generator.GeneratedClass;
import org.symdyn.generator.GeneratorOptions;
import org.symdyn.generator.InProcessCompiler;
import org.symdyn.generator.KinematicsForm;
import org.symdyn.generator.LimbForm;
import org.symdyn.generator.emit.MethodEmitter;
import org.symdyn.generator.emit.Workspace;
import org.symdyn.model.Frame;
import org.symdyn.model.Model;

/**
 * Interleaved A/B timing of two forms of the generated code in one JVM. {@code --compare trig} (the default): before
 * and after issue 18 (branch-free sine/cosine quadrants and edge side), A with
 * {@code -Dsymdyn.generator.branchyTrig=true} (the pre-issue-18 {@code ?:} quadrant choice) and B as generated now,
 * all five dynamics methods. {@code --compare forward-dynamics} (issue 14): {@code forwardDynamics} only, A through
 * the LᵀDL of H and B by the articulated-body algorithm ({@link ForwardDynamicsForm}). {@code --compare
 * workspace} (issue 14): A with every workspace slot in the array {@code w} and none reused (the form before), B as
 * generated now (slots in fields and reused in methods of {@code Workspace.FIELD_CHUNKS} chunks or more, the
 * smaller methods the same as A), all five methods. {@code --compare limbs} (issue 14): A with every limb unrolled, B
 * with twin limbs computed by calls of their shared code wherever their code is the same
 * ({@link LimbForm#SHARED}, whatever the method's size), for {@code biasForces}, {@code gravityForces},
 * {@code inverseDynamics} and {@code forwardDynamics} (the shared form where the articulated-body algorithm is the
 * chosen one). {@code --compare order} (issue 14): A with every method in first-use order
 * ({@link MethodEmitter#FIRST_USE_ORDER_PROPERTY}), B as generated (the articulated-body forward dynamics in the
 * derivation's order, {@link MethodEmitter.Order#CREATION}), all five methods. {@code --compare kinematics} (issue
 * 34): A with a straight-line kinematics method per body ({@link KinematicsForm#PER_BODY}, the default's form for
 * every shared model and sample), B in the compact form ({@link KinematicsForm#COMPACT}: the kinematics from shared
 * passes over the whole tree), the five methods (the same code on both sides)
 * and five kinematics queries ({@code pointJacobian}, {@code pointPosition}, {@code pointVelocity},
 * {@code pointBiasAcceleration}, {@code bodyPose}) on two bodies: {@code leaf}, the deepest body (the first of the
 * deepest that carries a frame, else the first), and {@code middle}, its ancestor at half its depth (rounded up),
 * each at the origin of its first frame or else at (0.05, 0.02, -0.03) m in its coordinates (the point is a run-time
 * input of both forms: its value does not change the work); before timing, each method of A's first copy is checked against B's first copy (1e-9, relative
 * to the largest entry, at least 1). For each model
 * {@code --copies} (3) classes are generated per side; then rounds of {@code --round-ms} (20) ms call one method of every class in turn (the order rotating each round),
 * {@code --rounds} (100) times per method, and the medians of the per-round ns/call are compared. Interleaving
 * cancels the machine's slow phases, which move separate JMH runs on a shared machine by 10-30 %.
 *
 * <p>Why copies: two classes with identical source, compiled by C2 in the same JVM, differ by up to 9 % on one method
 * (an A/A run, measured 2026-11-24: solo12's inverse dynamics 1.093, forward dynamics 1.042, mass matrix 0.945)
 * because inlining and register allocation depend on compile order and profile. A single A/B pair measures that
 * lottery as much as the code. With copies, A and B are each the median over their copies, and the spread of the
 * copies' medians within one side (max/min) is printed as the compile noise to compare B/A with; the 10-90 % range of
 * the per-round B/A (pooled over copies) is the timing noise.
 *
 * <p>{@code --angles small} (default: joint angles in [−0.5, 0.5], the old code's best case, every branch predicted),
 * {@code circle} (uniform over [−π, π], random quadrants every call) or {@code walk} (a slow random walk over the
 * whole circle, like a moving robot). {@code --models iiwa14_no_collision,solo12} (any of ../shared/models).
 *
 * <p>{@code java -cp benchmarks/target/benchmarks.jar org.symdyn.benchmarks.InterleavedAB --models
 * iiwa14_no_collision,solo12 --angles small --rounds 100 --copies 3}
 */
public final class InterleavedAB {
    private static final String[] METHODS = {"massMatrix", "biasForces", "gravityForces", "inverseDynamics",
        "forwardDynamics"};
    private static final String[] KINEMATICS_METHODS = {"pointJacobian", "pointPosition", "pointVelocity",
        "pointBiasAcceleration", "bodyPose"};
    private static final List<String> COMPARISONS = List.of("trig", "forward-dynamics", "workspace", "limbs", "order",
            "kinematics");
    /** The middle body's point where it carries no frame, m in its coordinates. */
    private static final double[] MIDDLE_POINT = {0.05, 0.02, -0.03};
    private static final int POOL = 256;
    private static final String PACKAGE = "org.symdyn.benchmarks.ab";

    private InterleavedAB() {
    }

    public static void main(String[] args) throws Exception {
        try {
            start(args);
        } catch (MissingInputException e) {
            System.err.println("InterleavedAB: " + e.getMessage());
            System.exit(1);
        }
    }

    private static void start(String[] args) throws Exception {
        List<String> models = List.of("iiwa14_no_collision", "solo12");
        String angles = "small";
        int rounds = 100;
        int roundMs = 20;
        int copies = 3;
        String compare = "trig";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--models" -> models = List.of(args[++i].split(","));
                case "--angles" -> angles = args[++i];
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--round-ms" -> roundMs = Integer.parseInt(args[++i]);
                case "--copies" -> copies = Integer.parseInt(args[++i]);
                case "--compare" -> {
                    compare = args[++i];
                    if (!COMPARISONS.contains(compare)) {
                        throw new IllegalArgumentException("--compare " + String.join("|", COMPARISONS) + ": "
                                + compare);
                    }
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (copies < 1 || rounds < 10) {
            throw new IllegalArgumentException("--copies must be >= 1 and --rounds >= 10");
        }
        boolean forwardDynamics = compare.equals("forward-dynamics");
        System.out.printf("# %s; angles %s; %d copies per side; %d rounds of %d ms per class and method%n",
                switch (compare) {
                    case "forward-dynamics" -> "A = LTDL of H, B = articulated-body algorithm";
                    case "workspace" -> "A = workspace array, B = workspace fields, slots reused";
                    case "limbs" -> "A = limbs unrolled, B = twin limbs call shared code";
                    case "order" -> "A = first-use order everywhere, B = as generated (ABA in creation order)";
                    case "kinematics" -> "A = per-body kinematics (PER_BODY), B = the compact form (COMPACT: shared passes)";
                    default -> "A = branchy (pre-issue-18), B = branch-free";
                }, angles, copies, rounds, roundMs);
        boolean kinematics = compare.equals("kinematics");
        String row = "%-22s %-" + (kinematics ? 28 : 16) + "s %10s %10s %8s %18s %12s %12s%n";
        System.out.printf(row, "model", "method", "A ns", "B ns", "B/A", "B/A rounds p10-p90", "A copies",
                "B copies");
        for (String name : models) {
            Model model = BenchmarkStates.readModel(name);
            ModelFunctions[] classes = new ModelFunctions[2 * copies];
            for (int c = 0; c < copies; c++) {
                String a = "AB_" + name + "_A" + c;
                String b = "AB_" + name + "_B" + c;
                switch (compare) {
                    case "forward-dynamics" -> {
                        classes[2 * c] = generate(model, a, ForwardDynamicsForm.FACTORISED_MASS_MATRIX);
                        classes[2 * c + 1] = generate(model, b, ForwardDynamicsForm.ARTICULATED_BODY);
                    }
                    case "workspace" -> {
                        classes[2 * c] = generateWithArrayWorkspace(model, a, true);
                        classes[2 * c + 1] = generateWithArrayWorkspace(model, b, false);
                    }
                    case "order" -> {
                        classes[2 * c] = generateWith(model, a, MethodEmitter.FIRST_USE_ORDER_PROPERTY, true, x -> true);
                        classes[2 * c + 1] = generateWith(model, b, MethodEmitter.FIRST_USE_ORDER_PROPERTY, false,
                                x -> true);
                    }
                    case "limbs" -> {
                        classes[2 * c] = generate(model, a, LimbForm.UNROLLED);
                        classes[2 * c + 1] = generate(model, b, LimbForm.SHARED);
                    }
                    case "kinematics" -> {
                        classes[2 * c] = KinematicsFormParameter.generate(model, GeneratorOptions.of(PACKAGE, a),
                                KinematicsFormParameter.PER_BODY);
                        classes[2 * c + 1] = KinematicsFormParameter.generate(model, GeneratorOptions.of(PACKAGE, b),
                                KinematicsFormParameter.COMPACT);
                    }
                    default -> {
                        classes[2 * c] = generate(model, a, true);
                        classes[2 * c + 1] = generate(model, b, false);
                    }
                }
            }
            double[][] q = states(model, angles);
            Random rnd = new Random(BenchmarkStates.SEED + 1);
            double[] v = BenchmarkStates.uniform(rnd, model.nv(), 1.0);
            double[] x = BenchmarkStates.uniform(rnd, model.nv(), 1.0);
            List<String> methods = new ArrayList<>(forwardDynamics ? List.of("forwardDynamics")
                    : compare.equals("limbs") ? List.of("biasForces", "gravityForces", "inverseDynamics",
                        "forwardDynamics")
                    : List.of(METHODS));
            Query leaf = null;
            Query middle = null;
            if (kinematics) {
                leaf = leaf(model);
                middle = middle(model, leaf.body());
                System.out.printf("# %s: leaf = body %s (depth %d), point %s; middle = body %s (depth %d), point %s%n",
                        name, model.body(leaf.body()).name(), depth(model, leaf.body()),
                        Arrays.toString(leaf.point()), model.body(middle.body()).name(),
                        depth(model, middle.body()), Arrays.toString(middle.point()));
                for (String at : List.of("leaf", "middle")) {
                    for (String m : KINEMATICS_METHODS) {
                        methods.add(m + "/" + at);
                    }
                }
            }
            for (String method : methods) {
                Runnable[] calls = new Runnable[classes.length];
                double[][][] outputs = new double[classes.length][][];
                int[] k = new int[1];
                String[] nameAndBody = method.split("/");
                Query at = nameAndBody.length == 1 ? null : nameAndBody[1].equals("leaf") ? leaf : middle;
                for (int i = 0; i < classes.length; i++) {
                    ModelFunctions d = classes[i];
                    DMatrixRMaj h = new DMatrixRMaj(model.nv(), model.nv());
                    DMatrixRMaj jacobian = new DMatrixRMaj(3, model.nv());
                    double[] out = new double[model.nv()];
                    double[] rotation = new double[9];
                    double[] position = new double[3];
                    outputs[i] = new double[][] {h.data, jacobian.data, out, rotation, position};
                    calls[i] = switch (nameAndBody[0]) {
                        case "massMatrix" -> () -> d.massMatrix(q[k[0]++ & (POOL - 1)], h);
                        case "biasForces" -> () -> d.biasForces(q[k[0]++ & (POOL - 1)], v, out);
                        case "gravityForces" -> () -> d.gravityForces(q[k[0]++ & (POOL - 1)], out);
                        case "inverseDynamics" -> () -> d.inverseDynamics(q[k[0]++ & (POOL - 1)], v, x, out);
                        case "forwardDynamics" -> () -> d.forwardDynamics(q[k[0]++ & (POOL - 1)], v, x, out);
                        case "pointJacobian" -> () -> d.pointJacobian(q[k[0]++ & (POOL - 1)], at.body(), at.point(),
                                jacobian);
                        case "pointPosition" -> () -> d.pointPosition(q[k[0]++ & (POOL - 1)], at.body(), at.point(),
                                position);
                        case "pointVelocity" -> () -> d.pointVelocity(q[k[0]++ & (POOL - 1)], v, at.body(),
                                at.point(), position);
                        case "pointBiasAcceleration" -> () -> d.pointBiasAcceleration(q[k[0]++ & (POOL - 1)], v,
                                at.body(), at.point(), position);
                        case "bodyPose" -> () -> d.bodyPose(q[k[0]++ & (POOL - 1)], at.body(), rotation, position);
                        default -> throw new IllegalArgumentException("no call for method " + method);
                    };
                }
                if (kinematics) {
                    requireSameOutputs(name + " " + method, calls, outputs, k);
                }
                // Warm every class (C2) before timing.
                for (int w = 0; w < 3; w++) {
                    for (Runnable call : calls) {
                        timeRound(call, 300);
                    }
                }
                BenchmarkStates.awaitIdleJit(500, 10_000);
                // ns[i][r]: class i in round r; the class order rotates by one each round.
                double[][] ns = new double[classes.length][rounds];
                for (int r = 0; r < rounds; r++) {
                    for (int j = 0; j < classes.length; j++) {
                        int i = (j + r) % classes.length;
                        ns[i][r] = timeRound(calls[i], roundMs);
                    }
                }
                double[] ratio = new double[rounds * copies];
                double[] pooledA = new double[rounds * copies];
                double[] pooledB = new double[rounds * copies];
                double[][] copyMedians = new double[2][copies];
                for (int c = 0; c < copies; c++) {
                    for (int r = 0; r < rounds; r++) {
                        pooledA[c * rounds + r] = ns[2 * c][r];
                        pooledB[c * rounds + r] = ns[2 * c + 1][r];
                        ratio[c * rounds + r] = ns[2 * c + 1][r] / ns[2 * c][r];
                    }
                    copyMedians[0][c] = median(ns[2 * c]);
                    copyMedians[1][c] = median(ns[2 * c + 1]);
                }
                double ma = median(pooledA);
                double mb = median(pooledB);
                Arrays.sort(ratio);
                System.out.printf(row.replace("%10s %10s %8s %18s", "%10.1f %10.1f %8.3f %8.3f-%-9.3f"), name,
                        method, ma, mb,
                        mb / ma, ratio[ratio.length / 10], ratio[ratio.length * 9 / 10], spread(copyMedians[0]),
                        spread(copyMedians[1]));
            }
        }
    }

    /** A body and a point fixed in it (its coordinates, m) that the kinematics queries are timed on. */
    private record Query(int body, double[] point) {
    }

    /**
     * The deepest body (the first of the deepest that carries a frame, else the first) at the origin of its first
     * frame, or at {@link #MIDDLE_POINT} without one.
     */
    static Query leaf(Model model) {
        int best = 0;
        for (int b = 1; b < model.bodyCount(); b++) {
            int d = depth(model, b);
            int bestDepth = depth(model, best);
            if (d > bestDepth || d == bestDepth && frameOrigin(model, best) == null && frameOrigin(model, b) != null) {
                best = b;
            }
        }
        double[] origin = frameOrigin(model, best);
        return new Query(best, origin != null ? origin : MIDDLE_POINT.clone());
    }

    /** The ancestor of {@code leaf} at half its depth, rounded up, at its first frame's origin or MIDDLE_POINT. */
    static Query middle(Model model, int leaf) {
        int target = (depth(model, leaf) + 1) / 2;
        int b = leaf;
        while (depth(model, b) > target) {
            b = model.body(b).parentIndex();
        }
        double[] origin = frameOrigin(model, b);
        return new Query(b, origin != null ? origin : MIDDLE_POINT.clone());
    }

    /** The number of bodies from the root to {@code body}, itself included. */
    static int depth(Model model, int body) {
        int d = 0;
        for (int b = body; b >= 0; b = model.body(b).parentIndex()) {
            d++;
        }
        return d;
    }

    /** The origin of the first frame on {@code body}, in its coordinates; null without a frame. */
    private static double[] frameOrigin(Model model, int body) {
        for (Frame f : model.frames()) {
            if (f.bodyIndex() == body) {
                return f.pose().translationArray();
            }
        }
        return null;
    }

    /**
     * Throws unless A's first copy (class 0) and B's first copy (class 1) give the same outputs, within 1e-9 of the
     * largest entry (at least 1), for the first state of the pool; {@code k} is the calls' state counter.
     */
    private static void requireSameOutputs(String what, Runnable[] calls, double[][][] outputs, int[] k) {
        k[0] = 0;
        calls[0].run();
        k[0] = 0;
        calls[1].run();
        k[0] = 0;
        for (int o = 0; o < outputs[0].length; o++) {
            double[] a = outputs[0][o];
            double[] b = outputs[1][o];
            double scale = 1;
            double diff = 0;
            for (int i = 0; i < a.length; i++) {
                scale = Math.max(scale, Math.abs(a[i]));
                diff = Math.max(diff, Math.abs(a[i] - b[i]));
            }
            if (!(diff <= 1e-9 * scale)) {
                throw new IllegalStateException(what + ": A and B differ by " + diff + " (largest entry " + scale
                        + ")");
            }
        }
    }

    /** "max/min" of the copies' medians, e.g. "1.043" (1.000 with one copy). */
    private static String spread(double[] medians) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        for (double m : medians) {
            lo = Math.min(lo, m);
            hi = Math.max(hi, m);
        }
        return String.format("%.3f", hi / lo);
    }

    /** With {@code branchy}, the sine/cosine form before issue 18 ({@code symdyn.generator.branchyTrig}). */
    static ModelFunctions generate(Model model, String className, boolean branchy) throws Exception {
        return generateWith(model, className, "symdyn.generator.branchyTrig", branchy,
                source -> branchy == source.contains("& 1) == 0 ?"));
    }

    /** With {@code array}, the workspace before issue 14's fields ({@link Workspace#ARRAY_WORKSPACE_PROPERTY}). */
    static ModelFunctions generateWithArrayWorkspace(Model model, String className, boolean array) throws Exception {
        // B may have no field at all (a model without a method of FIELD_CHUNKS chunks): only A is checked.
        return generateWith(model, className, Workspace.ARRAY_WORKSPACE_PROPERTY, array,
                source -> !(array && source.contains("w$0")));
    }

    /**
     * A class generated with the generator's A/B switch {@code property} set to {@code value} (restored after),
     * checked by {@code tookEffect} on its source.
     */
    private static ModelFunctions generateWith(Model model, String className, String property, boolean value,
            java.util.function.Predicate<String> tookEffect) throws Exception {
        String old = System.getProperty(property);
        System.setProperty(property, Boolean.toString(value));
        try {
            GeneratedClass gen = new CodeGenerator().generate(model,
                    GeneratorOptions.of(PACKAGE, className));
            if (!tookEffect.test(gen.source())) {
                throw new IllegalStateException("the switch " + property + " had no effect on " + className);
            }
            return (ModelFunctions) InProcessCompiler.compile(gen).type().getDeclaredConstructor().newInstance();
        } finally {
            if (old == null) {
                System.clearProperty(property);
            } else {
                System.setProperty(property, old);
            }
        }
    }

    static ModelFunctions generate(Model model, String className, ForwardDynamicsForm form) throws Exception {
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of(PACKAGE, className).withForwardDynamics(form));
        return (ModelFunctions) InProcessCompiler.compile(gen).type().getDeclaredConstructor().newInstance();
    }

    /** A class with its limbs in the given form; the shared form must have made calls (else A = B). */
    static ModelFunctions generate(Model model, String className, LimbForm form) throws Exception {
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of(PACKAGE, className).withLimbs(form));
        if (form == LimbForm.SHARED && !gen.source().contains("$limb0(limb$")) {
            throw new IllegalStateException(model.name() + " has no twin limbs whose code is the same");
        }
        return (ModelFunctions) InProcessCompiler.compile(gen).type().getDeclaredConstructor().newInstance();
    }

    static double[][] states(Model model, String angles) {
        Random rnd = new Random(BenchmarkStates.SEED);
        double[][] q = new double[POOL][];
        double[] walk = LatencyBenchmark.wholeCircle(model, rnd);
        for (int i = 0; i < POOL; i++) {
            switch (angles) {
                case "small" -> {
                    q[i] = BenchmarkStates.randomConfiguration(model, rnd);
                    for (int j = 0; j < q[i].length; j++) {
                        if (!model.qNames().get(j).matches(".*:q[xyzw]$")) {
                            q[i][j] *= 0.5;
                        }
                    }
                }
                case "circle" -> q[i] = LatencyBenchmark.wholeCircle(model, rnd);
                case "walk" -> {
                    q[i] = walk.clone();
                    for (int j = 0; j < walk.length; j++) {
                        if (!model.qNames().get(j).matches(".*:q[xyzw]$")) {
                            walk[j] += 0.05 * (2 * rnd.nextDouble() - 1) + 0.02;
                        }
                    }
                }
                default -> throw new IllegalArgumentException("--angles small|circle|walk: " + angles);
            }
        }
        return q;
    }

    /** ns per call over a round of about {@code millis} ms. */
    private static double timeRound(Runnable call, int millis) {
        long end = System.nanoTime() + millis * 1_000_000L;
        long calls = 0;
        long start = System.nanoTime();
        long now;
        do {
            for (int i = 0; i < 64; i++) {
                call.run();
            }
            calls += 64;
            now = System.nanoTime();
        } while (now < end);
        return (double) (now - start) / calls;
    }

    private static double median(double[] x) {
        double[] s = x.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
