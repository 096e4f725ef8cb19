package org.symdyn.generator.symbolic;

import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.generator.symbolic.SymbolicInput.Kind;
import org.symdyn.model.Model;
import org.symdyn.model.ParameterModel;

/**
 * A joint's armature as the recursions use it: the parameter's symbol where the model marks it as a parameter
 * ({@code <symdyn:parameter joint="j" field="armature"/>}), else the model's constant, and null where there is none
 * (nothing to add, and the articulated-body algorithm's zero rows stay).
 */
final class SymbolicArmature {
    private SymbolicArmature() {
    }

    /** The armature of body i's joint, or null when it is zero and not a parameter. */
    static IExpr of(Model model, ExpressionGraph g, int body) {
        java.util.List<ParameterModel> params = model.parameters();
        for (int k = 0; k < params.size(); k++) {
            ParameterModel p = params.get(k);
            if (p.body() == body && p.field() == ParameterModel.Field.ARMATURE) {
                return g.input(Kind.PARAMETER, k);
            }
        }
        double a = model.body(body).joint().armature();
        return a == 0 ? null : g.constant(a);
    }
}
