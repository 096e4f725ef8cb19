package org.symdyn.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.cli.StatesReader.State;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.model.Model;
import org.symdyn.solvers.Assembly;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ConstrainedDynamicsDerivatives;
import org.symdyn.solvers.ConstraintRankAnalysis;
import org.symdyn.solvers.ConstraintRankException;
import org.symdyn.solvers.ConstraintSolverMethod;
import org.symdyn.solvers.ImpulseSolver;

/**
 * The constrained part of {@code symdyn evaluate}: the model's constraints ({@link ConstraintSet#of(Model)}, so with
 * the Baumgarte stabilisation of every constraint that has a {@code baumgarte_time_constant}) bound to the backend,
 * and the solvers of the runtime run on them at each state.
 *
 * <p>Binding: the backend is the model's {@link ModelFunctions} (a generated class, or
 * {@link org.symdyn.constraints.GenericModel}) and is bound alone, with its fused evaluation, so a generated
 * backend's output comes from its generated code alone. Position assembly steps through the joints of the
 * {@link Model} (quaternion coordinates are rotated, not added).
 *
 * <p>Keys added per state (see {@link EvaluateCommand}); a solve the runtime refuses
 * ({@link ConstraintRankException}: dependent or inconsistent rows; {@link ArithmeticException}: a singular system)
 * leaves its keys {@code null} and is recorded as a {@link Failure}; so do constrained derivatives of rows that
 * cannot be differentiated ({@link UnsupportedOperationException}: line-on-line rows on the generic backend; a
 * generated class differentiates its own rows of every kind).
 */
final class ConstrainedEvaluation {
    /** Tolerance on ‖φ‖₂ of position assembly. */
    static final double ASSEMBLY_TOLERANCE = 1e-12;
    /** Iteration limit of position assembly. */
    static final int ASSEMBLY_ITERATIONS = 100;

    /** The keys of the constrained derivatives, in the order of {@link ConstrainedDynamicsDerivatives#compute}. */
    static final List<String> DERIVATIVE_KEYS = List.of("dqdd_dq_constrained", "dqdd_dv_constrained",
            "dqdd_dtau_constrained", "dlambda_dq", "dlambda_dv", "dlambda_dtau");

    /**
     * The four methods with the suffix of their output keys, in output order. RECURSIVE runs without H on the
     * generic backend (the interpreter's articulated inertias); on a generated backend it is the direct method, so
     * its keys repeat the direct ones there ({@link ConstraintSolverMethod#RECURSIVE}).
     */
    private static final Map<ConstraintSolverMethod, String> METHODS = methods();

    /** Solves that failed at one state with one message: the keys left null, the rows involved, the message. */
    record Failure(List<String> keys, List<String> rows, String message) {
    }

    private final ConstraintData set;
    private final ConstrainedDynamics dynamics;
    private final ImpulseSolver impulses;
    private final Assembly assembly;
    private final int m;
    private final int nq;
    private final int nv;
    private final DMatrixRMaj g;
    private final double[] gamma;
    private final double[] phi;
    private final double[] phidot;
    /** With --derivatives: the constrained forward dynamics derivatives and their outputs; else null. */
    private final ConstrainedDynamicsDerivatives derivatives;
    private final DMatrixRMaj[] derivativeOut;
    /** With --derivatives for rows that do not provide them: why (the keys are null at every state); else null. */
    private final String derivativesRefused;

