package org.symdyn.generator;

import com.squareup.javapoet.CodeBlock;
import com.squareup.javapoet.FieldSpec;
import com.squareup.javapoet.MethodSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.lang.model.element.Modifier;
import org.symdyn.generator.emit.MethodEmitter;
import org.symdyn.generator.symbolic.SymbolicKinematics;
import org.symdyn.generator.symbolic.SymbolicPose;
import org.symdyn.model.Model;

/**
 * The {@link org.symdyn.contract.Kinematics} methods of a generated class for a large model: three straight-line
 * passes over the whole tree, and small query methods that read one body's results. {@link KinematicsMethods}
 * instead gives every body its own straight-line method from the root, which is the fastest for one body but costs
 * source in proportion to the sum over bodies of their depth (quadratic for a chain: for a 40-link chain 88 % of a
 * 42 MB class, 45 MB with an earlier generator, and javac's time with it). Here the source grows linearly with the number of bodies; a query costs
 * one pass over the tree instead of one over the body's branch.
 * <ul>
 * <li>{@code kinematicsPoses(q)}: every body's R_world&lt;-body and origin, and every dof's motion subspace column in
 * world coordinates at the world origin, [ω; v_O] = [Eᵀ s_ω; Eᵀ s_v + r × Eᵀ s_ω].</li>
 * <li>{@code kinematicsVelocities(q, v)}: the poses, every body's spatial velocity and bias acceleration (v̇ = 0),
 * body coordinates.</li>
 * <li>{@code kinematicsAccelerations(q, v, vdot)}: the poses, velocities and spatial accelerations.</li>
 * </ul>
 * A point Jacobian's column for dof k is v_O + ω × p_world, a body Jacobian's the body's transform of [ω; v_O]; the
 * query walks the dof tree from the body's last dof to the root through the constant table {@code DOF_PARENT}.
 * The argument checks and the index message are those of {@link KinematicsMethods}.
 */
final class SharedPassKinematics {
    /**
     * Above this sum over bodies of their depth (number of moving ancestors, the body included), the generator
     * emits the shared passes instead of per-body methods. The shared models and samples are below it (romeo_small
     * with its floating base 159, the 7-dof arms 28) and keep their per-body methods. Measured generation (fresh
     * JVM, median of 3): a 20-link chain (depth sum 210) 15.7 s per body, 5.7 s with the passes (a 30-link chain
     * 6.4 s with them); so the bound sits just below it.
     */
    static final int MAX_PER_BODY_DEPTH_SUM = 200;

    private final Model model;
    private final SymbolicKinematics kinematics;
    private final MethodEmitter emitter;
    private final List<MethodSpec> methods;
    private final List<FieldSpec> fields;
    private final java.util.Map<String, int[]> tables;

    /** Emits into {@code methods}, the instance arrays into {@code fields}, the static int tables into {@code tables}. */
    SharedPassKinematics(Model model, SymbolicKinematics kinematics, MethodEmitter emitter, List<MethodSpec> methods,
            List<FieldSpec> fields, java.util.Map<String, int[]> tables) {
        this.model = model;
        this.kinematics = kinematics;
        this.emitter = emitter;
        this.methods = methods;
        this.fields = fields;
        this.tables = tables;
    }

    /** The sum over bodies of their depth in the tree (the body itself counted), the size of per-body methods. */
    static int depthSum(Model model) {
        int sum = 0;
        for (int i = 0; i < model.bodyCount(); i++) {
            for (int b = i; b >= 0; b = model.body(b).parentIndex()) {
                sum++;
            }
        }
        return sum;
    }

