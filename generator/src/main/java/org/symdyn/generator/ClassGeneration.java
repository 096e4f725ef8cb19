package org.symdyn.generator;

import static org.symdyn.generator.Outputs.concat;
import static org.symdyn.generator.Outputs.matrix;
import static org.symdyn.generator.Outputs.vector;

import com.squareup.javapoet.CodeBlock;
import com.squareup.javapoet.FieldSpec;
import com.squareup.javapoet.JavaFile;
import com.squareup.javapoet.MethodSpec;
import com.squareup.javapoet.TypeSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.matheclipse.core.expression.F;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.contract.ModelPart;
import org.symdyn.generator.ArgumentChecks.Arg;
import org.symdyn.generator.emit.MethodEmitter;
import org.symdyn.generator.emit.OperationCount;
import org.symdyn.generator.symbolic.SymbolicArticulatedBody;
import org.symdyn.generator.symbolic.SymbolicInput;
import org.symdyn.generator.symbolic.SymbolicLimbs;
import org.symdyn.generator.symbolic.SymbolicRecursions;
import org.symdyn.model.Model;

/**
 * One generation's emission, step by step in class order ({@code CodeGenerator.generate}): each step emits its
 * methods after the derivation of the earlier ones, since the expression graph names its temporaries in derivation
 * order and no step may rename another's. The class is {@link #assemble assembled} last.
 */
final class ClassGeneration {
    /**
     * Fewest chunks of the articulated-body forward dynamics, emitted in first-use order, for which it is emitted in
     * its derivation's order instead, pass by pass ({@link MethodEmitter.Order#CREATION}). Interleaved
     * ({@code InterleavedAB --compare order}, 2 copies a side, 40 rounds, B/A): romeo_small (65 chunks) 0.974,
     * p10-p90 0.965-0.984; hyq (25) 1.009, solo12 (24) 1.009, panda (13) 1.012 with p10-p90 0.922-1.104: the gain is
     * the largest methods', so the others keep their code. An FD that calls twin limbs' shared code
     * ({@link LimbForm#SHARED}) keeps first-use order.
     */
    static final int PASS_ORDER_CHUNKS = 40;

    private final Model model;
    private final GeneratorOptions options;
    private final GenerationForms forms;
    private final Derivation derived;
    private final PhaseClock clock;
    private final ClassMethods methods;
    private final List<FieldSpec> fields = new ArrayList<>();
    private final Map<String, int[]> tables = new LinkedHashMap<>();
    private final Arg q;
    private final Arg v;
    private final Arg hParam;
    private final Arg gParam;
    private final Arg cParam;
    private final Arg gammaParam;
    private final Arg phiParam;
    private final Arg phidotParam;
    private final List<MethodEmitter.Output> hOut;
    private final List<MethodEmitter.Output> cOut;
    private final List<MethodEmitter.Output> gOut;
    private final List<MethodEmitter.Output> gammaOut;
    private final List<MethodEmitter.Output> phiOut;
    private final List<MethodEmitter.Output> phidotOut;
    private final MethodSpec cSpec;
    private final MethodSpec gSpec;
    private final MethodSpec idSpec;
    private final MethodSpec fdSpec;
    /** Where C, g and τ start, and where τ ends, in class order. */
    private final int[] inverseAt = new int[4];
    private int forwardDynamicsAt;
    private int forwardDynamicsLength;
    private ForwardDynamicsChoice forwardDynamics;
    private CodeBlock closedForm;
    private SystemFactorization systemFactorization = SystemFactorization.NONE;
    private boolean rowDerivatives;
    private boolean articulatedSystem;
    private boolean limbConstraints;
    /** Whether the class carries the constraint rows and the fused evaluations ({@link ModelPart#CONSTRAINTS}). */
    private final boolean constraints;

