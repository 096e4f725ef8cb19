package org.symdyn.cli;

import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.cli.StatesReader.State;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.contract.DynamicsDerivatives;

/**
 * The keys {@code evaluate --derivatives} adds to each state's result, from the backend's
 * {@link DynamicsDerivatives} (the generic interpreter, or the class generated with derivatives); nv rows each:
 * <pre>
 *   "dtau_dq", "dtau_dv"   ∂τ/∂q and ∂τ/∂v of the inverse dynamics at (q, v, a), nv columns
 *   "dqdd_dq", "dqdd_dv"   ∂v̇/∂q and ∂v̇/∂v of the forward dynamics at (q, v, tau), nv columns
 *   "Minv"                 H(q)⁻¹ (= ∂v̇/∂τ), nv columns
 *   "coriolis_matrix"      the Christoffel Coriolis matrix C(q, v): C v + g = C of the bias forces, Ḣ - 2C skew
 *   "regressor"            Y(q, v, a), 10 columns per body ([m, m c_x, m c_y, m c_z, I_xx, I_xy, I_yy, I_xz, I_yz,
 *                          I_zz] about the body origin, bodies in model order): tau_id = Y π
 *   "parameter_regressor"  only for a model with declared parameters: Y_p = Y ∂π/∂p (q, v, a), one column per
 *                          parameter in declaration order: ∂tau_id/∂p of a link's mass, centre of mass or inertia
 *                          entry (exactly linear for mass and inertia entries); 0 for a joint origin
 * </pre>
 * ∂/∂q is taken in the tangent space (q ⊕ δ, rotation vectors in body coordinates for quaternions, a floating base's
 * position moved in base coordinates), as {@link DynamicsDerivatives} states. The one place the command writes these
 * keys, through the same JSON helpers as the other keys ({@link EvaluateCommand#rows}: a non-finite entry is named
 * and fails the state).
 */
final class DerivativeFields {
    private final DynamicsDerivatives derivatives;
    private final DMatrixRMaj a;
    private final DMatrixRMaj b;
    private final DMatrixRMaj c;
    private final DMatrixRMaj y;
    private final DMatrixRMaj yp;

    DerivativeFields(DynamicsDerivatives derivatives) {
        this.derivatives = derivatives;
        int nv = derivatives.nv();
        a = new DMatrixRMaj(nv, nv);
        b = new DMatrixRMaj(nv, nv);
        c = new DMatrixRMaj(nv, nv);
        y = new DMatrixRMaj(nv, DynamicsDerivatives.PARAMETERS_PER_BODY * derivatives.bodyCount());
        int parameters = derivatives.parameterNames().size();
        yp = parameters == 0 ? null : new DMatrixRMaj(nv, parameters);
    }

    /** Puts the keys of state {@code s} into {@code result}; a non-finite entry is named in {@code nonFinite}. */
    void put(State s, JsonValue.ObjectBuilder result, List<String> nonFinite) {
        derivatives.inverseDynamicsDerivatives(s.q(), s.v(), s.a(), a, b);
        result.put("dtau_dq", EvaluateCommand.rows(a, "dtau_dq", nonFinite));
        result.put("dtau_dv", EvaluateCommand.rows(b, "dtau_dv", nonFinite));
        derivatives.forwardDynamicsDerivatives(s.q(), s.v(), s.tau(), a, b, c);
        result.put("dqdd_dq", EvaluateCommand.rows(a, "dqdd_dq", nonFinite));
        result.put("dqdd_dv", EvaluateCommand.rows(b, "dqdd_dv", nonFinite));
        result.put("Minv", EvaluateCommand.rows(c, "Minv", nonFinite));
        derivatives.coriolisMatrix(s.q(), s.v(), a);
        result.put("coriolis_matrix", EvaluateCommand.rows(a, "coriolis_matrix", nonFinite));
        derivatives.regressor(s.q(), s.v(), s.a(), y);
        result.put("regressor", EvaluateCommand.rows(y, "regressor", nonFinite));
        if (yp != null) {
            derivatives.parameterRegressor(s.q(), s.v(), s.a(), yp);
            result.put("parameter_regressor", EvaluateCommand.rows(yp, "parameter_regressor", nonFinite));
        }
    }
}
