package org.symdyn.generator;

import com.squareup.javapoet.AnnotationSpec;
import com.squareup.javapoet.ClassName;
import com.squareup.javapoet.CodeBlock;
import com.squareup.javapoet.FieldSpec;
import com.squareup.javapoet.JavaFile;
import com.squareup.javapoet.MethodSpec;
import com.squareup.javapoet.ParameterizedTypeName;
import com.squareup.javapoet.TypeName;
import com.squareup.javapoet.TypeSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Modifier;
import org.ejml.data.DMatrixRMaj;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.contract.ConstraintFunctions;
import org.symdyn.contract.ConstraintType;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.FrameKinematics;
import org.symdyn.contract.ModelParameters;
import org.symdyn.generator.emit.JavadocText;
import org.symdyn.generator.emit.MethodEmitter;
import org.symdyn.generator.emit.OperationCount;
import org.symdyn.generator.symbolic.ExpressionGraph;
import org.symdyn.generator.symbolic.SymbolicDynamics;
import org.symdyn.model.Body;
import org.symdyn.model.Frame;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;

/**
 * Generates the Java source of a class that evaluates one model's dynamics: H(q), C(q, v), g(q), inverse and
 * forward dynamics, and the constraint terms φ, φ̇, G and γ, as straight-line code derived symbolically (see
 * {@link SymbolicDynamics}). The class implements {@link Dynamics} and {@link ConstraintFunctions}, so the solvers
 * and tests of the runtime run on it unchanged; it depends on the runtime only.
 *
 * <p>Forward dynamics is H⁻¹ (τ - C) through a branch-sparse LᵀDL factorisation of the generated H, reusing the
 * temporaries of H and C.
 *
 * <p>Output is reproducible: the same model and options give the same bytes. Symja's evaluator is per instance, so
 * use one generator per thread.
 */
public final class CodeGenerator {
    /**
     * Where the class goes, what it is called, whether to add the closed form of H, C and g to the class Javadoc
     * (models of up to {@link #CLOSED_FORM_MAX_DOF} dof; Symja's TrigReduce and Simplify, at most
     * {@link #CLOSED_FORM_SECONDS} s per entry; an entry that does not simplify in time is shown expanded), and
     * whether the joint angles' sines and cosines call {@link Math#sin}/{@link Math#cos} ({@code mathTrig}) instead
     * of the default inlined {@link org.symdyn.spatial.SinCos} steps, which are faster (iiwa14's C by about a
     * quarter) and within 2 ulps of Math's; choose Math to get its bits exactly.
     */
    public record Options(String packageName, String className, boolean closedForm, boolean mathTrig) {
        public Options(String packageName, String className) {
            this(packageName, className, false, false);
        }

        public Options(String packageName, String className, boolean closedForm) {
            this(packageName, className, closedForm, false);
        }
    }

    /** Largest model (dof) for which {@link Options#closedForm()} writes the equations. */
    public static final int CLOSED_FORM_MAX_DOF = 4;
    /** Time limit of the simplification of one closed-form entry, in seconds. */
    public static final long CLOSED_FORM_SECONDS = 5;

    /** A generated class: its source and what it cost. */
    public record GeneratedClass(String packageName, String className, String source, int nq, int nv,
            Map<String, OperationCount> operations, Map<String, Long> generationMillis) {

        /** The fully qualified class name. */
        public String qualifiedName() {
            return packageName.isEmpty() ? className : packageName + "." + className;
        }
    }

    private static final ClassName DMATRIX = ClassName.get(DMatrixRMaj.class);
    private static final TypeName STRING_LIST = ParameterizedTypeName.get(List.class, String.class);