    ClassGeneration(Model model, GeneratorOptions options, GenerationForms forms, Derivation derived,
            PhaseClock clock) {
        this.model = model;
        this.options = options;
        this.forms = forms;
        this.derived = derived;
        this.clock = clock;
        this.constraints = options.carries(ModelPart.CONSTRAINTS);
        this.methods = new ClassMethods(new MethodEmitter(derived.graph(), !options.mathTrig()));
        int nv = model.nv();
        int rows = derived.rows();
        q = Arg.in("q", model.nq());
        v = Arg.in("v", nv);
        hParam = Arg.matrix("H", nv, nv);
        gParam = Arg.matrix("G", rows, nv);
        cParam = Arg.out("C", nv);
        gammaParam = Arg.out("gamma", rows);
        phiParam = Arg.out("phi", rows);
        phidotParam = Arg.out("phidot", rows);
        hOut = derived.h() == null ? null : matrix("H", derived.h());
        cOut = vector("C", derived.c());
        gOut = matrix("G", derived.jacobian());
        gammaOut = vector("gamma", derived.gamma());
        phiOut = vector("phi", derived.phi());
        phidotOut = vector("phidot", derived.phidot());
        cSpec = ArgumentChecks.method("biasForces", q, v, cParam);
        gSpec = ArgumentChecks.method("gravityForces", q, Arg.out("g", nv));
        idSpec = ArgumentChecks.method("inverseDynamics", q, v, Arg.in("vdot", nv), Arg.out("tau", nv));
        fdSpec = ArgumentChecks.method("forwardDynamics", q, v, Arg.in("tau", nv), Arg.out("vdot", nv));
    }

    /**
     * H (looped for a large model), C, g and τ, each unrolled whole; the place of forward dynamics, emitted later
     * ({@link #emitForwardDynamics}); φ, φ̇, G and γ of the constraint rows.
     */
    void emitDynamics() {
        if (forms.large()) {
            methods.count(GeneratedMethod.MASS_MATRIX, LoopedMassMatrix.emit(model, derived.symbolic().dynamics(),
                    methods.emitter(), ArgumentChecks.method("massMatrix", q, hParam), methods.list(), fields,
                    tables));
        } else {
            methods.emit(GeneratedMethod.MASS_MATRIX, ArgumentChecks.method("massMatrix", q, hParam), hOut);
        }
        // With twin limbs, a method too large for the instruction cache is emitted again at the end with calls of
        // the limbs' shared code (shareLimbs), after every other derivation, since the calls add temporaries that
        // must not rename any other method's.
        inverseAt[0] = methods.end();
        methods.emit(GeneratedMethod.BIAS_FORCES, cSpec, cOut);
        inverseAt[1] = methods.end();
        methods.emit(GeneratedMethod.GRAVITY, gSpec, vector("g", derived.g()));
        inverseAt[2] = methods.end();
        methods.emit(GeneratedMethod.INVERSE_DYNAMICS, idSpec, vector("tau", derived.tau()));
        inverseAt[3] = methods.end();
        forwardDynamicsAt = methods.end();
        methods.count(GeneratedMethod.FORWARD_DYNAMICS, OperationCount.ZERO);
        if (constraints) {
            methods.emit(GeneratedMethod.POSITION_ERROR, ArgumentChecks.method("positionError", q, phiParam), phiOut);
            methods.emit(GeneratedMethod.VELOCITY_ERROR, ArgumentChecks.method("velocityError", q, v, phidotParam),
                    phidotOut);
            methods.emit(GeneratedMethod.CONSTRAINT_JACOBIAN, ArgumentChecks.method("constraintJacobian", q, gParam),
                    gOut);
            methods.emit(GeneratedMethod.GAMMA, ArgumentChecks.method("gamma", q, v, gammaParam), gammaOut);
        } else {
            methods.list().addAll(List.of(
                    OmittedParts.missing(ModelPart.CONSTRAINTS, "positionError", List.of(q, phiParam)),
                    OmittedParts.missing(ModelPart.CONSTRAINTS, "velocityError", List.of(q, v, phidotParam)),
                    OmittedParts.missing(ModelPart.CONSTRAINTS, "constraintJacobian", List.of(q, gParam)),
                    OmittedParts.missing(ModelPart.CONSTRAINTS, "gamma", List.of(q, v, gammaParam))));
        }
        clock.lap("emission");
    }

