package org.symdyn.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.cli.StatesReader.PointRequest;
import org.symdyn.cli.StatesReader.State;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.constraints.GenericModel;
import org.symdyn.contract.DynamicsDerivatives;
import org.symdyn.contract.Kinematics;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Frame;
import org.symdyn.model.Model;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code symdyn evaluate}: the dynamics of a model at each state of a states file, as JSON.
 *
 * <pre>
 * {"results": [{
 *   "H": [[...], ...]   mass matrix H(q), nv rows of nv
 *   "C": [...]          bias forces C(q, v): Coriolis, centrifugal and gravity
 *   "g": [...]          gravity forces g(q) = C(q, 0)
 *   "qdd": [...]        forward dynamics v̇ = H⁻¹ (tau - C), constraints ignored
 *   "tau_id": [...]     inverse dynamics H a + C
 *   "body_poses": {"link": {"position": [x, y, z], "rotation": [[...], [...], [...]]}, ...}
 *                       every frame (each link, the root included) in model order; rotation world &lt;- link
 *   "body_jacobians": {"link": [[...], ...], ...}
 *                       every link (frame), as body_poses: its Jacobian, 6 rows of nv, with [ω; v_origin] = J v
 *                       the link frame's angular velocity and origin velocity, both in the link's own coordinates;
 *                       a moving link's is its body's ({@link Kinematics#bodyJacobian}), a link merged into a body
 *                       by fixed joints gets its body's carried to the link frame, a link fixed in the world zeros
 *   "points": [{"position": [3], "velocity": [3], "acceleration": [3], "bias": [3], "jacobian": [[...], ...]}]
 *                       one per entry of the state's "points" (empty when it has none), in its order, all in world
 *                       coordinates: the position of the point; its velocity J v; its classical acceleration
 *                       J a + J̇ v with the state's a as v̇ (gravity excluded); the bias J̇ v (the classical
 *                       acceleration at v̇ = 0); its Jacobian J (3 rows of nv, ṗ = J v). A point given in a frame
 *                       that is not a body is carried to its body's coordinates by the frame's fixed placement;
 *                       a point of a frame on the root link (the world) has velocity, accelerations and Jacobian 0
 * }, ...]}
 * </pre>
 * Every kinematic key comes from the backend's {@link Kinematics} (the generic interpreter or the generated class),
 * through one code path. With {@code --derivatives}, each result also holds {@code dtau_dq}, {@code dtau_dv},
 * {@code dqdd_dq}, {@code dqdd_dv}, {@code Minv}, {@code coriolis_matrix} and {@code regressor}, from the backend's
 * {@link DynamicsDerivatives} ({@link DerivativeFields}; the generated backend is then generated with derivatives).
 *
 * <p>A model with constraints adds, per state (m = constraint rows, in the model's constraint order; see
 * {@link ConstrainedEvaluation} for how the constraints are bound to the backend):
 * <pre>
 *   "G": [[...], ...]   constraint Jacobian G(q), m rows of nv
 *   "gamma": [...]      γ(q, v) with G v̇ = γ: -Ġ v, plus -2α φ̇ - β² φ on the rows of constraints whose model
 *                       element has a baumgarte_time_constant T (α = β = 1/T)
 *   "phi", "phidot"     position error φ(q) and velocity error φ̇(q, v) (= G v)
 *   "qdd_direct", "lambda_direct", "qdd_range_space", "lambda_range_space", "qdd_null_space",
 *   "lambda_null_space", "qdd_recursive", "lambda_recursive"
 *                       constrained forward dynamics of tau by each method: [H Gᵀ; G 0][v̇; -λ] = [tau - C; γ],
 *                       so H v̇ + C = tau + Gᵀ λ; every method gives the same v̇ and λ (recursive: without H, from
 *                       the articulated-body inertias, on the generic backend; the direct method on a generated one)
 *   "v_plus_direct", "impulse_direct", ... "_range_space", "_null_space", "_recursive"
 *                       impulses with the state's v as v⁻ and target velocities 0:
 *                       [H Gᵀ; G 0][v⁺; Λ] = [H v⁻; 0], so H (v⁺ - v⁻) = -Gᵀ Λ; the same Λ for every method
 *   "assembly_q": {"q", "success", "error"}   only when the state has q_init: position assembly from q_init
 *                       (weights, tolerance 1e-12 on ‖φ‖₂, at most 100 Newton steps); the last iterate, whether the
 *                       tolerance was reached, and ‖φ‖₂ there
 *   "assembly_v": {"v"} only when the state has v_init: the v nearest v_init in the weighted norm with G(q) v = 0
 *   "dqdd_dq_constrained", "dqdd_dv_constrained", "dqdd_dtau_constrained", "dlambda_dq", "dlambda_dv",
 *   "dlambda_dtau"      only with --derivatives: ∂v̇ (nv rows) and ∂λ (m rows) of the constrained forward
 *                       dynamics above with respect to q (tangent directions), v and tau, nv columns each
 *                       (ConstrainedDynamicsDerivatives); null, with a constraint error, for dependent rows and
 *                       for line-on-line rows on the generic backend (a generated class differentiates them)
 *   "constraint_errors": [{"keys": [...], "rows": [...], "message": "..."}]
 *                       only when a solve was refused: dependent (redundant) or inconsistent rows, or a singular
 *                       system, at this state; the keys concerned are null, rows names the rows involved
 * </pre>
 * A refused solve does not stop the run: it is also printed on standard error as a
 * {@code path:[line,col] warning: state i: ...} line pointing at the state, and the exit code stays 0. A model without
 * constraints gets none of these keys.
 */
@Command(name = "evaluate", sortOptions = false, usageHelpAutoWidth = true, usageHelpWidth = 100,
        header = "Evaluate the dynamics at given states and print JSON.",
        description = {
            "Mesh files are not loaded (the dynamics never use shapes): no package path is needed.",
            "Prints {\"results\": [...]}, one object per state of the states file:",
            "H mass matrix, C bias forces (Coriolis, centrifugal, gravity), g gravity forces, qdd forward dynamics"
                    + " of tau (constraints ignored), tau_id inverse dynamics of a, body_poses (position, rotation"
                    + " world <- link of every link), body_jacobians (every link: 6 x nv, [w; v_origin] in link"
                    + " coordinates),"
                    + " points (per requested point, in world coordinates: position, velocity, acceleration (gravity"
                    + " excluded), bias (Jdot v), jacobian).",
            "With --derivatives also dtau_dq, dtau_dv (inverse dynamics at q, v, a), dqdd_dq, dqdd_dv, Minv (forward"
                    + " dynamics at q, v, tau), coriolis_matrix (C(q, v) v + g = C, Hdot - 2 C skew) and regressor (nv"
                    + " rows of 10 per body: m, m c, Ixx, Ixy, Iyy, Ixz, Iyz, Izz about the body origin; tau_id ="
                    + " regressor pi); d/dq in the tangent space (rotation vectors in body coordinates, a floating"
                    + " base moved in base coordinates).",
            "A model with constraints adds G, gamma, phi, phidot; qdd_ and lambda_, v_plus_ and impulse_ by the"
                    + " methods direct, range_space, null_space and recursive (without H; on the generated backend the"
                    + " direct method); assembly_q {q, success, error} for a state with"
                    + " q_init, assembly_v {v} for one with v_init; with --derivatives also dqdd_dq_constrained,"
                    + " dqdd_dv_constrained, dqdd_dtau_constrained, dlambda_dq, dlambda_dv, dlambda_dtau. A solve"
                    + " refused for redundant or inconsistent"
                    + " rows leaves its keys null, says why in constraint_errors and warns on standard error (exit"
                    + " code 0)."},
        footer = {"", "States file: {\"states\": [{\"q\": [...], \"v\": [...], \"tau\": [...], \"a\": [...]},"
                + " ...]}; q (nq numbers) is required, v, tau and a (nv numbers each) are zero when missing; a"
                + " quaternion is (x, y, z, w) and is normalised. Optional per state: q_init (nq), v_init (nv),"
                + " weights (nv positive numbers, 1 when missing) for assembly, and points [{\"frame\": NAME,"
                + " \"point\": [x, y, z]}] (a link or frame, the point in its coordinates).",
            "",
            "Exit codes: 0 success, 1 internal error, 2 bad usage, model or states file (every problem printed as"
                    + " path:[line,col] message)."})
final class EvaluateCommand implements CliCommand {
    /** The default backend: the runtime's interpreter. */
    static final String GENERIC = "generic";
    /** The backend through the model's generated class, compiled in memory. */
    static final String GENERATED = "generated";

    @Parameters(paramLabel = "MODEL.urdf", arity = "1", description = "The model file.")
    String model;

    @Option(names = "--states", paramLabel = "FILE", required = true, order = 1,
            description = "The states to evaluate the dynamics at (format below).")
    String states;

    @Option(names = "--backend", paramLabel = "generic|generated", defaultValue = GENERIC, order = 2,
            description = "generic (the default: the runtime's interpreter) or generated (the model's class,"
                    + " generated and compiled in memory; same output).")
    String backend;

    @Option(names = "--derivatives", order = 3,
            description = "Add per state the derivatives of the dynamics, the Coriolis matrix and the regressor"
                    + " (the keys listed above), on either backend.")
    boolean derivatives;

    @Mixin
    QuietOption quiet = new QuietOption();

    @Mixin
    CommonOptions options = new CommonOptions();

    @Override
    public void run(PrintStream out, PrintStream err) throws CliException {
        if (states.isEmpty()) {
            throw CliException.usage("evaluate", "option --states needs a non-empty value");
        }
        if (!backend.equals(GENERIC) && !backend.equals(GENERATED)) {
            throw CliException.badInput("unknown backend '" + backend + "' (available: " + GENERIC + ", "
                    + GENERATED + ")");
        }
        Progress progress = quiet.progress(err);
        Model m = options.load(model);
        List<State> read = StatesReader.read(SymDynCli.path(states), m);
        for (Diagnostic warning : m.warnings()) {
            progress.warning(warning.toString());
        }
        ModelFunctions functions;
        if (backend.equals(GENERATED)) {
            Object generated = GenerateCommand.compileInstance(m, derivatives, progress, model);
            if (!(generated instanceof ModelFunctions f)) {
                throw new IllegalStateException("the generated class " + generated.getClass().getName()
                        + " does not implement " + ModelFunctions.class.getName());
            }
            functions = f;
        } else {
            functions = new GenericModel(m);
        }
        DerivativeFields fields = null;
        if (derivatives) {
            if (!(functions instanceof DynamicsDerivatives d)) {
                throw new IllegalStateException("the backend " + functions.getClass().getName()
                        + " does not implement " + DynamicsDerivatives.class.getName());
            }
            fields = new DerivativeFields(d);
        }
        progress.started(model + ": evaluating " + read.size() + " state" + (read.size() == 1 ? "" : "s"));
        long start = System.nanoTime();
        try (ResultSpool results = new ResultSpool("results")) {
            evaluate(m, functions, read, err, fields, results);
            progress.ended(model + ": evaluated", Progress.millisSince(start));
            results.writeTo(out);
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            throw CliException.badInput("cannot spool the results to a temporary file (" + e.getMessage() + "); free"
                    + " some space in " + System.getProperty("java.io.tmpdir") + " or set -Djava.io.tmpdir");
        }
    }

    /**
     * Evaluates every state.
     *
     * @param backend     the model's functions: {@link org.symdyn.constraints.GenericModel} or a generated class
     * @param err         where the warnings of refused constrained solves go
     * @param derivatives when not null, the keys of {@code evaluate --derivatives} are added to each result
     * @param results     receives each state's result, in order (printed by the caller only if none failed)
     * @throws CliException when a result is not finite (an overflow) or the dynamics cannot be evaluated at a
     *                      state (a singular joint-space inertia there), naming the state (exit code 2)
     */
    static void evaluate(Model model, ModelFunctions backend, List<State> states, PrintStream err,
            DerivativeFields derivatives, ResultSpool results) throws CliException {
        int nv = model.nv();
        int frameCount = model.frames().size();
        DMatrixRMaj h = new DMatrixRMaj(nv, nv);
        double[] c = new double[nv];
        double[] g = new double[nv];
        double[] qdd = new double[nv];
        double[] tauId = new double[nv];
        double[] rotation = new double[9];
        double[] position = new double[3];
        ConstrainedEvaluation constrained = model.constraints().isEmpty() ? null
                : new ConstrainedEvaluation(model, backend, derivatives != null);
        PointKinematics points = new PointKinematics(model, backend);
        List<String> problems = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (int i = 0; i < states.size(); i++) {
            State s = states.get(i);
            try {
                backend.massMatrix(s.q(), h);
                backend.biasForces(s.q(), s.v(), c);
                backend.gravityForces(s.q(), g);
                backend.forwardDynamics(s.q(), s.v(), s.tau(), qdd);
                backend.inverseDynamics(s.q(), s.v(), s.a(), tauId);
            } catch (ArithmeticException e) {
                // the model cannot be simulated at this state (a singular H, say): the input's problem, not a bug
                problems.add(Diagnostic.error(s.location(), "state " + i + ": the dynamics cannot be evaluated: "
                        + e.getMessage()).toString());
                continue;
            }
            List<String> nonFinite = new ArrayList<>();
            List<JsonValue> rows = new ArrayList<>();
            for (int r = 0; r < nv; r++) {
                double[] row = new double[nv];
                for (int k = 0; k < nv; k++) {
                    row[k] = h.get(r, k);
                }
                rows.add(numbers(row, "H[" + r + "]", nonFinite));
            }
            JsonValue.ObjectBuilder result = JsonValue.objectBuilder()
                    .put("H", JsonValue.array(rows))
                    .put("C", numbers(c, "C", nonFinite))
                    .put("g", numbers(g, "g", nonFinite))
                    .put("qdd", numbers(qdd, "qdd", nonFinite))
                    .put("tau_id", numbers(tauId, "tau_id", nonFinite));
            if (derivatives != null) {
                try {
                    derivatives.put(s, result, nonFinite);
                } catch (ArithmeticException e) {
                    problems.add(Diagnostic.error(s.location(), "state " + i + ": the derivatives cannot be"
                            + " evaluated: " + e.getMessage()).toString());
                    continue;
                }
            }
            JsonValue.ObjectBuilder poses = JsonValue.objectBuilder();
            for (int f = 0; f < frameCount; f++) {
                String name = model.frames().get(f).name();
                backend.framePose(s.q(), f, rotation, position);
                List<JsonValue> rotationRows = new ArrayList<>(3);
                for (int r = 0; r < 3; r++) {
                    rotationRows.add(numbers(new double[] {rotation[3 * r], rotation[3 * r + 1], rotation[3 * r + 2]},
                            name + ".rotation", nonFinite));
                }
                poses.put(name, JsonValue.objectBuilder()
                        .put("position", numbers(position, name + ".position", nonFinite))
                        .put("rotation", JsonValue.array(rotationRows))
                        .build());
            }
            result.put("body_poses", poses.build());
            result.put("body_jacobians", points.frameJacobians(s, nonFinite));
            result.put("points", points.points(s, nonFinite));
            List<String> stateWarnings = new ArrayList<>();
            if (constrained != null) {
                List<ConstrainedEvaluation.Failure> failures = new ArrayList<>();
                constrained.evaluate(s, result, nonFinite, failures);
                if (!failures.isEmpty()) {
                    List<JsonValue> entries = new ArrayList<>();
                    for (ConstrainedEvaluation.Failure f : failures) {
                        entries.add(JsonValue.objectBuilder()
                                .put("keys", JsonValue.strings(f.keys()))
                                .put("rows", JsonValue.strings(f.rows()))
                                .put("message", f.message())
                                .build());
                        stateWarnings.add(Diagnostic.warning(s.location(), "state " + i + ": " + f.message()
                                + " (" + String.join(", ", f.keys()) + " set to null)").toString());
                    }
                    result.put("constraint_errors", JsonValue.array(entries));
                }
            }
            if (nonFinite.isEmpty()) {
                warnings.addAll(stateWarnings);
                if (problems.isEmpty()) { // past the first problem nothing is printed: no need to keep results
                    results.add(result.build());
                }
            } else {
                problems.add(Diagnostic.error(s.location(), "state " + i + ": the dynamics gave non-finite values in "
                        + String.join(", ", nonFinite) + " (a result overflowed or is undefined at this state)")
                        .toString());
            }
        }
        for (String warning : warnings) {
            err.println(warning);
        }
        if (!problems.isEmpty()) {
            throw CliException.badInput(problems);
        }
    }

    /** The rows of a matrix as a JSON array of arrays, named {@code what[r]} when not finite. */
    static JsonValue rows(DMatrixRMaj m, String what, List<String> nonFinite) {
        List<JsonValue> rows = new ArrayList<>(m.numRows);
        for (int r = 0; r < m.numRows; r++) {
            double[] row = new double[m.numCols];
            System.arraycopy(m.data, r * m.numCols, row, 0, m.numCols);
            rows.add(numbers(row, what + "[" + r + "]", nonFinite));
        }
        return JsonValue.array(rows);
    }

    /**
     * The body Jacobians and point kinematics of a state, through the {@link Kinematics} of the backend. A point is
     * given in a frame's coordinates; the frame's fixed placement in its body ({@link Frame#pose()}, body &lt;-
     * frame) carries it to the body's coordinates, which {@link Kinematics} takes.
     */
    static final class PointKinematics {
        private final Model model;
        private final Kinematics kinematics;
        private final DMatrixRMaj bodyJacobian;
        private final DMatrixRMaj pointJacobian;

        PointKinematics(Model model, Kinematics kinematics) {
            this.model = model;
            this.kinematics = kinematics;
            bodyJacobian = new DMatrixRMaj(6, model.nv());
            pointJacobian = new DMatrixRMaj(3, model.nv());
        }

        /**
         * {LINK: 6 rows of nv} for every frame of the model (every link), in model order. A frame F fixed in body B
         * at the placement (R, p) (B &lt;- F: x_B = R x_F + p) moves with ω_F = Rᵀ ω_B and
         * v_F = Rᵀ (v_B + ω_B × p), so its Jacobian is [Rᵀ J_ω; Rᵀ (J_v − [p]× J_ω)] of the body's [J_ω; J_v]; a
         * frame whose placement is the identity (a moving link) gets its body's Jacobian as the backend gives it,
         * a frame fixed in the world zeros.
         */
        JsonValue frameJacobians(State s, List<String> nonFinite) {
            JsonValue.ObjectBuilder jacobians = JsonValue.objectBuilder();
            DMatrixRMaj frameJacobian = new DMatrixRMaj(6, model.nv());
            for (Frame frame : model.frames()) {
                String what = "body_jacobians." + frame.name();
                if (frame.bodyIndex() < 0) {
                    frameJacobian.zero();
                    jacobians.put(frame.name(), rows(frameJacobian, what, nonFinite));
                    continue;
                }
                kinematics.bodyJacobian(s.q(), frame.bodyIndex(), bodyJacobian);
                if (frame.pose().isIdentity()) {
                    jacobians.put(frame.name(), rows(bodyJacobian, what, nonFinite));
                    continue;
                }
                double[] r = frame.pose().rotationArray();
                double[] p = frame.pose().translationArray();
                double[] w = new double[3];
                double[] v = new double[3];
                for (int c = 0; c < bodyJacobian.numCols; c++) {
                    for (int i = 0; i < 3; i++) {
                        w[i] = bodyJacobian.get(i, c);
                    }
                    // v_B + ω_B × p
                    v[0] = bodyJacobian.get(3, c) + w[1] * p[2] - w[2] * p[1];
                    v[1] = bodyJacobian.get(4, c) + w[2] * p[0] - w[0] * p[2];
                    v[2] = bodyJacobian.get(5, c) + w[0] * p[1] - w[1] * p[0];
                    for (int i = 0; i < 3; i++) {
                        // row i of Rᵀ is column i of R (row-major)
                        frameJacobian.set(i, c, r[i] * w[0] + r[3 + i] * w[1] + r[6 + i] * w[2]);
                        frameJacobian.set(3 + i, c, r[i] * v[0] + r[3 + i] * v[1] + r[6 + i] * v[2]);
                    }
                }
                jacobians.put(frame.name(), rows(frameJacobian, what, nonFinite));
            }
            return jacobians.build();
        }

        /** One object per requested point, in the state's order. */
        JsonValue points(State s, List<String> nonFinite) {
            List<JsonValue> entries = new ArrayList<>(s.points().size());
            for (int j = 0; j < s.points().size(); j++) {
                entries.add(point(s, s.points().get(j), "points[" + j + "].", nonFinite));
            }
            return JsonValue.array(entries);
        }

        private JsonValue point(State s, PointRequest request, String what, List<String> nonFinite) {
            Frame frame = model.frames().get(request.frame());
            double[] inBody = new double[3];
            frame.pose().transformPoint(request.point(), inBody);
            double[] position = new double[3];
            double[] velocity = new double[3];
            double[] acceleration = new double[3];
            double[] bias = new double[3];
            int body = frame.bodyIndex();
            if (body < 0) {
                // fixed in the world: the frame's placement is its world pose, and nothing moves
                System.arraycopy(inBody, 0, position, 0, 3);
                pointJacobian.zero();
            } else {
                kinematics.pointPosition(s.q(), body, inBody, position);
                kinematics.pointVelocity(s.q(), s.v(), body, inBody, velocity);
                kinematics.pointAcceleration(s.q(), s.v(), s.a(), body, inBody, acceleration);
                kinematics.pointBiasAcceleration(s.q(), s.v(), body, inBody, bias);
                kinematics.pointJacobian(s.q(), body, inBody, pointJacobian);
            }
            return JsonValue.objectBuilder()
                    .put("position", numbers(position, what + "position", nonFinite))
                    .put("velocity", numbers(velocity, what + "velocity", nonFinite))
                    .put("acceleration", numbers(acceleration, what + "acceleration", nonFinite))
                    .put("bias", numbers(bias, what + "bias", nonFinite))
                    .put("jacobian", rows(pointJacobian, what + "jacobian", nonFinite))
                    .build();
        }
    }

    /** The numbers as a JSON array; a non-finite entry is recorded in {@code nonFinite} and written as 0. */
    static JsonValue numbers(double[] values, String what, List<String> nonFinite) {
        double[] copy = values.clone();
        boolean bad = false;
        for (int k = 0; k < copy.length; k++) {
            if (!Double.isFinite(copy[k])) {
                copy[k] = 0;
                bad = true;
            }
        }
        if (bad && !nonFinite.contains(what)) {
            nonFinite.add(what);
        }
        return JsonValue.array(copy);
    }
}
