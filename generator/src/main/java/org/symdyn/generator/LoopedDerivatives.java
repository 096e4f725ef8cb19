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
 * <p><b>Parameters.</b> A model with symbolic parameters carries them: its model is built per instance from the
 * instance's parameter values ({@code derivativesModel(p)}, with the equations the unrolled code uses: a parameterised
 * link's inertia from its own (m, c, I_c) with the parameters in place, plus the links merged into its body as one
 * fixed link; a joint origin moved along its direction, r = r₀ + d (p − p₀); an armature set), and the parameters
 * declared on it by name, so the engine's parameter regressor and ∂π/∂p have the class's columns. The engine is
 * built on the first derivative call and again on the first call after a parameter changed (compared by value, no
 * hook in the setters): those calls allocate, the others do not. Parameter values the model builder refuses (a
 * moving body without mass) make the derivative methods throw IllegalArgumentException naming the values.
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
        boolean parameters = !model.parameters().isEmpty();
        if (parameters) {
            fields.add(FieldSpec.builder(GENERIC, "derivatives", Modifier.PRIVATE).build());
            fields.add(FieldSpec.builder(double[].class, "derivativesParameters", Modifier.PRIVATE).build());
            methods.add(engine());
        } else {
            fields.add(FieldSpec.builder(MODEL, "DERIVATIVES_MODEL", Modifier.PRIVATE, Modifier.STATIC,
                    Modifier.FINAL).initializer("derivativesModel()").build());
            fields.add(FieldSpec.builder(GENERIC, "derivatives", Modifier.PRIVATE, Modifier.FINAL)
                    .initializer("new $T(DERIVATIVES_MODEL)", GENERIC).build());
        }
        methods.addAll(modelMethods(model));
        String engine = parameters ? "derivatives()" : "derivatives";
        methods.add(delegate(engine, "inverseDynamicsDerivatives", new String[] {"q", "v", "vdot", "dtauDq",
            "dtauDv"}, new boolean[] {false, false, false, true, true}));
        methods.add(delegate(engine, "forwardDynamicsDerivatives", new String[] {"q", "v", "tau", "dvdotDq",
            "dvdotDv", "dvdotDtau"}, new boolean[] {false, false, false, true, true, true}));
        methods.add(delegate(engine, "inverseMassMatrix", new String[] {"q", "Minv"}, new boolean[] {false, true}));
        methods.add(delegate(engine, "coriolisMatrix", new String[] {"q", "v", "coriolis"}, new boolean[] {false,
            false, true}));
        methods.add(delegate(engine, "regressor", new String[] {"q", "v", "vdot", "Y"}, new boolean[] {false, false,
            false, true}));
        methods.add(delegate(engine, "inertialParameters", new String[] {"pi"}, new boolean[] {false}));
        methods.add(delegate(engine, "inertialParameterJacobian", new String[] {"dpiDp"}, new boolean[] {true}));
        methods.add(delegate(engine, "parameterRegressor", new String[] {"q", "v", "vdot", "Yp"}, new boolean[] {false,
            false, false, true}));
    }

    /** {@code derivatives()}: the engine of the instance's current parameter values, rebuilt when they changed. */
    private static MethodSpec engine() {
        return MethodSpec.methodBuilder("derivatives").addModifiers(Modifier.PRIVATE).returns(GENERIC)
                .addJavadoc("The derivatives' engine at the current parameter values: built on first use and after"
                        + " a parameter changed.\n")
                .beginControlFlow("if (derivatives == null || !$T.equals(parameters, derivativesParameters))",
                        java.util.Arrays.class)
                .addStatement("double[] p = parameters.clone()")
                .addStatement("derivatives = new $T(derivativesModel(p))", GENERIC)
                .addStatement("derivativesParameters = p")
                .endControlFlow()
                .addStatement("return derivatives").build();
    }

    /**
     * A method that hands its arguments (double[] or, where marked, DMatrixRMaj) to the engine's method of its name,
     * the engine read from {@code engine} (a field, or the method that rebuilds it).
     */
    private static MethodSpec delegate(String engine, String name, String[] args, boolean[] matrix) {
        MethodSpec.Builder m = MethodSpec.methodBuilder(name).addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC);
        for (int i = 0; i < args.length; i++) {
            if (matrix[i]) {
                m.addParameter(DMatrixRMaj.class, args[i]);
            } else {
                m.addParameter(double[].class, args[i]);
            }
        }
        return m.addStatement("$L.$L($L)", engine, name, String.join(", ", args)).build();
    }

    /**
     * Estimated bytes of bytecode per method of the model's builder calls, so that every method stays under HotSpot's
     * 8,000-byte limit of JIT compilation (they run once, but the class's methods are held to it). A body's call is
     * about 220 bytes ({@link #BODY_BYTES}), each parameter in it adds up to {@link #PARAMETER_IN_BODY_BYTES} (an
     * origin's r₀ + d (p_k − p₀)), a merged fixed link {@link #MERGED_BYTES}; a parameter's declaration
     * ({@code b.addParameter}) about {@link #PARAMETER_BYTES}. A 43-link chain with 473 parameters wrote 8,572 bytes
     * of declarations into one method, and 24 bodies of 14 parameters with their merged links 8,887 bytes, when the
     * split counted bodies alone.
     */
    private static final int METHOD_BYTES = 5_000;
    private static final int BODY_BYTES = 240;
    private static final int PARAMETER_IN_BODY_BYTES = 30;
    private static final int MERGED_BYTES = 200;
    private static final int PARAMETER_BYTES = 20;

    /**
     * {@code derivativesModel()} and its parts {@code derivativesBodiesK(b)}: the model's dynamics as builder calls,
     * every number written exactly.
     */
    private static List<MethodSpec> modelMethods(Model model) {
        ClassName builder = ClassName.get(org.symdyn.model.ModelBuilder.class);
        List<MethodSpec> out = new java.util.ArrayList<>();
        double[] g = model.gravity();
        boolean parameters = !model.parameters().isEmpty();
        MethodSpec.Builder main = MethodSpec.methodBuilder("derivativesModel")
                .addModifiers(Modifier.PRIVATE, Modifier.STATIC).returns(MODEL)
                .addJavadoc(parameters ? "The model's numbers for the derivatives at parameter values p.\n"
                        : "The model's numbers for the derivatives, built once when the class is loaded.\n")
                .beginControlFlow("try")
                .addStatement("$T b = $T.builder($S).root($S).gravity($L, $L, $L)", builder, MODEL, model.name(),
                        model.rootName(), exact(g[0]), exact(g[1]), exact(g[2]));
        if (parameters) {
            main.addParameter(double[].class, "p");
        }
        java.util.Set<String> names = new java.util.HashSet<>();
        for (org.symdyn.model.Frame f : model.frames()) {
            names.add(f.name());
        }
        int[] perBody = new int[model.bodyCount()];
        for (org.symdyn.model.ParameterModel p : model.parameters()) {
            perBody[p.body()]++;
        }
        int k = 0;
        for (int first = 0; first < model.bodyCount(); k++) {
            CodeBlock.Builder code = CodeBlock.builder();
            int bytes = 0;
            int i = first;
            for (; i < model.bodyCount(); i++) {
                int weight = BODY_BYTES + PARAMETER_IN_BODY_BYTES * perBody[i] + (perBody[i] > 0 ? MERGED_BYTES : 0);
                if (i > first && bytes + weight > METHOD_BYTES) {
                    break;
                }
                bytes += weight;
                code.add(body(model, model.body(i), names));
            }
            first = i;
            MethodSpec.Builder part = MethodSpec.methodBuilder("derivativesBodies" + k)
                    .addModifiers(Modifier.PRIVATE, Modifier.STATIC).addParameter(builder, "b");
            if (parameters) {
                part.addParameter(double[].class, "p");
            }
            out.add(part.addCode(code.build()).build());
            main.addStatement(parameters ? "derivativesBodies$L(b, p)" : "derivativesBodies$L(b)", k);
        }
        List<org.symdyn.model.ParameterModel> declared = model.parameters();
        int perMethod = METHOD_BYTES / PARAMETER_BYTES;
        for (int first = 0, part = 0; first < declared.size(); first += perMethod, part++) {
            MethodSpec.Builder m = MethodSpec.methodBuilder("derivativesParameters" + part)
                    .addModifiers(Modifier.PRIVATE, Modifier.STATIC).addParameter(builder, "b");
            for (org.symdyn.model.ParameterModel p : declared.subList(first, Math.min(declared.size(),
                    first + perMethod))) {
                Body body = model.body(p.body());
                m.addStatement("b.addParameter($S, $S, $S, $S, $T.UNKNOWN)", p.name(),
                        p.field().isLinkField() ? body.name() : null,
                        p.field().isLinkField() ? null : body.joint().name(), p.field().fileName(),
                        org.symdyn.model.SourceLocation.class);
            }
            out.add(m.build());
            main.addStatement("derivativesParameters$L(b)", part);
        }
        main.addStatement("return b.build()").nextControlFlow("catch ($T e)", MODEL_EXCEPTION);
        if (parameters) {
            main.addStatement("throw new $T(\"the parameter values \" + $T.toString(p) + \" give a model that does"
                    + " not build: \" + e.getMessage(), e)", IllegalArgumentException.class, java.util.Arrays.class);
        } else {
            main.addStatement("throw new $T(\"the generated model of the derivatives does not build: \""
                    + " + e.getMessage(), e)", IllegalStateException.class);
        }
        out.add(0, main.endControlFlow().build());
        return out;
    }

    /**
     * One body's builder call; where parameters touch it, their numbers as expressions of p: a joint origin
     * r₀ + d (p_k − p₀), an armature p_k, and a parameterised link's own inertia (m, c, I_c with p in place) and the
     * links merged into its body as a fixed link of the rest (the body's inertia minus its own link's, about the
     * origin), named apart from every frame of the model ({@code names}).
     */
    private static CodeBlock body(Model model, Body body, java.util.Set<String> names) {
        Joint j = body.joint();
        String parent = body.parentIndex() < 0 ? model.rootName() : model.body(body.parentIndex()).name();
        List<org.symdyn.model.ParameterModel> params = model.parameters();
        String[] translation = new String[3];
        // m, c (3), I_c (9): the body's inertia, or its own link's with the parameters in place
        String[] inertia = inertiaNumbers(body.inertia());
        boolean linkParameters = false;
        String armature = j.armature() != 0 ? exact(j.armature()) : null;
        for (int r = 0; r < 3; r++) {
            translation[r] = exact(j.placement().translation(r));
        }
        for (int k = 0; k < params.size(); k++) {
            org.symdyn.model.ParameterModel p = params.get(k);
            if (p.body() != body.index()) {
                continue;
            }
            if (p.field().isOrigin()) {
                double[] d = p.direction();
                for (int r = 0; r < 3; r++) {
                    if (d[r] != 0) {
                        translation[r] += " + " + exact(d[r]) + " * (p[" + k + "] - " + exact(p.value()) + ")";
                    }
                }
            } else if (p.field() == org.symdyn.model.ParameterModel.Field.ARMATURE) {
                armature = "p[" + k + "]";
            } else {
                if (!linkParameters) {
                    inertia = inertiaNumbers(model.ownInertia(body.index()));
                    linkParameters = true;
                }
                for (int slot : p.field().inertiaSlots()) {
                    inertia[slot] = "p[" + k + "]";
                }
            }
        }
        CodeBlock.Builder code = CodeBlock.builder();
        code.add("b.addBody($T.builder($S, $S, $S, $T.$L)", BODY_SPEC, body.name(), parent, j.name(), JOINT_TYPE,
                j.type().name());
        if (j.type() != org.symdyn.model.JointType.FLOATING && j.type() != org.symdyn.model.JointType.BALL) {
            code.add(".axis($L)", numbers(j.axis()));
        }
        code.add(".placement($T.of(new double[] {$L}, new double[] {$L}))", POSE,
                numbers(j.placement().rotationArray()), String.join(", ", translation));
        if (j.hasLimits()) {
            code.add(".limits($L, $L)", exact(j.lower()), exact(j.upper()));
        }
        if (armature != null) {
            code.add(".armature($L)", armature);
        }
        code.add(".inertia($T.of($L, new double[] {$L}, new double[] {$L})).build());\n", INERTIA, inertia[0],
                String.join(", ", java.util.Arrays.copyOfRange(inertia, 1, 4)),
                String.join(", ", java.util.Arrays.copyOfRange(inertia, 4, 13)));
        if (!linkParameters) {
            return code.build();
        }
        RigidBodyInertia rest = rest(body.inertia(), model.ownInertia(body.index()));
        if (rest != null) {
            String name = body.name() + "__merged";
            while (!names.add(name)) {
                name += "_";
            }
            code.add("b.addFixedLink($S, $S, $T.IDENTITY, $T.of($L, new double[] {$L}, new double[] {$L}), $T.UNKNOWN,"
                    + " $T.UNKNOWN);\n", name, body.name(), POSE, INERTIA, exact(rest.mass()),
                    numbers(rest.comArray()), numbers(rest.inertiaAboutComArray()),
                    org.symdyn.model.SourceLocation.class, org.symdyn.model.SourceLocation.class);
        }
        return code.build();
    }

    /** m, c (3), I_c (9, row-major) of an inertia as literals, 13 entries. */
    private static String[] inertiaNumbers(RigidBodyInertia in) {
        String[] out = new String[13];
        out[0] = exact(in.mass());
        double[] c = in.comArray();
        double[] ic = in.inertiaAboutComArray();
        for (int r = 0; r < 3; r++) {
            out[1 + r] = exact(c[r]);
        }
        for (int e = 0; e < 9; e++) {
            out[4 + e] = exact(ic[e]);
        }
        return out;
    }

    /**
     * The links merged into a body beside its own: all − own about the body's origin (m, h = m c and Ī additive
     * there), back to (m, c, I_c); null when nothing is merged (no mass and no rotational inertia left beyond
     * rounding of the body's own numbers). Entries of I_c within that rounding (1e-12 of the body's largest) are
     * zeroed: a point mass merged into a heavy link would otherwise come back with principal moments of either sign
     * at the rounding of the heavy link's, which the model builder refuses as not positive definite, where it takes
     * a point mass on a fixed link as it is.
     */
    private static RigidBodyInertia rest(RigidBodyInertia all, RigidBodyInertia own) {
        double m = all.mass() - own.mass();
        double[] h = new double[3];
        double[] ibar = new double[9];
        double scale = Math.max(Math.abs(all.mass()), 1e-300);
        double inertiaScale = 1e-300;
        for (int r = 0; r < 3; r++) {
            h[r] = all.mass() * all.com(r) - own.mass() * own.com(r);
            for (int c = 0; c < 3; c++) {
                ibar[3 * r + c] = all.inertiaAboutOrigin(r, c) - own.inertiaAboutOrigin(r, c);
                inertiaScale = Math.max(inertiaScale, Math.abs(all.inertiaAboutOrigin(r, c)));
            }
        }
        boolean massless = Math.abs(m) <= 1e-12 * scale;
        boolean noInertia = true;
        for (double x : ibar) {
            noInertia &= Math.abs(x) <= 1e-12 * inertiaScale;
        }
        if (massless && noInertia) {
            return null;
        }
        double[] com = new double[3];
        if (!massless) {
            for (int r = 0; r < 3; r++) {
                com[r] = h[r] / m;
            }
        } else {
            m = 0;
        }
        double cc = com[0] * com[0] + com[1] * com[1] + com[2] * com[2];
        double[] ic = new double[9];
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                double x = ibar[3 * r + c] - m * ((r == c ? cc : 0) - com[r] * com[c]);
                ic[3 * r + c] = Math.abs(x) <= 1e-12 * inertiaScale ? 0 : x;
            }
        }
        return RigidBodyInertia.of(m, com, ic);
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