    /**
     * The fused evaluations of ModelFunctions: one emission over all their outputs, so that sines, cosines,
     * transforms and velocities are computed once for all of them. A large model keeps ModelFunctions' defaults
     * (the separate calls), recorded at the cost of the calls they make: emitting them would repeat H, which grows
     * with n times the depth, three more times.
     */
    void emitFusedEvaluations() {
        if (!constraints) {
            methods.list().addAll(List.of(
                    OmittedParts.missing(ModelPart.CONSTRAINTS, "constrainedSystem", List.of(q, v, hParam, cParam,
                            gParam, gammaParam)),
                    OmittedParts.missing(ModelPart.CONSTRAINTS, "constrainedSystem", List.of(q, v, hParam, cParam,
                            gParam, gammaParam, phiParam, phidotParam)),
                    OmittedParts.missing(ModelPart.CONSTRAINTS, "impulseSystem", List.of(q, hParam, gParam))));
        } else if (forms.large()) {
            methods.countSeparateCalls();
        } else if (derived.rows() == 0 && !forms.perBodyKinematics()) {
            // Without rows, φ and φ̇ are empty and G is 0 x nv: the overload with the errors and the impulse system
            // are ModelFunctions' defaults around the one fused H and C, and massMatrix, at the same cost.
            methods.emit(GeneratedMethod.CONSTRAINED_SYSTEM, ArgumentChecks.method("constrainedSystem", q, v, hParam,
                    cParam, gParam, gammaParam), concat(hOut, cOut, gOut, gammaOut));
            OperationCounts c = methods.counts();
            methods.count(GeneratedMethod.CONSTRAINED_SYSTEM_WITH_ERRORS, c.get(GeneratedMethod.CONSTRAINED_SYSTEM));
            methods.count(GeneratedMethod.IMPULSE_SYSTEM, c.get(GeneratedMethod.MASS_MATRIX));
        } else {
            methods.emit(GeneratedMethod.CONSTRAINED_SYSTEM, ArgumentChecks.method("constrainedSystem", q, v, hParam,
                    cParam, gParam, gammaParam), concat(hOut, cOut, gOut, gammaOut));
            methods.emit(GeneratedMethod.CONSTRAINED_SYSTEM_WITH_ERRORS, ArgumentChecks.method("constrainedSystem",
                    q, v, hParam, cParam, gParam, gammaParam, phiParam, phidotParam),
                    concat(hOut, cOut, gOut, gammaOut, phiOut, phidotOut));
            methods.emit(GeneratedMethod.IMPULSE_SYSTEM, ArgumentChecks.method("impulseSystem", q, hParam, gParam),
                    concat(hOut, gOut));
        }
        clock.lap("fused");
    }

    /** The kinematics of bodies, frames and points: shared passes unless per body is asked for a model not large. */
    void emitKinematics() {
        if (!options.carries(ModelPart.KINEMATICS)) {
            methods.list().addAll(OmittedParts.kinematics(model));
        } else if (forms.large() || !forms.perBodyKinematics()) {
            new SharedPassKinematics(model, derived.symbolic().kinematics(), methods.emitter(), methods.list(), fields,
                    tables).emitAll();
        } else {
            new KinematicsMethods(model, derived.symbolic().kinematics(), methods.emitter(), methods.list())
                    .emitAll();
        }
        clock.lap("kinematics");
    }

    /** The methods of {@link org.symdyn.contract.DynamicsDerivatives}, with the derivatives option. */
    void emitDerivatives() {
        if (options.derivatives() && CodeGenerator.loopedDerivatives(model)) {
            LoopedDerivatives.emit(model, fields, methods.list());
            clock.lap("looped_derivatives");
        } else if (options.derivatives()) {
            DerivativeMethods.emitDynamics(model, derived.symbolic().derivatives(), derived.h(), derived.c(), methods,
                    fields, clock);
        }
    }

    /** The closed form of H, C and g for the class Javadoc, when asked for a small enough model. */
    void deriveClosedForm() {
        if (options.closedForm() && model.nv() <= GeneratorOptions.CLOSED_FORM_MAX_DOF) {
            closedForm = ClosedForm.of(model, derived.graph(), derived.h(), derived.c(), derived.g());
            clock.within("closed_form");
        }
    }

    /**
     * The articulated-body algorithm derived, the cheaper form of forward dynamics chosen
     * ({@link ForwardDynamicsChoice}) and emitted in the place kept for it; a large articulated-body method in its
     * derivation's order ({@link #PASS_ORDER_CHUNKS}).
     */
    void emitForwardDynamics() {
        MethodEmitter emitter = methods.emitter();
        IExpr[] qddArticulated = derived.symbolic().articulatedBody().forwardDynamics();
        IExpr[] qddFactorised = derived.qddFactorised();
        OperationCount factorisedOps = qddFactorised == null ? null : emitter.count(vector("vdot", qddFactorised));
        forwardDynamics = ForwardDynamicsChoice.of(options.forwardDynamics(), factorisedOps,
                emitter.count(vector("vdot", qddArticulated)), forms.factorisationWork());
        List<MethodEmitter.Output> fdOut = vector("vdot", forwardDynamics.articulated() ? qddArticulated
                : qddFactorised);
        // The chunks of the first-use order counted by a throwaway emitter, whose workspace the class does not keep.
        boolean passOrder = forwardDynamics.articulated() && new MethodEmitter(derived.graph(), !options.mathTrig())
                .emit(fdSpec, fdOut).methods().size() - 1 >= PASS_ORDER_CHUNKS;
        List<MethodSpec> fdMethods = methods.emitted(GeneratedMethod.FORWARD_DYNAMICS, fdSpec, fdOut,
                passOrder ? MethodEmitter.Order.CREATION : MethodEmitter.Order.FIRST_USE);
        methods.list().addAll(forwardDynamicsAt, fdMethods);
        forwardDynamicsLength = fdMethods.size();
        if (options.derivatives() && !CodeGenerator.loopedDerivatives(model)
                && DerivativeMethods.solvedForwardDerivatives(model)) {
            DerivativeMethods.countSolved(model, methods);
        }
        clock.lap("articulated_body");
    }