    /**
     * The class name derived from a robot name: the name is cut into runs of ASCII letters and digits (every other
     * character, non-ASCII letters included, separates); each run gets its first letter upper-cased, the rest is
     * kept; the runs are joined; {@code Model} is put in front when the result is empty or starts with a digit;
     * and {@code Dynamics} is appended. So {@code iiwa14} gives {@code Iiwa14Dynamics}, {@code romeo_small} gives
     * {@code RomeoSmallDynamics}, {@code 2dof_planar} gives {@code Model2dofPlanarDynamics}, {@code ur5-e.v2}
     * gives {@code Ur5EV2Dynamics} and an empty name gives {@code ModelDynamics}. The result is always a valid
     * Java identifier and never a keyword.
     */
    public static String defaultClassName(String robotName) {
        StringBuilder sb = new StringBuilder();
        boolean wordStart = true;
        String name = robotName == null ? "" : robotName;
        for (int i = 0; i < name.length(); i++) {
            char ch = name.charAt(i);
            boolean alnum = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
            if (!alnum) {
                wordStart = true;
                continue;
            }
            sb.append(wordStart ? Character.toUpperCase(ch) : ch);
            wordStart = false;
        }
        if (sb.length() == 0 || Character.isDigit(sb.charAt(0))) {
            sb.insert(0, "Model");
        }
        return sb.append("Dynamics").toString();
    }

    /** java.lang classes the generated code names without qualification: a generated class must not hide them. */
    private static final java.util.Set<String> RESERVED_NAMES = java.util.Set.of("Math", "System", "Override",
            "IndexOutOfBoundsException", "String", "Object");

    /**
     * Generates the class for {@code model}.
     *
     * @throws IllegalArgumentException if the class name would hide a java.lang class the code uses (such as Math)
     */
    public GeneratedClass generate(Model model, Options options) {
        if (RESERVED_NAMES.contains(options.className())) {
            throw new IllegalArgumentException("class name '" + options.className() + "' would hide java.lang."
                    + options.className() + ", which the generated code uses: choose another name");
        }
        Map<String, Long> millis = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        ExpressionGraph g = new ExpressionGraph();
        SymbolicDynamics sym = new SymbolicDynamics(model, g);
        int nv = model.nv();
        int nq = model.nq();
        long t = lap(millis, "setup", t0);

        IExpr[][] h = sym.massMatrix();
        t = lap(millis, "mass_matrix", t);
        IExpr[] c = sym.biasForces();
        t = lap(millis, "bias_forces", t);
        IExpr[] gq = sym.gravityForces();
        t = lap(millis, "gravity", t);
        IExpr[] tauId = sym.inverseDynamics();
        t = lap(millis, "inverse_dynamics", t);
        IExpr[] qdd = sym.forwardDynamics(h, c);
        t = lap(millis, "forward_dynamics", t);
        IExpr[] phi = sym.positionErrors();
        IExpr[] phidot = sym.velocityErrors();
        IExpr[][] jac = sym.constraintJacobian(phidot);
        t = lap(millis, "constraint_jacobian", t);
        IExpr[] gamma = sym.gamma(phidot);
        t = lap(millis, "gamma", t);
        int rows = phi.length;

        MethodEmitter emitter = new MethodEmitter(g, !options.mathTrig());
        Map<String, OperationCount> ops = new LinkedHashMap<>();
        List<MethodSpec> methods = new ArrayList<>();

        List<MethodEmitter.Output> hOut = new ArrayList<>();
        for (int i = 0; i < nv; i++) {
            for (int j = 0; j < nv; j++) {
                hOut.add(new MethodEmitter.Output("H.data[" + (i * nv + j) + "]", h[i][j]));
            }
        }
        emit(emitter, methods, ops, "mass_matrix", override("massMatrix").addParameter(double[].class, "q")
                .addParameter(DMATRIX, "H").build(), hOut);
        emit(emitter, methods, ops, "bias_forces", override("biasForces").addParameter(double[].class, "q")
                .addParameter(double[].class, "v").addParameter(double[].class, "C").build(), vector("C", c));
        emit(emitter, methods, ops, "gravity", override("gravityForces").addParameter(double[].class, "q")
                .addParameter(double[].class, "g").build(), vector("g", gq));
        emit(emitter, methods, ops, "inverse_dynamics", override("inverseDynamics")
                .addParameter(double[].class, "q").addParameter(double[].class, "v")
                .addParameter(double[].class, "vdot").addParameter(double[].class, "tau").build(),
                vector("tau", tauId));
        emit(emitter, methods, ops, "forward_dynamics", override("forwardDynamics")
                .addParameter(double[].class, "q").addParameter(double[].class, "v")
                .addParameter(double[].class, "tau").addParameter(double[].class, "vdot").build(),
                vector("vdot", qdd));
        emit(emitter, methods, ops, "position_error", override("positionError").addParameter(double[].class, "q")
                .addParameter(double[].class, "phi").build(), vector("phi", phi));
        emit(emitter, methods, ops, "velocity_error", override("velocityError").addParameter(double[].class, "q")
                .addParameter(double[].class, "v").addParameter(double[].class, "phidot").build(),
                vector("phidot", phidot));
        List<MethodEmitter.Output> gOut = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            for (int k = 0; k < nv; k++) {
                gOut.add(new MethodEmitter.Output("G.data[" + (r * nv + k) + "]", jac[r][k]));
            }
        }
        emit(emitter, methods, ops, "constraint_jacobian", override("constraintJacobian")
                .addParameter(double[].class, "q").addParameter(DMATRIX, "G").build(), gOut);
        emit(emitter, methods, ops, "gamma", override("gamma").addParameter(double[].class, "q")
                .addParameter(double[].class, "v").addParameter(double[].class, "gamma").build(),
                vector("gamma", gamma));
        emitFramePoses(model, sym, emitter, methods);
        t = lap(millis, "emission", t);
        CodeBlock closedForm = null;
        if (options.closedForm() && nv <= CLOSED_FORM_MAX_DOF) {
            closedForm = closedForm(model, g, h, c, gq);
            lap(millis, "closed_form", t);
        }

