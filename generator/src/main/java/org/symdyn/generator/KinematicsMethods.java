package org.symdyn.generator;

import com.squareup.javapoet.CodeBlock;
import com.squareup.javapoet.MethodSpec;
import com.squareup.javapoet.ParameterSpec;
import com.squareup.javapoet.TypeName;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import javax.lang.model.element.Modifier;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.generator.emit.JavadocText;
import org.symdyn.generator.emit.MethodEmitter;
import org.symdyn.generator.symbolic.SymbolicKinematics;
import org.symdyn.generator.symbolic.SymbolicPose;
import org.symdyn.model.Frame;
import org.symdyn.model.Model;

/**
 * The {@link org.symdyn.contract.Kinematics} methods of a generated class. Each public method takes a body (or frame)
 * index and switches on it to a private straight-line method for that body, so that no method branches on the
 * model's structure; a point is a run-time input (the symbols of {@code point[0..2]}). Every output entry is
 * written, zeros of Jacobian columns outside the body's support included, since outputs are overwritten in full.
 * The emitter chunks each private method under HotSpot's compile limit.
 */
final class KinematicsMethods {
    private final Model model;
    private final SymbolicKinematics kinematics;
    private final MethodEmitter emitter;
    private final List<MethodSpec> methods;

    KinematicsMethods(Model model, SymbolicKinematics kinematics, MethodEmitter emitter, List<MethodSpec> methods) {
        this.model = model;
        this.kinematics = kinematics;
        this.emitter = emitter;
        this.methods = methods;
    }

    /** Emits framePose and every method of Kinematics. */
    void emitAll() {
        List<Frame> frames = model.frames();
        List<String> frameNames = frames.stream().map(Frame::name).toList();
        List<String> bodyNames = model.bodies().stream().map(b -> b.name()).toList();
        int nq = model.nq();
        int nv = model.nv();
        KinematicsArguments a = KinematicsArguments.of(model);
        IExpr[] p = kinematics.point();

        dispatch("framePose", List.of(a.q(), a.frame(), a.rotation(), a.position()), "Frame", frameNames,
                f -> pose(kinematics.framePose(frames.get(f))));
        dispatch("bodyPose", List.of(a.q(), a.body(), a.rotation(), a.position()), "Body", bodyNames,
                b -> pose(kinematics.bodyPose(b)));
        dispatch("bodyVelocity", List.of(a.q(), a.v(), a.body(), ArgumentChecks.Arg.out("velocity", 6)), "Body", bodyNames,
                b -> Outputs.vector("velocity", kinematics.bodyVelocity(b)));
        dispatch("bodyAcceleration", List.of(a.q(), a.v(), a.vdot(), a.body(), ArgumentChecks.Arg.out("acceleration", 6)), "Body",
                bodyNames, b -> Outputs.vector("acceleration", kinematics.bodyAcceleration(b)));
        dispatch("pointPosition", List.of(a.q(), a.body(), a.point(), a.position()), "Point of body", bodyNames,
                b -> Outputs.vector("position", kinematics.pointPosition(b, p)));
        dispatch("pointVelocity", List.of(a.q(), a.v(), a.body(), a.point(), ArgumentChecks.Arg.out("velocity", 3)), "Point of body",
                bodyNames, b -> Outputs.vector("velocity", kinematics.pointVelocity(b, p)));
        dispatch("pointAcceleration", List.of(a.q(), a.v(), a.vdot(), a.body(), a.point(), ArgumentChecks.Arg.out("acceleration", 3)),
                "Point of body", bodyNames,
                b -> Outputs.vector("acceleration", kinematics.pointAcceleration(b, p)));
        dispatch("pointBiasAcceleration", List.of(a.q(), a.v(), a.body(), a.point(), ArgumentChecks.Arg.out("bias", 3)),
                "Point of body", bodyNames, b -> Outputs.vector("bias", kinematics.pointBiasAcceleration(b, p)));
        dispatch("pointJacobian", List.of(a.q(), a.body(), a.point(), ArgumentChecks.Arg.matrix("J", 3, nv)), "Point of body",
                bodyNames, b -> Outputs.matrix("J", kinematics.pointJacobian(b, p)));
        dispatch("bodyJacobian", List.of(a.q(), a.body(), ArgumentChecks.Arg.matrix("J", 6, nv)), "Body", bodyNames,
                b -> Outputs.matrix("J", kinematics.bodyJacobian(b)));
    }

    private static List<MethodEmitter.Output> pose(SymbolicPose pose) {
        List<MethodEmitter.Output> outs = new ArrayList<>(Outputs.vector("rotation", pose.rotation()));
        outs.addAll(Outputs.vector("position", pose.position()));
        return outs;
    }

    /**
     * The public method {@code name(parameters)} of the contract, whose int parameter selects one of
     * {@code names}, switching to {@code name<i>(the other parameters)}, a private method per index with the
     * outputs of {@code outputs.apply(i)}.
     */
    private void dispatch(String name, List<ArgumentChecks.Arg> checked, String what, List<String> names,
            IntFunction<List<MethodEmitter.Output>> outputs) {
        List<ParameterSpec> parameters = ArgumentChecks.parameters(checked);
        ParameterSpec index = parameters.stream().filter(ps -> ps.type.equals(TypeName.INT)).findFirst()
                .orElseThrow();
        List<ParameterSpec> rest = parameters.stream().filter(ps -> ps != index).toList();
        String args = String.join(", ", rest.stream().map(ps -> ps.name).toList());
        CodeBlock.Builder cases = CodeBlock.builder().add(ArgumentChecks.checks(checked))
                .beginControlFlow("switch ($N)", index);
        for (int i = 0; i < names.size(); i++) {
            MethodSpec spec = MethodSpec.methodBuilder(name + i).addModifiers(Modifier.PRIVATE)
                    .addJavadoc("$L {@code $L}.\n", what, JavadocText.escape(names.get(i))).addParameters(rest).build();
            methods.addAll(emitter.emit(spec, outputs.apply(i)).methods());
            cases.addStatement("case $L -> $L$L($L)", i, name, i, args);
        }
        cases.addStatement("default -> throw new $T(\"$N \" + $N + \" of \" + $L)", IndexOutOfBoundsException.class,
                index, index, names.size());
        cases.endControlFlow();
        methods.add(MethodSpec.methodBuilder(name).addAnnotation(Override.class).addModifiers(Modifier.PUBLIC)
                .addParameters(parameters).addCode(cases.build()).build());
    }
}