    /**
     * The factorisation of the rows' saddle-point system ({@link ConstrainedSystemMethods}); none without rows or for
     * a large model (its H is looped).
     */
    void emitConstrainedSystem() {
        if (derived.rows() > 0 && !forms.large() && constraints) {
            systemFactorization = ConstrainedSystemMethods.emit(derived.symbolic().constrainedSystem(), derived.h(),
                    derived.jacobian(), model.nv(), methods, fields);
        }
        clock.lap("constrained_system_factorisation");
    }

    /**
     * The recursive constrained system of the rows without H ({@link ArticulatedSystemMethods}), with the part
     * {@link ModelPart#RECURSIVE_CONSTRAINTS}; none without rows or for a large model.
     */
    void emitArticulatedSystem() {
        articulatedSystem = derived.rows() > 0 && !forms.large() && constraints
                && options.carries(ModelPart.RECURSIVE_CONSTRAINTS);
        if (articulatedSystem) {
            ArticulatedSystemMethods.emit(derived.symbolic().articulatedBody(), derived.graph(), derived.jacobian(),
                    derived.gamma(), model.nq(), model.nv(), methods, fields);
        }
        clock.lap("articulated_constraint_system");
    }

    /**
     * The constrained forward dynamics with each limb's rows eliminated inside the limb ({@link LimbConstraintMethods}),
     * with the constraints part, where every row is carried by a limb of a floating base; none for a large model.
     */
    void emitLimbConstraints() {
        limbConstraints = derived.rows() > 0 && !forms.large() && constraints
                && LimbConstraintMethods.applies(derived.symbolic().articulatedBody(), derived.jacobian());
        if (limbConstraints) {
            LimbConstraintMethods.emit(derived.symbolic().articulatedBody(), derived.jacobian(), derived.gamma(),
                    model.nq(), model.nv(), methods, fields);
        }
        clock.lap("limb_constraints");
    }

    /** The rows' derivatives ({@link org.symdyn.contract.ConstraintDerivatives}), with the derivatives option. */
    void emitRowDerivatives() {
        rowDerivatives = options.derivatives() && !CodeGenerator.loopedDerivatives(model) && derived.rows() > 0
                && constraints;
        if (rowDerivatives) {
            DerivativeMethods.emitConstraints(derived.symbolic().constraints().derivatives(derived.phi(),
                    derived.phidot(), derived.jacobian(), derived.gamma()), model.nq(), model.nv(), derived.rows(),
                    methods);
            clock.within("constraint_derivatives");
        }
    }

    /**
     * Twin limbs' C, g, τ (where {@link #sharesLimbs} says so) and, only with {@link LimbForm#SHARED}, the
     * articulated-body forward dynamics emitted again in their places, with calls of one method per limb shape
     * ({@link SharedLimbCode}).
     */
    void shareLimbs() {
        SharedLimbCode limbs = new SharedLimbCode(model, derived.graph(), !options.mathTrig());
        if (!limbs.any()) {
            return;
        }
        // Forward dynamics first: it follows the three below in the class. Only on request (LimbForm.SHARED):
        // interleaved, its calls gained nothing on romeo_small (B/A 0.995) and lost on the quadrupeds (1.05-1.07)
        // and on a 71-dof humanoid (+8 %), its two calls per limb passing U, D⁻¹, û and the sines through the
        // scratch array.
        if (forwardDynamics.articulated() && options.limbs() == LimbForm.SHARED) {
            SymbolicArticulatedBody aba = derived.symbolic().articulatedBody();
            Map<Integer, SymbolicArticulatedBody.LimbCalls> calls = new LinkedHashMap<>();
            List<MethodSpec> shared = new ArrayList<>();
            IExpr[][] states = aba.parentStates();
            OperationCount callOps = limbs.emitForward(fdSpec.name, shared, calls, root -> states[root]);
            IExpr[] qdd = aba.forwardDynamics(calls);
            List<MethodSpec> replacement = methods.emittedWithCalls(GeneratedMethod.FORWARD_DYNAMICS, fdSpec,
                    vector("vdot", qdd), callOps, calls.size());
            replacement.addAll(shared);
            methods.replace(forwardDynamicsAt, forwardDynamicsAt + forwardDynamicsLength, replacement);
        }
        GeneratedMethod[] counted = {GeneratedMethod.BIAS_FORCES, GeneratedMethod.GRAVITY,
            GeneratedMethod.INVERSE_DYNAMICS};
        MethodSpec[] specs = {cSpec, gSpec, idSpec};
        String[] outputs = {"C", "g", "tau"};
        SymbolicLimbs.Quantity[] quantities = {SymbolicLimbs.Quantity.BIAS_FORCES,
            SymbolicLimbs.Quantity.GRAVITY, SymbolicLimbs.Quantity.INVERSE_DYNAMICS};
        // The last first, so that the earlier ones' places do not move.
        for (int k = 2; k >= 0; k--) {
            if (sharesLimbs(inverseAt[k + 1] - inverseAt[k] - 1)) {
                methods.replace(inverseAt[k], inverseAt[k + 1], emitWithLimbs(limbs, counted[k], specs[k],
                        outputs[k], quantities[k]));
            }
        }
        fields.addAll(limbs.fields());
        methods.list().addAll(limbs.tableMethods());
        if (forms.large() && constraints) {
            methods.countSeparateCalls(); // C's count has changed
        }
        clock.lap("shared_limbs");
    }