    /** Emits the passes, the query methods, their fields and tables. */
    void emitAll() {
        int nb = model.bodyCount();
        int nv = model.nv();
        int nq = model.nq();
        fields.add(ClassSkeleton.scratch("kinPose", 12 * nb));
        fields.add(ClassSkeleton.scratch("kinColumn", 6 * nv));
        fields.add(ClassSkeleton.scratch("kinVelocity", 6 * nb));
        fields.add(ClassSkeleton.scratch("kinBias", 6 * nb));
        fields.add(ClassSkeleton.scratch("kinAcceleration", 6 * nb));
        fields.add(ClassSkeleton.scratch("kinPoint", 3));
        int[] lastDof = new int[nb];
        for (int b = 0; b < nb; b++) {
            lastDof[b] = model.body(b).joint().vIndex() + model.body(b).joint().type().nv() - 1;
        }
        tables.put("DOF_PARENT", model.dofParents());
        tables.put("LAST_DOF", lastDof);
        emitPasses(nb, nv, nq);

        KinematicsArguments a = KinematicsArguments.of(model);
        int frames = model.frames().size();

        query("framePose", List.of(a.q(), a.frame(), a.rotation(), a.position()), "frame", frames, CodeBlock.builder()
                .addStatement("final int body = FRAME_BODY[frame]")
                .addStatement("final double[] f = FRAME_OFFSET[frame]")
                .beginControlFlow("if (body < 0)")
                .addStatement("System.arraycopy(f, 0, rotation, 0, 9)")
                .addStatement("System.arraycopy(f, 9, position, 0, 3)")
                .addStatement("return")
                .endControlFlow()
                .addStatement("kinematicsPoses(q)")
                .addStatement("final int o = 12 * body")
                .beginControlFlow("for (int i = 0; i < 3; i++)")
                .beginControlFlow("for (int j = 0; j < 3; j++)")
                .addStatement("rotation[3 * i + j] = kinPose[o + 3 * i] * f[j] + kinPose[o + 3 * i + 1] * f[3 + j]"
                        + " + kinPose[o + 3 * i + 2] * f[6 + j]")
                .endControlFlow()
                .addStatement("position[i] = kinPose[o + 9 + i] + kinPose[o + 3 * i] * f[9]"
                        + " + kinPose[o + 3 * i + 1] * f[10] + kinPose[o + 3 * i + 2] * f[11]")
                .endControlFlow().build());
        query("bodyPose", List.of(a.q(), a.body(), a.rotation(), a.position()), "body", nb, CodeBlock.builder()
                .addStatement("kinematicsPoses(q)")
                .addStatement("System.arraycopy(kinPose, 12 * body, rotation, 0, 9)")
                .addStatement("System.arraycopy(kinPose, 12 * body + 9, position, 0, 3)").build());
        query("bodyVelocity", List.of(a.q(), a.v(), a.body(), ArgumentChecks.Arg.out("velocity", 6)), "body", nb,
                CodeBlock.builder().addStatement("kinematicsVelocities(q, v)")
                        .addStatement("System.arraycopy(kinVelocity, 6 * body, velocity, 0, 6)").build());
        query("bodyAcceleration", List.of(a.q(), a.v(), a.vdot(), a.body(), ArgumentChecks.Arg.out("acceleration", 6)), "body", nb,
                CodeBlock.builder().addStatement("kinematicsAccelerations(q, v, vdot)")
                        .addStatement("System.arraycopy(kinAcceleration, 6 * body, acceleration, 0, 6)").build());
        query("pointPosition", List.of(a.q(), a.body(), a.point(), a.position()), "body", nb, CodeBlock.builder()
                .addStatement("kinematicsPoses(q)")
                .addStatement("rotateAndShift(12 * body, point, position)").build());
        query("pointVelocity", List.of(a.q(), a.v(), a.body(), a.point(), ArgumentChecks.Arg.out("velocity", 3)), "body", nb,
                CodeBlock.builder().addStatement("kinematicsVelocities(q, v)")
                        .addStatement("pointMotion(12 * body, 6 * body, point, null, velocity)").build());
        query("pointAcceleration", List.of(a.q(), a.v(), a.vdot(), a.body(), a.point(), ArgumentChecks.Arg.out("acceleration", 3)),
                "body", nb, CodeBlock.builder().addStatement("kinematicsAccelerations(q, v, vdot)")
                        .addStatement("pointMotion(12 * body, 6 * body, point, kinAcceleration, acceleration)")
                        .build());
        query("pointBiasAcceleration", List.of(a.q(), a.v(), a.body(), a.point(), ArgumentChecks.Arg.out("bias", 3)), "body", nb,
                CodeBlock.builder().addStatement("kinematicsVelocities(q, v)")
                        .addStatement("pointMotion(12 * body, 6 * body, point, kinBias, bias)").build());
        query("pointJacobian", List.of(a.q(), a.body(), a.point(), ArgumentChecks.Arg.matrix("J", 3, nv)), "body", nb,
                CodeBlock.builder()
                        .addStatement("kinematicsPoses(q)")
                        .addStatement("rotateAndShift(12 * body, point, kinPoint)")
                        .addStatement("final double px = kinPoint[0], py = kinPoint[1], pz = kinPoint[2]")
                        .addStatement("final double[] jd = J.data")
                        .addStatement("$T.fill(jd, 0, $L, 0.0)", Arrays.class, 3 * nv)
                        .beginControlFlow("for (int k = LAST_DOF[body]; k >= 0; k = DOF_PARENT[k])")
                        .addStatement("final int c = 6 * k")
                        .addStatement("final double wx = kinColumn[c], wy = kinColumn[c + 1], wz = kinColumn[c + 2]")
                        .addStatement("jd[k] = kinColumn[c + 3] + wy * pz - wz * py")
                        .addStatement("jd[$L + k] = kinColumn[c + 4] + wz * px - wx * pz", nv)
                        .addStatement("jd[$L + k] = kinColumn[c + 5] + wx * py - wy * px", 2 * nv)
                        .endControlFlow().build());
        query("bodyJacobian", List.of(a.q(), a.body(), ArgumentChecks.Arg.matrix("J", 6, nv)), "body", nb,
                CodeBlock.builder()
                        .addStatement("kinematicsPoses(q)")
                        .addStatement("final int o = 12 * body")
                        .addStatement("final double rx = kinPose[o + 9], ry = kinPose[o + 10], rz = kinPose[o + 11]")
                        .addStatement("final double[] jd = J.data")
                        .addStatement("$T.fill(jd, 0, $L, 0.0)", Arrays.class, 6 * nv)
                        .beginControlFlow("for (int k = LAST_DOF[body]; k >= 0; k = DOF_PARENT[k])")
                        .addStatement("final int c = 6 * k")
                        .addStatement("final double wx = kinColumn[c], wy = kinColumn[c + 1], wz = kinColumn[c + 2]")
                        .add("// v_O - r × ω: the column's velocity at the body origin, then Rᵀ of both halves.\n")
                        .addStatement("final double ux = kinColumn[c + 3] - (ry * wz - rz * wy)")
                        .addStatement("final double uy = kinColumn[c + 4] - (rz * wx - rx * wz)")
                        .addStatement("final double uz = kinColumn[c + 5] - (rx * wy - ry * wx)")
                        .beginControlFlow("for (int i = 0; i < 3; i++)")
                        .addStatement("jd[i * $L + k] = kinPose[o + i] * wx + kinPose[o + 3 + i] * wy"
                                + " + kinPose[o + 6 + i] * wz", nv)
                        .addStatement("jd[(3 + i) * $L + k] = kinPose[o + i] * ux + kinPose[o + 3 + i] * uy"
                                + " + kinPose[o + 6 + i] * uz", nv)
                        .endControlFlow()
                        .endControlFlow().build());
        methods.add(MethodSpec.methodBuilder("rotateAndShift").addModifiers(Modifier.PRIVATE)
                .addJavadoc("out = r + R p for the pose at kinPose[o].\n")
                .addParameter(int.class, "o").addParameter(double[].class, "p").addParameter(double[].class, "out")
                .beginControlFlow("for (int i = 0; i < 3; i++)")
                .addStatement("out[i] = kinPose[o + 9 + i] + kinPose[o + 3 * i] * p[0] + kinPose[o + 3 * i + 1]"
                        + " * p[1] + kinPose[o + 3 * i + 2] * p[2]")
                .endControlFlow().build());
        methods.add(MethodSpec.methodBuilder("pointMotion").addModifiers(Modifier.PRIVATE)
                .addJavadoc("World velocity R (v_o + ω × p) of the point p (acc null), or its classical acceleration "
                        + "R (a_o + ω̇ × p + ω × (v_o + ω × p))\nfrom the spatial acceleration acc[m..m+5]; the pose "
                        + "at kinPose[o], the velocity at kinVelocity[m].\n")
                .addParameter(int.class, "o").addParameter(int.class, "m").addParameter(double[].class, "p")
                .addParameter(double[].class, "acc").addParameter(double[].class, "out")
                .addStatement("final double wx = kinVelocity[m], wy = kinVelocity[m + 1], wz = kinVelocity[m + 2]")
                .addStatement("final double vx = kinVelocity[m + 3] + wy * p[2] - wz * p[1]")
                .addStatement("final double vy = kinVelocity[m + 4] + wz * p[0] - wx * p[2]")
                .addStatement("final double vz = kinVelocity[m + 5] + wx * p[1] - wy * p[0]")
                .addStatement("double lx = vx, ly = vy, lz = vz")
                .beginControlFlow("if (acc != null)")
                .addStatement("lx = acc[m + 3] + acc[m + 1] * p[2] - acc[m + 2] * p[1] + wy * vz - wz * vy")
                .addStatement("ly = acc[m + 4] + acc[m + 2] * p[0] - acc[m] * p[2] + wz * vx - wx * vz")
                .addStatement("lz = acc[m + 5] + acc[m] * p[1] - acc[m + 1] * p[0] + wx * vy - wy * vx")
                .endControlFlow()
                .beginControlFlow("for (int i = 0; i < 3; i++)")
                .addStatement("out[i] = kinPose[o + 3 * i] * lx + kinPose[o + 3 * i + 1] * ly + kinPose[o + 3 * i + 2]"
                        + " * lz")
                .endControlFlow().build());
    }