        TypeSpec type = classSpec(model, options, methods, ops, emitter.workspaceSize(), rows, closedForm);
        String source = JavaFile.builder(options.packageName(), type).skipJavaLangImports(true).indent("    ")
                .build().toString();
        millis.put("total", (System.nanoTime() - t0) / 1_000_000);
        return new GeneratedClass(options.packageName(), options.className(), source, nq, nv, ops, millis);
    }

    /**
     * framePose(q, frame, rotation, position): one private method per frame, chosen by a switch on the argument
     * (the frame index), each straight-line.
     */
    private static void emitFramePoses(Model model, SymbolicDynamics sym, MethodEmitter emitter,
            List<MethodSpec> methods) {
        CodeBlock.Builder cases = CodeBlock.builder().beginControlFlow("switch (frame)");
        List<Frame> frames = model.frames();
        for (int f = 0; f < frames.size(); f++) {
            IExpr[][] pose = sym.framePose(frames.get(f));
            List<MethodEmitter.Output> outs = new ArrayList<>();
            for (int k = 0; k < 9; k++) {
                outs.add(new MethodEmitter.Output("rotation[" + k + "]", pose[0][k]));
            }
            for (int k = 0; k < 3; k++) {
                outs.add(new MethodEmitter.Output("position[" + k + "]", pose[1][k]));
            }
            MethodSpec spec = MethodSpec.methodBuilder("framePose" + f).addModifiers(Modifier.PRIVATE)
                    .addJavadoc("Frame {@code $L}.\n", JavadocText.escape(frames.get(f).name()))
                    .addParameter(double[].class, "q").addParameter(double[].class, "rotation")
                    .addParameter(double[].class, "position").build();
            methods.addAll(emitter.emit(spec, outs).methods());
            cases.addStatement("case $L -> framePose$L(q, rotation, position)", f, f);
        }
        cases.addStatement("default -> throw new $T(\"frame \" + frame + \" of \" + $L)",
                IndexOutOfBoundsException.class, frames.size());
        cases.endControlFlow();
        methods.add(override("framePose").addParameter(double[].class, "q").addParameter(int.class, "frame")
                .addParameter(double[].class, "rotation").addParameter(double[].class, "position")
                .addCode(cases.build()).build());
    }

    private static long lap(Map<String, Long> millis, String phase, long since) {
        long now = System.nanoTime();
        millis.put(phase, (now - since) / 1_000_000);
        return now;
    }

    private static MethodSpec.Builder override(String name) {
        return MethodSpec.methodBuilder(name).addAnnotation(Override.class).addModifiers(Modifier.PUBLIC);
    }

    private static List<MethodEmitter.Output> vector(String name, IExpr[] values) {
        List<MethodEmitter.Output> out = new ArrayList<>();
        for (int k = 0; k < values.length; k++) {
            out.add(new MethodEmitter.Output(name + "[" + k + "]", values[k]));
        }
        return out;
    }

    private static void emit(MethodEmitter emitter, List<MethodSpec> methods, Map<String, OperationCount> ops,
            String key, MethodSpec spec, List<MethodEmitter.Output> outputs) {
        MethodEmitter.Emitted e = emitter.emit(spec, outputs);
        ops.put(key, e.operations());
        List<MethodSpec> ms = new ArrayList<>(e.methods());
        MethodSpec pub = ms.get(0).toBuilder().addJavadoc("$L: $L.\n", key.replace('_', ' '), e.operations())
                .build();
        ms.set(0, pub);
        methods.addAll(ms);
    }

    /**
     * H, C and g as single simplified expressions in the joint coordinates q_k and velocities qd_k, for a person
     * to read (the generated code itself stays the temporaries' graph, which is cheaper).
     */
    private static CodeBlock closedForm(Model model, ExpressionGraph g, IExpr[][] h, IExpr[] c, IExpr[] gq) {
        Map<org.matheclipse.core.interfaces.ISymbol, IExpr> rename = new LinkedHashMap<>();
        Map<String, IExpr> coordinates = new LinkedHashMap<>();
        java.util.function.Function<String, IExpr> coordinate = name -> coordinates.computeIfAbsent(name,
                org.matheclipse.core.expression.F::Dummy);
        for (Map.Entry<org.matheclipse.core.interfaces.ISymbol, String> in : g.inputs().entrySet()) {
            String java = in.getValue();
            String index = java.replaceAll("[^0-9]", "");
            if (java.startsWith("Math.sin")) {
                rename.put(in.getKey(), org.matheclipse.core.expression.F.Sin(coordinate.apply("q" + index)));
            } else if (java.startsWith("Math.cos")) {
                rename.put(in.getKey(), org.matheclipse.core.expression.F.Cos(coordinate.apply("q" + index)));
            } else if (java.startsWith("v[")) {
                rename.put(in.getKey(), coordinate.apply("qd" + index));
            } else if (java.startsWith("q[")) {
                rename.put(in.getKey(), coordinate.apply("q" + index));
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

    private static String readable(ExpressionGraph g, IExpr e,
            Map<org.matheclipse.core.interfaces.ISymbol, IExpr> rename) {
        IExpr simple = g.simplify(g.expand(e, rename), CLOSED_FORM_SECONDS);
        return simple.toString().replaceAll("\\s+", " ").replace("*/", "* /").replace("@", "{@literal @}");
    }

    private static TypeSpec classSpec(Model model, Options options, List<MethodSpec> methods,
            Map<String, OperationCount> ops, int workspace, int rows, CodeBlock closedForm) {
        CodeBlock.Builder doc = CodeBlock.builder()
                .add("Dynamics of the model {@code $L}, generated by SymDyn from a symbolic derivation.\n\n",
                        JavadocText.escape(model.name()))
                .add("<p>Model file SHA-256: {@code $L}. nq = $L, nv = $L, constraint rows = $L.\n\n",
                        model.sourceSha256() == null ? "(built in code)" : model.sourceSha256(), model.nq(),
                        model.nv(), rows)
                .add("<p>Operations per call:\n<ul>\n");
        for (Map.Entry<String, OperationCount> e : ops.entrySet()) {
            doc.add("<li>$L: $L</li>\n", e.getKey(), e.getValue());
        }
        if (options.mathTrig()) {
            doc.add("</ul>\nmul and add count the arithmetic of the dynamics; trig counts the calls of "
                    + "{@code Math.sin} and {@code Math.cos} (generated with the mathTrig option).\n");
        } else {
            doc.add("</ul>\nmul and add count the arithmetic of the dynamics; trig counts the sines and cosines of "
                    + "joint angles (each pair from one inlined {@link $T} reduction, whose polynomials are not in "
                    + "mul and add).\n", org.symdyn.spatial.SinCos.class);
        }
        if (closedForm != null) {
            doc.add(closedForm);
        }
        doc.add("\n<p>Straight-line code: no allocation, no branching on the model (the few branches depend on values "
                + "only: the quadrant of each sine and cosine, and the side of a line-on-line contact's normal). An "
                + "instance owns a workspace and is not thread-safe; use {@link #copy()} for one instance per "
                + "thread.\n");
        TypeSpec.Builder b = TypeSpec.classBuilder(options.className())
                .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
                .addSuperinterface(Dynamics.class)
                .addSuperinterface(ConstraintFunctions.class)
                .addSuperinterface(FrameKinematics.class)
                .addSuperinterface(ModelParameters.class)
                .addAnnotation(AnnotationSpec.builder(ClassName.get("javax.annotation.processing", "Generated"))
                        .addMember("value", "$S", CodeGenerator.class.getName()).build())
                .addJavadoc(doc.build());
        b.addField(FieldSpec.builder(double[].class, "w", Modifier.PRIVATE, Modifier.FINAL)
                .initializer("new double[$L]", Math.max(workspace, 1)).build());
        List<String> bodyNames = new ArrayList<>();
        List<String> jointNames = new ArrayList<>();
        StringBuilder parents = new StringBuilder();
        StringBuilder floating = new StringBuilder();
        for (Body body : model.bodies()) {
            bodyNames.add(body.name());
            jointNames.add(body.joint().name());
            parents.append(parents.length() == 0 ? "" : ", ").append(body.parentIndex());
            floating.append(floating.length() == 0 ? "" : ", ")
                    .append(body.joint().type() == JointType.FLOATING);
        }
        List<String> frameNames = new ArrayList<>();
        for (Frame f : model.frames()) {
            frameNames.add(f.name());
        }
        b.addField(listField("Q_NAMES", model.qNames()));
        b.addField(listField("V_NAMES", model.vNames()));
        b.addField(listField("BODY_NAMES", bodyNames));
        b.addField(listField("JOINT_NAMES", jointNames));
        b.addField(listField("FRAME_NAMES", frameNames));
        b.addField(FieldSpec.builder(int[].class, "PARENTS", Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
                .initializer("{$L}", parents).build());
        b.addField(FieldSpec.builder(boolean[].class, "FLOATING", Modifier.PRIVATE, Modifier.STATIC,
                Modifier.FINAL).initializer("{$L}", floating).build());
        b.addMethod(constant("modelName", String.class, CodeBlock.of("$S", model.name())));
        b.addMethod(constant("sourceSha256", String.class, model.sourceSha256() == null ? CodeBlock.of("null")
                : CodeBlock.of("$S", model.sourceSha256())));
        b.addMethod(constant("modelHash", String.class, CodeBlock.of("$S", model.contentHash())));
        b.addMethod(constant("nq", int.class, CodeBlock.of("$L", model.nq())));
        b.addMethod(constant("nv", int.class, CodeBlock.of("$L", model.nv())));
        b.addMethod(constant("constraintRows", int.class, CodeBlock.of("$L", rows)));
        b.addMethod(constant("qNames", STRING_LIST, CodeBlock.of("Q_NAMES")));
        b.addMethod(constant("vNames", STRING_LIST, CodeBlock.of("V_NAMES")));
        b.addMethod(constant("bodyNames", STRING_LIST, CodeBlock.of("BODY_NAMES")));
        b.addMethod(constant("jointNames", STRING_LIST, CodeBlock.of("JOINT_NAMES")));
        b.addMethod(constant("frameNames", STRING_LIST, CodeBlock.of("FRAME_NAMES")));
        b.addMethod(MethodSpec.methodBuilder("parent").addAnnotation(Override.class).addModifiers(Modifier.PUBLIC)
                .returns(int.class).addParameter(int.class, "body").addStatement("return PARENTS[body]").build());
        StringBuilder qIndex = new StringBuilder();
        StringBuilder vIndex = new StringBuilder();
        for (Body body : model.bodies()) {
            qIndex.append(qIndex.length() == 0 ? "" : ", ").append(body.joint().qIndex());
            vIndex.append(vIndex.length() == 0 ? "" : ", ").append(body.joint().vIndex());
        }
        b.addField(FieldSpec.builder(int[].class, "Q_INDEX", Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
                .initializer("{$L}", qIndex).build());
        b.addField(FieldSpec.builder(int[].class, "V_INDEX", Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
                .initializer("{$L}", vIndex).build());
        b.addMethod(MethodSpec.methodBuilder("qIndex").addAnnotation(Override.class).addModifiers(Modifier.PUBLIC)
                .returns(int.class).addParameter(int.class, "body").addStatement("return Q_INDEX[body]").build());
        b.addMethod(MethodSpec.methodBuilder("vIndex").addAnnotation(Override.class).addModifiers(Modifier.PUBLIC)
                .returns(int.class).addParameter(int.class, "body").addStatement("return V_INDEX[body]").build());
        addConstraintMetadata(b, model);
        b.addMethod(MethodSpec.methodBuilder("isFloating").addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC).returns(boolean.class).addParameter(int.class, "body")
                .addStatement("return FLOATING[body]").build());
        ClassName self = ClassName.get(options.packageName(), options.className());
        b.addMethod(MethodSpec.methodBuilder("copy").addAnnotation(Override.class).addModifiers(Modifier.PUBLIC)
                .addJavadoc("A new instance with its own workspace and the current parameter values.\n")
                .returns(self).addStatement("final $T copy = new $T()", self, self)
                .addStatement("$T.arraycopy(parameters, 0, copy.parameters, 0, parameters.length)", System.class)
                .addStatement("return copy").build());
        addParameters(b, model);
        b.addMethods(methods);
        return b.build();
    }

    /**
     * The model's constraints as a solver's constraint set needs them from the class alone: names, kinds, row
     * counts and Baumgarte time constants (NaN: none stated).
     */
    private static void addConstraintMetadata(TypeSpec.Builder b, Model model) {
        List<String> names = new ArrayList<>();
        CodeBlock.Builder types = CodeBlock.builder();
        StringBuilder rows = new StringBuilder();
        StringBuilder timeConstants = new StringBuilder();
        for (org.symdyn.model.ConstraintModel c : model.constraints()) {
            names.add(c.name());
            types.add(types.isEmpty() ? "$T.$L" : ", $T.$L", ConstraintType.class, c.type().name());
            rows.append(rows.length() == 0 ? "" : ", ").append(c.rowCount());
            double t = c.baumgarteTimeConstant();
            timeConstants.append(timeConstants.length() == 0 ? "" : ", ")
                    .append(Double.isNaN(t) ? "Double.NaN" : Double.toString(t));
        }
        b.addField(listField("CONSTRAINT_NAMES", names));
        b.addField(FieldSpec.builder(ConstraintType[].class, "CONSTRAINT_TYPES", Modifier.PRIVATE, Modifier.STATIC,
                Modifier.FINAL).initializer("{$L}", types.build()).build());
        b.addField(FieldSpec.builder(int[].class, "CONSTRAINT_ROWS", Modifier.PRIVATE, Modifier.STATIC,
                Modifier.FINAL).initializer("{$L}", rows).build());
        b.addField(FieldSpec.builder(double[].class, "BAUMGARTE_TIME_CONSTANTS", Modifier.PRIVATE, Modifier.STATIC,
                Modifier.FINAL).initializer("{$L}", timeConstants).build());
        b.addMethod(constant("constraintNames", STRING_LIST, CodeBlock.of("CONSTRAINT_NAMES")));
        b.addMethod(MethodSpec.methodBuilder("constraintType").addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC).returns(ConstraintType.class).addParameter(int.class, "k")
                .addStatement("return CONSTRAINT_TYPES[k]").build());
        b.addMethod(MethodSpec.methodBuilder("constraintRowCount").addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC).returns(int.class).addParameter(int.class, "k")
                .addStatement("return CONSTRAINT_ROWS[k]").build());
        b.addMethod(MethodSpec.methodBuilder("baumgarteTimeConstant").addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC).returns(double.class).addParameter(int.class, "k")
                .addStatement("return BAUMGARTE_TIME_CONSTANTS[k]").build());
    }

    /** The parameter array, its names, index access and one typed getter and setter per parameter. */
    private static void addParameters(TypeSpec.Builder b, Model model) {
        List<org.symdyn.model.ParameterModel> params = model.parameters();
        StringBuilder defaults = new StringBuilder();
        List<String> names = new ArrayList<>();
        for (org.symdyn.model.ParameterModel p : params) {
            defaults.append(defaults.length() == 0 ? "" : ", ").append(Double.toString(p.value()));
            names.add(p.name());
        }
        b.addField(FieldSpec.builder(double[].class, "parameters", Modifier.PRIVATE, Modifier.FINAL)
                .initializer("{$L}", defaults).build());
        b.addField(listField("PARAMETER_NAMES", names));
        b.addMethod(constant("parameterNames", STRING_LIST, CodeBlock.of("PARAMETER_NAMES")));
        b.addMethod(MethodSpec.methodBuilder("parameter").addAnnotation(Override.class).addModifiers(Modifier.PUBLIC)
                .returns(double.class).addParameter(int.class, "index").addStatement("return parameters[index]")
                .build());
        b.addMethod(MethodSpec.methodBuilder("setParameter").addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC).addParameter(int.class, "index").addParameter(double.class, "value")
                .addStatement("parameters[index] = value").build());
        for (int k = 0; k < params.size(); k++) {
            org.symdyn.model.ParameterModel p = params.get(k);
            String camel = Character.toUpperCase(p.name().charAt(0)) + p.name().substring(1);
            String what = p.field().isLinkField() ? "the " + p.field().fileName() + " of link {@code "
                    + JavadocText.escape(model.body(p.body()).name()) + "}" : "the " + p.field().fileName()
                    + " of joint {@code " + JavadocText.escape(model.body(p.body()).joint().name()) + "}";
            b.addMethod(MethodSpec.methodBuilder("get" + camel).addModifiers(Modifier.PUBLIC).returns(double.class)
                    .addJavadoc("Parameter {@code $L}: $L (model value $L).\n", p.name(), what, p.value())
                    .addStatement("return parameters[$L]", k).build());
            b.addMethod(MethodSpec.methodBuilder("set" + camel).addModifiers(Modifier.PUBLIC)
                    .addParameter(double.class, "value")
                    .addJavadoc("Sets parameter {@code $L}: $L (SI units).\n", p.name(), what)
                    .addStatement("parameters[$L] = value", k).build());
        }
    }

    private static FieldSpec listField(String name, List<String> values) {
        CodeBlock.Builder init = CodeBlock.builder().add("$T.of(", List.class);
        for (int i = 0; i < values.size(); i++) {
            init.add(i == 0 ? "$S" : ", $S", values.get(i));
        }
        init.add(")");
        return FieldSpec.builder(STRING_LIST, name, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
                .initializer(init.build()).build();
    }

    private static MethodSpec constant(String name, Object type, CodeBlock value) {
        MethodSpec.Builder m = MethodSpec.methodBuilder(name).addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC).addStatement("return $L", value);
        return (type instanceof TypeName tn ? m.returns(tn) : m.returns((Class<?>) type)).build();
    }
}