    /** Whether a method unrolled in {@code chunks} chunks calls its twin limbs' shared code instead. */
    private boolean sharesLimbs(int chunks) {
        return options.limbs() == LimbForm.SHARED
                || options.limbs() == LimbForm.BY_SIZE && chunks >= SharedLimbCode.MIN_CHUNKS;
    }

    /**
     * One of the inverse dynamics with each twin limb computed by a call of its shape's shared code; the shared
     * methods follow the public method and its chunks.
     */
    private List<MethodSpec> emitWithLimbs(SharedLimbCode limbs, GeneratedMethod counted, MethodSpec spec,
            String output, SymbolicLimbs.Quantity quantity) {
        int nv = model.nv();
        SymbolicRecursions dyn = derived.symbolic().dynamics();
        IExpr[] zeros = new IExpr[nv];
        Arrays.fill(zeros, F.C0);
        IExpr[] vs = quantity == SymbolicLimbs.Quantity.GRAVITY ? zeros
                : derived.graph().inputs(SymbolicInput.Kind.V, nv);
        IExpr[] vdot = quantity == SymbolicLimbs.Quantity.INVERSE_DYNAMICS
                ? derived.graph().inputs(SymbolicInput.Kind.VDOT, nv) : zeros;
        Map<Integer, SymbolicRecursions.LimbCall> calls = new LinkedHashMap<>();
        List<MethodSpec> shared = new ArrayList<>();
        IExpr[][] parents = dyn.parentMotions(vs, vdot, true);
        OperationCount callOps = limbs.emit(quantity, spec.name, shared, calls, root -> parents[root]);
        IExpr[] values = dyn.inverseDynamics(vs, vdot, true, calls);
        List<MethodSpec> replacement = methods.emittedWithCalls(counted, spec, vector(output, values), callOps,
                calls.size());
        replacement.addAll(shared);
        return replacement;
    }

    /** The class: its Javadoc, fields, tables and methods ({@link ClassSkeleton}), as a Java source file. */
    GeneratedClass assemble() {
        // A part asked for but not emitted (the recursion of a model without rows, or in the large-model form) is not
        // claimed: parts() says what the class implements.
        java.util.Set<ModelPart> carried = java.util.EnumSet.copyOf(options.parts());
        if (!articulatedSystem) {
            carried.remove(ModelPart.RECURSIVE_CONSTRAINTS);
        }
        MethodSpec parts = OmittedParts.partsMethod(carried);
        if (parts != null) {
            methods.list().add(parts);
        }
        TypeSpec type = ClassSkeleton.classSpec(model, options, methods.list(), fields, tables, methods.counts(),
                forwardDynamics, forms.large(), methods.emitter().workspace(), derived.rows(), closedForm,
                systemFactorization, rowDerivatives, articulatedSystem, limbConstraints);
        String source = org.symdyn.generator.emit.LocalNames.perMethod(JavaFile.builder(options.packageName(), type)
                .skipJavaLangImports(true).indent("    ").build().toString());
        return new GeneratedClass(options.packageName(), options.className(), source, model.nq(), model.nv(),
                methods.counts(), clock.total(), carried);
    }
}
