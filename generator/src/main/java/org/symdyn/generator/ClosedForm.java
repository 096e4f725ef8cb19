package org.symdyn.generator;

import com.squareup.javapoet.CodeBlock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.matheclipse.core.expression.F;
import org.matheclipse.core.interfaces.IExpr;
import org.matheclipse.core.interfaces.ISymbol;
import org.symdyn.generator.emit.JavadocText;
import org.symdyn.generator.symbolic.ExpressionGraph;
import org.symdyn.generator.symbolic.SymbolicInput;
import org.symdyn.model.Model;

/**
 * H, C and g of a small model as single simplified expressions in the joint coordinates q_k and velocities qd_k, for
 * the class Javadoc: a person reads these (the generated code itself stays the temporaries' graph, which is
 * cheaper). Inputs are renamed by kind: a sine or cosine input becomes Sin(q_k) or Cos(q_k), a joint position q_k,
 * a velocity qd_k; Symja's TrigReduce and Simplify then run on each entry within
 * {@link GeneratorOptions#CLOSED_FORM_SECONDS}.
 */
final class ClosedForm {
    private ClosedForm() {
    }

    static CodeBlock of(Model model, ExpressionGraph g, IExpr[][] h, IExpr[] c, IExpr[] gq) {
        Map<ISymbol, IExpr> rename = new LinkedHashMap<>();
        Map<String, IExpr> coordinates = new LinkedHashMap<>();
        java.util.function.Function<String, IExpr> coordinate = name -> coordinates.computeIfAbsent(name, F::Dummy);
        for (Map.Entry<ISymbol, SymbolicInput> in : g.inputs().entrySet()) {
            int k = in.getValue().index();
            switch (in.getValue().kind()) {
                case SIN_Q -> rename.put(in.getKey(), F.Sin(coordinate.apply("q" + k)));
                case COS_Q -> rename.put(in.getKey(), F.Cos(coordinate.apply("q" + k)));
                case Q -> rename.put(in.getKey(), coordinate.apply("q" + k));
                case V -> rename.put(in.getKey(), coordinate.apply("qd" + k));
                // The rotation of a prescaled quaternion is that of the raw one.
                case QUAT_X -> rename.put(in.getKey(), coordinate.apply("q" + k));
                case QUAT_Y -> rename.put(in.getKey(), coordinate.apply("q" + (k + 1)));
                case QUAT_Z -> rename.put(in.getKey(), coordinate.apply("q" + (k + 2)));
                case QUAT_W -> rename.put(in.getKey(), coordinate.apply("q" + (k + 3)));
                default -> {
                    // Not in H, C or g of a model without parameters: shown by their symbol names if they occur.
                }
            }
        }
        CodeBlock.Builder doc = CodeBlock.builder().add("\n<h2>Closed form</h2>\n<p>Coordinates: ");
        for (int k = 0; k < model.nv(); k++) {
            doc.add("$Lq$L = {@code $L}", k == 0 ? "" : ", ", k, JavadocText.escape(model.vNames().get(k)));
        }
        doc.add("; qd = their velocities. Numbers are the model's, as exact rationals.\n<pre>\n");
        int nv = model.nv();
        for (int i = 0; i < nv; i++) {
            for (int j = i; j < nv; j++) {
                doc.add("H[$L][$L] = $L\n", i, j, readable(g, h[i][j], rename));
            }
        }
        for (int i = 0; i < nv; i++) {
            doc.add("C[$L] = $L\n", i, readable(g, c[i], rename));
        }
        for (int i = 0; i < nv; i++) {
            doc.add("g[$L] = $L\n", i, readable(g, gq[i], rename));
        }
        return doc.add("</pre>\n").build();
    }

    private static String readable(ExpressionGraph g, IExpr e, Map<ISymbol, IExpr> rename) {
        IExpr simple = g.simplify(g.expand(e, rename), GeneratorOptions.CLOSED_FORM_SECONDS);
        return simple.toString().replaceAll("\\s+", " ").replace("*/", "* /").replace("@", "{@literal @}");
    }
}
