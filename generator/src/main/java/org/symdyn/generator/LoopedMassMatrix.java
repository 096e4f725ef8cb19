package org.symdyn.generator;

import com.squareup.javapoet.CodeBlock;
import com.squareup.javapoet.FieldSpec;
import com.squareup.javapoet.MethodSpec;
import com.squareup.javapoet.ParameterSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Modifier;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.generator.emit.MethodEmitter;
import org.symdyn.generator.emit.OperationCount;
import org.symdyn.generator.symbolic.SymbolicRecursions;
import org.symdyn.model.Model;
import org.symdyn.spatial.SpatialVectors;

/**
 * H(q) of a large model: the CRBA with its first pass straight-line and its second a loop. Unrolled, the second
 * pass (each column's force carried from its body to the root) is O(n d) statements: for a 200-link chain 59 % of
 * a 31 MB class, and what javac's memory grew with (3.5 GB). Here a straight-line pass {@code massMatrixPass(q)}
 * writes every body's composite inertia (m, h, Ī; body coordinates), its transform from the parent (E, r) and every
 * dof's motion subspace column into instance arrays, with the model's constants folded as everywhere else; then,
 * for each dof k of body i, f = I^c_i S_k and, walking j from i to the root, H_kl = S_lᵀ f for the dofs l of j
 * (l ≤ k within i itself, so that H is exactly symmetric) and f = X_jᵀ f; then each dof k of a joint with armature
 * a gets H_kk += a (statements emitted only for those). The loop reads the tables
 * {@code PARENTS}, {@code V_INDEX} and {@code DOF_COUNT}. Its arithmetic is general (a transform costs 24
 * multiplications where the unrolled code, with zeros and ones folded, often needs a third of that): the price of
 * linear source, paid only past {@link SharedPassKinematics#MAX_PER_BODY_DEPTH_SUM}.
 */
final class LoopedMassMatrix {
    /** Multiplications and additions of I^c S (compact inertia times a motion vector). */
    private static final OperationCount INERTIA_TIMES = new OperationCount(24, 18, 0);
    /** Of Xᵀ f (two rotations by Eᵀ and r × f). */
    private static final OperationCount TRANSPOSE_FORCE = new OperationCount(24, 18, 0);
    /** Of a dot product of two 6-vectors. */
    private static final OperationCount DOT = new OperationCount(6, 5, 0);

    private LoopedMassMatrix() {
    }

