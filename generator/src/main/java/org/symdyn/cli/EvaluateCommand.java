package org.symdyn.cli;

import java.util.ArrayList;
import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.cli.StatesReader.State;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.dynamics.Dynamics;
import org.symdyn.kinematics.FrameKinematics;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;

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
 * }, ...]}
 * </pre>
 */
final class EvaluateCommand {
    private EvaluateCommand() {
    }

    /**
     * Evaluates every state.
     *
     * @throws CliException when a result is not finite (inputs too large), naming the state (exit code 2)
     */
    static JsonValue evaluate(Model model, Dynamics dynamics, FrameKinematics kinematics, List<State> states)
            throws CliException {
        int nv = model.nv();
        int frameCount = model.frames().size();
        DMatrixRMaj h = new DMatrixRMaj(nv, nv);
        double[] c = new double[nv];
        double[] g = new double[nv];
        double[] qdd = new double[nv];
        double[] tauId = new double[nv];
        double[] rotation = new double[9];
        double[] position = new double[3];
        List<JsonValue> results = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < states.size(); i++) {
            State s = states.get(i);
            dynamics.massMatrix(s.q(), h);
            dynamics.biasForces(s.q(), s.v(), c);
            dynamics.gravityForces(s.q(), g);
            dynamics.forwardDynamics(s.q(), s.v(), s.tau(), qdd);
            dynamics.inverseDynamics(s.q(), s.v(), s.a(), tauId);
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
            JsonValue.ObjectBuilder poses = JsonValue.objectBuilder();
            for (int f = 0; f < frameCount; f++) {
                String name = model.frames().get(f).name();
                kinematics.framePose(s.q(), f, rotation, position);
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
            if (nonFinite.isEmpty()) {
                results.add(result.build());
            } else {
                problems.add(Diagnostic.error(s.location(), "state " + i + ": the dynamics gave non-finite values in "
                        + String.join(", ", nonFinite) + "; are the inputs too large?").toString());
            }
        }
        if (!problems.isEmpty()) {
            throw CliException.badInput(problems);
        }
        return JsonValue.objectBuilder().put("results", JsonValue.array(results)).build();
    }

    /** The numbers as a JSON array; a non-finite entry is recorded in {@code nonFinite} and written as 0. */
    private static JsonValue numbers(double[] values, String what, List<String> nonFinite) {
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
