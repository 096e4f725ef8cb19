package org.symdyn.generator;

import com.squareup.javapoet.MethodSpec;
import com.squareup.javapoet.ParameterizedTypeName;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javax.lang.model.element.Modifier;
import org.symdyn.contract.ModelPart;
import org.symdyn.generator.ArgumentChecks.Arg;
import org.symdyn.model.Model;

/**
 * The methods of a class generated without a part ({@link GeneratorOptions#parts()}): each method of the part
 * throws an {@link UnsupportedOperationException} whose message names the method, the part and the option that
 * turns it on ({@link ModelPart#missingMessage}), and {@code parts()} says which parts the class carries.
 */
final class OmittedParts {
    private OmittedParts() {
    }

    /** The methods of {@link org.symdyn.contract.Kinematics} and {@code framePose}, each throwing. */
    static List<MethodSpec> kinematics(Model model) {
        KinematicsArguments a = KinematicsArguments.of(model);
        int nv = model.nv();
        return List.of(
                missing(ModelPart.KINEMATICS, "framePose", List.of(a.q(), a.frame(), a.rotation(), a.position())),
                missing(ModelPart.KINEMATICS, "bodyPose", List.of(a.q(), a.body(), a.rotation(), a.position())),
                missing(ModelPart.KINEMATICS, "bodyVelocity", List.of(a.q(), a.v(), a.body(),
                        Arg.out("velocity", 6))),
                missing(ModelPart.KINEMATICS, "bodyAcceleration", List.of(a.q(), a.v(), a.vdot(), a.body(),
                        Arg.out("acceleration", 6))),
                missing(ModelPart.KINEMATICS, "pointPosition", List.of(a.q(), a.body(), a.point(), a.position())),
                missing(ModelPart.KINEMATICS, "pointVelocity", List.of(a.q(), a.v(), a.body(), a.point(),
                        Arg.out("velocity", 3))),
                missing(ModelPart.KINEMATICS, "pointAcceleration", List.of(a.q(), a.v(), a.vdot(), a.body(),
                        a.point(), Arg.out("acceleration", 3))),
                missing(ModelPart.KINEMATICS, "pointBiasAcceleration", List.of(a.q(), a.v(), a.body(), a.point(),
                        Arg.out("bias", 3))),
                missing(ModelPart.KINEMATICS, "pointJacobian", List.of(a.q(), a.body(), a.point(),
                        Arg.matrix("J", 3, nv))),
                missing(ModelPart.KINEMATICS, "bodyJacobian", List.of(a.q(), a.body(), Arg.matrix("J", 6, nv))));
    }

    /** The public method {@code name(checked)} of {@code part}, throwing. */
    static MethodSpec missing(ModelPart part, String name, List<Arg> checked) {
        return MethodSpec.methodBuilder(name).addAnnotation(Override.class).addModifiers(Modifier.PUBLIC)
                .addParameters(ArgumentChecks.parameters(checked))
                .addJavadoc("Not in this class: it was generated without the $L part.\n", part.optionName())
                .addStatement("throw new UnsupportedOperationException($S)", part.missingMessage(name)).build();
    }

    /**
     * {@code parts()} returning {@code parts}, or null when the interface's default already says so (every part
     * but the derivatives, which the default finds by the interface the class implements).
     */
    static MethodSpec partsMethod(Set<ModelPart> parts) {
        EnumSet<ModelPart> withoutDerivatives = EnumSet.copyOf(parts);
        withoutDerivatives.remove(ModelPart.DERIVATIVES);
        if (withoutDerivatives.equals(ModelPart.defaults())) {
            return null;
        }
        String listed = parts.stream().map(p -> "$T." + p.name()).collect(Collectors.joining(", "));
        Object[] args = new Object[parts.size() + 1];
        args[0] = EnumSet.class;
        java.util.Arrays.fill(args, 1, args.length, ModelPart.class);
        return MethodSpec.methodBuilder("parts").addAnnotation(Override.class).addModifiers(Modifier.PUBLIC)
                .returns(ParameterizedTypeName.get(Set.class, ModelPart.class))
                .addJavadoc("The parts this class was generated with.\n")
                .addStatement("return $T.of(" + listed + ")", args).build();
    }
}
