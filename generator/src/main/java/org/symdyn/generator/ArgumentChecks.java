package org.symdyn.generator;

import com.squareup.javapoet.ClassName;
import com.squareup.javapoet.CodeBlock;
import com.squareup.javapoet.MethodSpec;
import com.squareup.javapoet.ParameterSpec;
import com.squareup.javapoet.TypeName;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Modifier;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Arguments;

/**
 * The signatures of a generated class's public methods with the contract's argument checks at their start
 * ({@link Arguments}; the policy is in the contract's package documentation): every array its exact length, every
 * matrix its exact shape, no output the same array as an input or another output. The body index of a kinematics
 * method is checked by its switch. The checks are compares of lengths and references, before any work.
 */
final class ArgumentChecks {
    private static final ClassName DMATRIX = ClassName.get(DMatrixRMaj.class);
    private static final ClassName ARGUMENTS = ClassName.get(Arguments.class);

    private ArgumentChecks() {
    }

    /**
     * One parameter of a public method: an input or output array of {@code rows} entries, a matrix output of
     * {@code rows x cols} ({@code cols >= 0}), or an int index ({@code rows < 0}, checked elsewhere).
     */
    record Arg(ParameterSpec spec, boolean output, int rows, int cols) {
        static Arg in(String name, int length) {
            return new Arg(ParameterSpec.builder(double[].class, name).build(), false, length, -1);
        }

        static Arg out(String name, int length) {
            return new Arg(ParameterSpec.builder(double[].class, name).build(), true, length, -1);
        }

        static Arg matrix(String name, int rows, int cols) {
            return new Arg(ParameterSpec.builder(DMATRIX, name).build(), true, rows, cols);
        }

        static Arg matrixIn(String name, int rows, int cols) {
            return new Arg(ParameterSpec.builder(DMATRIX, name).build(), false, rows, cols);
        }

        static Arg index(String name) {
            return new Arg(ParameterSpec.builder(TypeName.INT, name).build(), false, -1, -1);
        }

        boolean isIndex() {
            return rows < 0;
        }

        boolean isMatrix() {
            return cols >= 0;
        }

        String name() {
            return spec.name;
        }
    }

    /** The parameters of {@code args}, in order. */
    static List<ParameterSpec> parameters(List<Arg> args) {
        return args.stream().map(Arg::spec).toList();
    }

    /** A public {@code @Override} method with these parameters whose body starts with their checks. */
    static MethodSpec method(String name, Arg... args) {
        return MethodSpec.methodBuilder(name).addAnnotation(Override.class).addModifiers(Modifier.PUBLIC)
                .addParameters(parameters(List.of(args))).addCode(checks(List.of(args))).build();
    }

    /** The checks of {@code args}: lengths and shapes in parameter order, then each output against the others. */
    static CodeBlock checks(List<Arg> args) {
        CodeBlock.Builder b = CodeBlock.builder();
        List<Arg> arrays = new ArrayList<>();
        for (Arg a : args) {
            if (a.isIndex()) {
                continue;
            }
            arrays.add(a);
            if (a.isMatrix()) {
                b.addStatement("$T.checkShape($N, $L, $L, $S)", ARGUMENTS, a.spec, a.rows, a.cols, a.name());
            } else {
                b.addStatement("$T.checkLength($N, $L, $S)", ARGUMENTS, a.spec, a.rows, a.name());
            }
        }
        for (int i = 0; i < arrays.size(); i++) {
            Arg out = arrays.get(i);
            if (!out.output) {
                continue;
            }
            // Against every input, and against the outputs before it (each pair once).
            for (int j = 0; j < arrays.size(); j++) {
                Arg other = arrays.get(j);
                if (j == i || other.output && j > i) {
                    continue;
                }
                Arg first = out.isMatrix() || !other.isMatrix() ? out : other;
                Arg second = first == out ? other : out;
                // A matrix goes first: Arguments compares its data array with an array.
                b.addStatement("$T.checkDistinct($N, $S, $N, $S)", ARGUMENTS, first.spec, first.name(), second.spec,
                        second.name());
            }
        }
        return b.build();
    }
}
