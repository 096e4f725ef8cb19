package org.symdyn.generator;

import com.squareup.javapoet.ClassName;
import com.squareup.javapoet.CodeBlock;
import com.squareup.javapoet.FieldSpec;
import com.squareup.javapoet.MethodSpec;
import java.util.List;
import javax.lang.model.element.Modifier;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.model.Body;
import org.symdyn.model.Joint;
import org.symdyn.model.Model;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * The derivatives of a model past {@link CodeGenerator#MAX_DERIVATIVES_WORK}, where unrolled derivatives would not fit
 * a class: the class carries its model's numbers as generated code (a static {@code Model} built once, when the class
 * is loaded, from the bodies' joints, placements, axes, limits, armatures and inertias, and the gravity), and its
 * {@link org.symdyn.contract.DynamicsDerivatives} methods run the runtime's analytical recursions over them
 * ({@link org.symdyn.dynamics.GenericDynamics}: Carpentier and Mansard's derivatives in one inertial frame, loops over
 * the bodies and the pairs of dofs), one engine per
 * instance, so a copy per thread stays independent. No model file is read at run time. The answers are the
 * interpreter's on the same model (within rounding of the rebuilt inertias), and the cost is the interpreter's: the
 * rest of the class (H, C, forward dynamics, kinematics) stays generated.
 *
 * <p>A model with symbolic parameters is refused ({@link CodeGenerator#derivativesProblem}): the numbers carried are
 * the file's, and a parameter set on the instance would not reach them.
 */
final class LoopedDerivatives {
    private static final ClassName MODEL = ClassName.get(Model.class);
    private static final ClassName BODY_SPEC = ClassName.get(org.symdyn.model.BodySpec.class);
    private static final ClassName JOINT_TYPE = ClassName.get(org.symdyn.model.JointType.class);
    private static final ClassName POSE = ClassName.get(org.symdyn.spatial.Pose.class);
    private static final ClassName INERTIA = ClassName.get(RigidBodyInertia.class);
    private static final ClassName GENERIC = ClassName.get(org.symdyn.dynamics.GenericDynamics.class);
    private static final ClassName MODEL_EXCEPTION = ClassName.get(org.symdyn.model.ModelException.class);

    private LoopedDerivatives() {
    }

    /** The static model, the per-instance engine, and the delegating methods, added to {@code fields} and {@code methods}. */
    static void emit(Model model, List<FieldSpec> fields, List<MethodSpec> methods) {
        fields.add(FieldSpec.builder(MODEL, "DERIVATIVES_MODEL", Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
                .initializer("derivativesModel()").build());
        fields.add(FieldSpec.builder(GENERIC, "derivatives", Modifier.PRIVATE, Modifier.FINAL)
                .initializer("new $T(DERIVATIVES_MODEL)", GENERIC).build());
        methods.addAll(modelMethods(model));
        methods.add(delegate("inverseDynamicsDerivatives", new String[] {"q", "v", "vdot", "dtauDq", "dtauDv"},
                new boolean[] {false, false, false, true, true}));
        methods.add(delegate("forwardDynamicsDerivatives", new String[] {"q", "v", "tau", "dvdotDq", "dvdotDv",
            "dvdotDtau"}, new boolean[] {false, false, false, true, true, true}));
        methods.add(delegate("inverseMassMatrix", new String[] {"q", "Minv"}, new boolean[] {false, true}));
        methods.add(delegate("coriolisMatrix", new String[] {"q", "v", "coriolis"}, new boolean[] {false, false, true}));
        methods.add(delegate("regressor", new String[] {"q", "v", "vdot", "Y"}, new boolean[] {false, false, false,
            true}));
        methods.add(delegate("inertialParameters", new String[] {"pi"}, new boolean[] {false}));
        methods.add(delegate("inertialParameterJacobian", new String[] {"dpiDp"}, new boolean[] {true}));
        methods.add(delegate("parameterRegressor", new String[] {"q", "v", "vdot", "Yp"}, new boolean[] {false, false,
            false, true}));
    }

    /** A method that hands its arguments (double[] or, where marked, DMatrixRMaj) to the engine's method of its name. */
    private static MethodSpec delegate(String name, String[] args, boolean[] matrix) {
        MethodSpec.Builder m = MethodSpec.methodBuilder(name).addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC);
        for (int i = 0; i < args.length; i++) {
            if (matrix[i]) {
                m.addParameter(DMatrixRMaj.class, args[i]);
            } else {
                m.addParameter(double[].class, args[i]);
            }
        }
        return m.addStatement("derivatives.$L($L)", name, String.join(", ", args)).build();
    }

    /**
     * Bodies per method of the model's builder calls: about 220 bytes of bytecode each, so that every method stays
     * under HotSpot's 8,000-byte limit of JIT compilation (they run once, but the class's methods are held to it).
     */
    private static final int BODIES_PER_METHOD = 24;

    /**
     * {@code derivativesModel()} and its parts {@code derivativesBodiesK(b)}: the model's dynamics as builder calls,
     * every number written exactly.
     */
    private static List<MethodSpec> modelMethods(Model model) {
        ClassName builder = ClassName.get(org.symdyn.model.ModelBuilder.class);
        List<MethodSpec> out = new java.util.ArrayList<>();
        double[] g = model.gravity();
        MethodSpec.Builder main = MethodSpec.methodBuilder("derivativesModel")
                .addModifiers(Modifier.PRIVATE, Modifier.STATIC).returns(MODEL)
                .addJavadoc("The model's numbers for the derivatives, built once when the class is loaded.\n")
                .beginControlFlow("try")
                .addStatement("$T b = $T.builder($S).root($S).gravity($L, $L, $L)", builder, MODEL, model.name(),
                        model.rootName(), exact(g[0]), exact(g[1]), exact(g[2]));
        int parts = (model.bodyCount() + BODIES_PER_METHOD - 1) / BODIES_PER_METHOD;
        for (int k = 0; k < parts; k++) {
            CodeBlock.Builder code = CodeBlock.builder();
            for (int i = k * BODIES_PER_METHOD; i < Math.min(model.bodyCount(), (k + 1) * BODIES_PER_METHOD); i++) {
                code.add(body(model, model.body(i)));
            }
            out.add(MethodSpec.methodBuilder("derivativesBodies" + k).addModifiers(Modifier.PRIVATE, Modifier.STATIC)
                    .addParameter(builder, "b").addCode(code.build()).build());
            main.addStatement("derivativesBodies$L(b)", k);
        }
        out.add(0, main.addStatement("return b.build()")
                .nextControlFlow("catch ($T e)", MODEL_EXCEPTION)
                .addStatement("throw new $T(\"the generated model of the derivatives does not build: \" + e.getMessage(),"
                        + " e)", IllegalStateException.class)
                .endControlFlow()
                .build());
        return out;
    }

    private static CodeBlock body(Model model, Body body) {
        Joint j = body.joint();
        String parent = body.parentIndex() < 0 ? model.rootName() : model.body(body.parentIndex()).name();
        RigidBodyInertia in = body.inertia();
        CodeBlock.Builder code = CodeBlock.builder();
        code.add("b.addBody($T.builder($S, $S, $S, $T.$L)", BODY_SPEC, body.name(), parent, j.name(), JOINT_TYPE,
                j.type().name());
        if (j.type() != org.symdyn.model.JointType.FLOATING && j.type() != org.symdyn.model.JointType.BALL) {
            code.add(".axis($L)", numbers(j.axis()));
        }
        code.add(".placement($T.of(new double[] {$L}, new double[] {$L}))", POSE,
                numbers(j.placement().rotationArray()), numbers(j.placement().translationArray()));
        if (j.hasLimits()) {
            code.add(".limits($L, $L)", exact(j.lower()), exact(j.upper()));
        }
        if (j.armature() != 0) {
            code.add(".armature($L)", exact(j.armature()));
        }
        return code.add(".inertia($T.of($L, new double[] {$L}, new double[] {$L})).build());\n", INERTIA,
                exact(in.mass()), numbers(in.comArray()), numbers(in.inertiaAboutComArray())).build();
    }

    private static String numbers(double[] x) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < x.length; i++) {
            s.append(i == 0 ? "" : ", ").append(exact(x[i]));
        }
        return s.toString();
    }

    /** A double literal that reads back to the same bits (Java's shortest repr, with infinities spelled out). */
    private static String exact(double x) {
        if (Double.isInfinite(x)) {
            return x > 0 ? "Double.POSITIVE_INFINITY" : "Double.NEGATIVE_INFINITY";
        }
        if (Double.isNaN(x)) {
            return "Double.NaN";
        }
        return Double.toString(x);
    }
}