    private void emitPasses(int nb, int nv, int nq) {
        com.squareup.javapoet.ParameterSpec qp = com.squareup.javapoet.ParameterSpec.builder(double[].class, "q")
                .build();
        com.squareup.javapoet.ParameterSpec vp = com.squareup.javapoet.ParameterSpec.builder(double[].class, "v")
                .build();
        com.squareup.javapoet.ParameterSpec ap = com.squareup.javapoet.ParameterSpec.builder(double[].class, "vdot")
                .build();
        List<MethodEmitter.Output> poses = new ArrayList<>();
        for (int b = 0; b < nb; b++) {
            SymbolicPose pose = kinematics.bodyPose(b);
            for (int k = 0; k < 9; k++) {
                poses.add(new MethodEmitter.Output("kinPose[" + (12 * b + k) + "]", pose.rotation()[k]));
            }
            for (int k = 0; k < 3; k++) {
                poses.add(new MethodEmitter.Output("kinPose[" + (12 * b + 9 + k) + "]", pose.position()[k]));
            }
        }
        List<MethodEmitter.Output> columns = new ArrayList<>(poses);
        for (int b = 0; b < nb; b++) {
            int vi = model.body(b).joint().vIndex();
            org.matheclipse.core.interfaces.IExpr[][] s = kinematics.worldSubspace(b);
            for (int d = 0; d < s.length; d++) {
                for (int k = 0; k < 6; k++) {
                    columns.add(new MethodEmitter.Output("kinColumn[" + (6 * (vi + d) + k) + "]", s[d][k]));
                }
            }
        }
        List<MethodEmitter.Output> velocities = new ArrayList<>(poses);
        List<MethodEmitter.Output> accelerations = new ArrayList<>(poses);
        for (int b = 0; b < nb; b++) {
            for (int k = 0; k < 6; k++) {
                MethodEmitter.Output vel = new MethodEmitter.Output("kinVelocity[" + (6 * b + k) + "]",
                        kinematics.bodyVelocity(b)[k]);
                velocities.add(vel);
                velocities.add(new MethodEmitter.Output("kinBias[" + (6 * b + k) + "]",
                        kinematics.bodyBiasAcceleration(b)[k]));
                accelerations.add(vel);
                accelerations.add(new MethodEmitter.Output("kinAcceleration[" + (6 * b + k) + "]",
                        kinematics.bodyAcceleration(b)[k]));
            }
        }
        methods.addAll(emitter.emit(pass("kinematicsPoses", "Every body's pose and every dof's world column.")
                .addParameter(qp).build(), columns).methods());
        methods.addAll(emitter.emit(pass("kinematicsVelocities", "Every body's pose, velocity and bias acceleration.")
                .addParameter(qp).addParameter(vp).build(), velocities).methods());
        methods.addAll(emitter.emit(pass("kinematicsAccelerations",
                "Every body's pose, velocity and spatial acceleration.").addParameter(qp).addParameter(vp)
                .addParameter(ap).build(), accelerations).methods());
    }

    private static MethodSpec.Builder pass(String name, String doc) {
        return MethodSpec.methodBuilder(name).addModifiers(Modifier.PRIVATE).addJavadoc("$L\n", doc);
    }

    /** A public method: the argument checks, the index check, then {@code body}. */
    private void query(String name, List<ArgumentChecks.Arg> checked, String index, int count, CodeBlock body) {
        methods.add(MethodSpec.methodBuilder(name).addAnnotation(Override.class).addModifiers(Modifier.PUBLIC)
                .addParameters(ArgumentChecks.parameters(checked))
                .addCode(ArgumentChecks.checks(checked))
                .beginControlFlow("if ($N < 0 || $N >= $L)", index, index, count)
                .addStatement("throw new IndexOutOfBoundsException(\"$N \" + $N + \" of \" + $L)", index, index, count)
                .endControlFlow()
                .addCode(body).build());
    }
}