    /**
     * Emits {@code massMatrix} (public, after {@code checks}), its pass and helpers into {@code methods}, its arrays
     * into {@code fields} and {@code DOF_COUNT} into {@code tables}.
     *
     * @return the operation count of one call (the pass as emitted, the loop as written)
     */
    static OperationCount emit(Model model, SymbolicRecursions dyn, MethodEmitter emitter, MethodSpec checked,
            List<MethodSpec> methods, List<FieldSpec> fields, Map<String, int[]> tables) {
        int nb = model.bodyCount();
        int nv = model.nv();
        fields.add(ClassSkeleton.scratch("crbaInertia", 10 * nb));
        fields.add(ClassSkeleton.scratch("crbaTransform", 12 * nb));
        fields.add(ClassSkeleton.scratch("crbaSubspace", 6 * nv));
        fields.add(ClassSkeleton.scratch("crbaForce", 6));
        int[] dofCount = new int[nb];
        for (int i = 0; i < nb; i++) {
            dofCount[i] = model.body(i).joint().type().nv();
        }
        tables.put("DOF_COUNT", dofCount);

        List<MethodEmitter.Output> outputs = new ArrayList<>();
        IExpr[][] inertia = dyn.compositeInertias();
        IExpr[][] transform = dyn.parentToChildTransforms();
        for (int i = 0; i < nb; i++) {
            for (int k = 0; k < 10; k++) {
                outputs.add(new MethodEmitter.Output("crbaInertia[" + (10 * i + k) + "]", inertia[i][k]));
            }
            for (int k = 0; k < 12; k++) {
                outputs.add(new MethodEmitter.Output("crbaTransform[" + (12 * i + k) + "]", transform[i][k]));
            }
        }
        IExpr[][] s = dyn.subspaceColumns();
        for (int k = 0; k < nv; k++) {
            for (int r = 0; r < 6; r++) {
                outputs.add(new MethodEmitter.Output("crbaSubspace[" + (6 * k + r) + "]", s[k][r]));
            }
        }
        MethodEmitter.Emitted pass = emitter.emit(MethodSpec.methodBuilder("massMatrixPass")
                .addModifiers(Modifier.PRIVATE)
                .addJavadoc("Every body's composite inertia and transform from its parent, every dof's subspace column.\n")
                .addParameter(ParameterSpec.builder(double[].class, "q").build()).build(), outputs);
        methods.addAll(pass.methods());

        OperationCount loop = OperationCount.ZERO;
        for (int i = 0; i < nb; i++) {
            for (int d = 0; d < dofCount[i]; d++) {
                loop = loop.plus(INERTIA_TIMES);
                for (int j = i; j >= 0; j = model.body(j).parentIndex()) {
                    int dots = j == i ? d + 1 : dofCount[j];
                    for (int x = 0; x < dots; x++) {
                        loop = loop.plus(DOT);
                    }
                    if (model.body(j).parentIndex() >= 0) {
                        loop = loop.plus(TRANSPOSE_FORCE);
                    }
                }
            }
        }
        // A joint's armature on its diagonal entries, after the loop; nothing is emitted for a model without one.
        CodeBlock.Builder armature = CodeBlock.builder();
        for (int i = 0; i < nb; i++) {
            double a = model.body(i).joint().armature();
            int parameter = armatureParameter(model, i);
            for (int d = 0; (a != 0 || parameter >= 0) && d < dofCount[i]; d++) {
                int k = model.body(i).joint().vIndex() + d;
                // a marked armature is the instance's parameter, read at each call (as the unrolled code reads it)
                armature.addStatement("h[$L] += $L", k * nv + k, parameter >= 0 ? "parameters[" + parameter + "]"
                        : Double.toString(a));
                loop = loop.plus(new OperationCount(0, 1, 0));
            }
        }
        methods.add(checked.toBuilder()
                .addStatement("massMatrixPass(q)")
                .addStatement("final double[] h = H.data")
                .addStatement("$T.fill(h, 0, $L, 0.0)", java.util.Arrays.class, nv * nv)
                .addStatement("final double[] f = crbaForce")
                .beginControlFlow("for (int i = 0; i < $L; i++)", nb)
                .beginControlFlow("for (int k = V_INDEX[i], last = k + DOF_COUNT[i]; k < last; k++)")
                .addStatement("inertiaTimesSubspace(10 * i, 6 * k, f)")
                .addStatement("int j = i")
                .beginControlFlow("while (true)")
                .addStatement("final int first = V_INDEX[j]")
                .addStatement("final int end = j == i ? k + 1 : first + DOF_COUNT[j]")
                .beginControlFlow("for (int l = first; l < end; l++)")
                .addStatement("final double x = $L.dot(crbaSubspace, 6 * l, f, 0)", SpatialVectors.class.getName())
                .addStatement("h[k * $L + l] = x", nv)
                .addStatement("h[l * $L + k] = x", nv)
                .endControlFlow()
                .addStatement("final int p = PARENTS[j]")
                .beginControlFlow("if (p < 0)")
                .addStatement("break")
                .endControlFlow()
                .addStatement("transposeForce(12 * j, f)")
                .addStatement("j = p")
                .endControlFlow()
                .endControlFlow()
                .endControlFlow()
                .addCode(armature.build()).build());
        methods.add(MethodSpec.methodBuilder("inertiaTimesSubspace").addModifiers(Modifier.PRIVATE)
                .addJavadoc("f = I m for the compact inertia at crbaInertia[o] and the motion vector at crbaSubspace[s]: "
                        + "[Ī ω + h × v; m v - h × ω].\n")
                .addParameter(int.class, "o").addParameter(int.class, "s").addParameter(double[].class, "f")
                .addCode(CodeBlock.builder()
                        .addStatement("final double m = crbaInertia[o], hx = crbaInertia[o + 1], hy = crbaInertia[o + 2],"
                                + " hz = crbaInertia[o + 3]")
                        .addStatement("final double ixx = crbaInertia[o + 4], ixy = crbaInertia[o + 5], ixz = crbaInertia[o + 6],"
                                + " iyy = crbaInertia[o + 7], iyz = crbaInertia[o + 8], izz = crbaInertia[o + 9]")
                        .addStatement("final double wx = crbaSubspace[s], wy = crbaSubspace[s + 1], wz = crbaSubspace[s + 2]")
                        .addStatement("final double vx = crbaSubspace[s + 3], vy = crbaSubspace[s + 4], vz = crbaSubspace[s + 5]")
                        .addStatement("f[0] = ixx * wx + ixy * wy + ixz * wz + hy * vz - hz * vy")
                        .addStatement("f[1] = ixy * wx + iyy * wy + iyz * wz + hz * vx - hx * vz")
                        .addStatement("f[2] = ixz * wx + iyz * wy + izz * wz + hx * vy - hy * vx")
                        .addStatement("f[3] = m * vx - (hy * wz - hz * wy)")
                        .addStatement("f[4] = m * vy - (hz * wx - hx * wz)")
                        .addStatement("f[5] = m * vz - (hx * wy - hy * wx)").build()).build());
        methods.add(MethodSpec.methodBuilder("transposeForce").addModifiers(Modifier.PRIVATE)
                .addJavadoc("f ← Xᵀ f = [Eᵀ n + r × Eᵀ f_lin; Eᵀ f_lin] for the transform (E, r) at crbaTransform[o].\n")
                .addParameter(int.class, "o").addParameter(double[].class, "f")
                .addCode(CodeBlock.builder()
                        .addStatement("final double[] x = crbaTransform")
                        .addStatement("final double lx = x[o] * f[3] + x[o + 3] * f[4] + x[o + 6] * f[5]")
                        .addStatement("final double ly = x[o + 1] * f[3] + x[o + 4] * f[4] + x[o + 7] * f[5]")
                        .addStatement("final double lz = x[o + 2] * f[3] + x[o + 5] * f[4] + x[o + 8] * f[5]")
                        .addStatement("final double nx = x[o] * f[0] + x[o + 3] * f[1] + x[o + 6] * f[2]")
                        .addStatement("final double ny = x[o + 1] * f[0] + x[o + 4] * f[1] + x[o + 7] * f[2]")
                        .addStatement("final double nz = x[o + 2] * f[0] + x[o + 5] * f[1] + x[o + 8] * f[2]")
                        .addStatement("final double rx = x[o + 9], ry = x[o + 10], rz = x[o + 11]")
                        .addStatement("f[0] = nx + ry * lz - rz * ly")
                        .addStatement("f[1] = ny + rz * lx - rx * lz")
                        .addStatement("f[2] = nz + rx * ly - ry * lx")
                        .addStatement("f[3] = lx")
                        .addStatement("f[4] = ly")
                        .addStatement("f[5] = lz").build()).build());
        return pass.operations().plus(loop);
    }

    /** The index of the parameter standing for body i's armature, or -1. */
    private static int armatureParameter(Model model, int body) {
        for (int k = 0; k < model.parameters().size(); k++) {
            org.symdyn.model.ParameterModel p = model.parameters().get(k);
            if (p.body() == body && p.field() == org.symdyn.model.ParameterModel.Field.ARMATURE) {
                return k;
            }
        }
        return -1;
    }
}