    /**
     * Binds the model's constraint set to a backend.
     *
     * @param model   a model with at least one constraint
     * @param backend the model's functions (generic or generated)
     * @param withDerivatives also the derivatives of the constrained forward dynamics (the backend implements
     *                        {@code DynamicsDerivatives})
     */
    ConstrainedEvaluation(Model model, ModelFunctions backend, boolean withDerivatives) {
        set = ConstraintSet.of(model).bind(backend);
        this.dynamics = new ConstrainedDynamics(set);
        impulses = new ImpulseSolver(set);
        assembly = new Assembly(set);
        m = set.size();
        nq = model.nq();
        nv = model.nv();
        g = new DMatrixRMaj(m, nv);
        gamma = new double[m];
        phi = new double[m];
        phidot = new double[m];
        ConstrainedDynamicsDerivatives d = null;
        String refusal = null;
        if (withDerivatives) {
            try {
                d = new ConstrainedDynamicsDerivatives(set);
            } catch (UnsupportedOperationException e) {
                refusal = e.getMessage();
            }
        }
        derivatives = d;
        derivativesRefused = refusal;
        derivativeOut = new DMatrixRMaj[d == null ? 0 : DERIVATIVE_KEYS.size()];
        for (int i = 0; i < derivativeOut.length; i++) {
            derivativeOut[i] = new DMatrixRMaj(i < 3 ? nv : m, nv);
        }
    }

    /**
     * Adds the constrained keys of one state to {@code result}. A non-finite number is written as 0 and named in
     * {@code nonFinite} (the caller then refuses the state); a refused solve leaves its keys null and is added to
     * {@code failures}.
     */
    void evaluate(State s, JsonValue.ObjectBuilder result, List<String> nonFinite, List<Failure> failures) {
        set.jacobian(s.q(), g);
        List<JsonValue> rows = new ArrayList<>(m);
        for (int r = 0; r < m; r++) {
            double[] row = new double[nv];
            System.arraycopy(g.data, r * nv, row, 0, nv);
            rows.add(EvaluateCommand.numbers(row, "G[" + r + "]", nonFinite));
        }
        set.gamma(s.q(), s.v(), gamma);
        set.positionError(s.q(), phi);
        set.velocityError(s.q(), s.v(), phidot);
        result.put("G", JsonValue.array(rows))
                .put("gamma", EvaluateCommand.numbers(gamma, "gamma", nonFinite))
                .put("phi", EvaluateCommand.numbers(phi, "phi", nonFinite))
                .put("phidot", EvaluateCommand.numbers(phidot, "phidot", nonFinite));

        Map<String, Failure> byMessage = new LinkedHashMap<>();
        double[] x = new double[nv];
        for (Map.Entry<ConstraintSolverMethod, String> method : METHODS.entrySet()) {
            String qddKey = "qdd_" + method.getValue();
            String lambdaKey = "lambda_" + method.getValue();
            try {
                dynamics.forwardDynamics(method.getKey(), s.q(), s.v(), s.tau(), x);
                result.put(qddKey, EvaluateCommand.numbers(x, qddKey, nonFinite))
                        .put(lambdaKey, EvaluateCommand.numbers(set.force(), lambdaKey, nonFinite));
            } catch (ConstraintRankException | ArithmeticException e) {
                result.put(qddKey, JsonValue.nullValue()).put(lambdaKey, JsonValue.nullValue());
                record(byMessage, e, qddKey, lambdaKey);
            }
        }
        for (Map.Entry<ConstraintSolverMethod, String> method : METHODS.entrySet()) {
            String vKey = "v_plus_" + method.getValue();
            String impulseKey = "impulse_" + method.getValue();
            try {
                impulses.solve(method.getKey(), s.q(), s.v(), x);
                result.put(vKey, EvaluateCommand.numbers(x, vKey, nonFinite))
                        .put(impulseKey, EvaluateCommand.numbers(set.impulse(), impulseKey, nonFinite));
            } catch (ConstraintRankException | ArithmeticException e) {
                result.put(vKey, JsonValue.nullValue()).put(impulseKey, JsonValue.nullValue());
                record(byMessage, e, vKey, impulseKey);
            }
        }
        if (derivatives != null) {
            DMatrixRMaj[] o = derivativeOut;
            try {
                derivatives.compute(s.q(), s.v(), s.tau(), o[0], o[1], o[2], o[3], o[4], o[5]);
                for (int i = 0; i < o.length; i++) {
                    result.put(DERIVATIVE_KEYS.get(i), EvaluateCommand.rows(o[i], DERIVATIVE_KEYS.get(i), nonFinite));
                }
            } catch (ConstraintRankException | ArithmeticException e) {
                putNullDerivatives(result);
                record(byMessage, e, DERIVATIVE_KEYS.toArray(new String[0]));
            }
        } else if (derivativesRefused != null) {
            putNullDerivatives(result);
            record(byMessage, new UnsupportedOperationException(derivativesRefused),
                    DERIVATIVE_KEYS.toArray(new String[0]));
        }
        if (s.qInit() != null) {
            result.put("assembly_q", assembleQ(s, byMessage));
        }
        if (s.vInit() != null) {
            double[] v = new double[nv];
            try {
                assembly.assembleV(s.q(), s.vInit(), s.weightsOrOnes(), v);
                result.put("assembly_v", JsonValue.objectBuilder()
                        .put("v", EvaluateCommand.numbers(v, "assembly_v.v", nonFinite))
                        .build());
            } catch (ConstraintRankException | ArithmeticException e) {
                result.put("assembly_v", JsonValue.nullValue());
                record(byMessage, e, "assembly_v");
            }
        }
        failures.addAll(byMessage.values());
    }

    /** True if the recursive keys come from the method without H (false: the direct method under their name). */
    boolean recursiveWithoutH() {
        return dynamics.recursiveMethod() != null && impulses.recursiveMethod() != null;
    }

    /**
     * {@code {"q", "success", "error"}}: the last iterate and ‖φ‖₂ there, also when the iteration limit was reached
     * (success false). An iteration that diverges to non-finite values gives q and error null, success false.
     */
    private JsonValue assembleQ(State s, Map<String, Failure> byMessage) {
        double[] q = new double[nq];
        boolean success;
        try {
            success = assembly.assembleQ(s.qInit(), s.weightsOrOnes(), ASSEMBLY_TOLERANCE, ASSEMBLY_ITERATIONS, q);
        } catch (ConstraintRankException | ArithmeticException e) {
            record(byMessage, e, "assembly_q");
            return JsonValue.nullValue();
        }
        double error = assembly.lastError();
        boolean finite = Double.isFinite(error);
        for (double x : q) {
            finite &= Double.isFinite(x);
        }
        return JsonValue.objectBuilder()
                .put("q", finite ? JsonValue.array(q) : JsonValue.nullValue())
                .put("success", JsonValue.of(success && finite))
                .put("error", finite ? JsonValue.of(error) : JsonValue.nullValue())
                .build();
    }

    private static void putNullDerivatives(JsonValue.ObjectBuilder result) {
        for (String key : DERIVATIVE_KEYS) {
            result.put(key, JsonValue.nullValue());
        }
    }

    private static void record(Map<String, Failure> byMessage, RuntimeException e, String... keys) {
        String message = message(e);
        Failure f = byMessage.get(message);
        if (f == null) {
            List<String> rows = e instanceof ConstraintRankException r ? r.involvedRows() : List.of();
            f = new Failure(new ArrayList<>(), rows, message);
            byMessage.put(message, f);
        }
        f.keys().addAll(List.of(keys));
    }

    /** The runtime's explanation, without its hint at a Java setting the command line does not offer. */
    private static String message(RuntimeException e) {
        String text = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return text.replace(ConstraintRankAnalysis.HINT, "");
    }

    private static Map<ConstraintSolverMethod, String> methods() {
        Map<ConstraintSolverMethod, String> methods = new LinkedHashMap<>();
        methods.put(ConstraintSolverMethod.DIRECT, "direct");
        methods.put(ConstraintSolverMethod.RANGE_SPACE_SPARSE, "range_space");
        methods.put(ConstraintSolverMethod.NULL_SPACE, "null_space");
        methods.put(ConstraintSolverMethod.RECURSIVE, "recursive");
        return methods;
    }
}
