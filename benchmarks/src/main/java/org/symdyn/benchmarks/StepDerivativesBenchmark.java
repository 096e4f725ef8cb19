package org.symdyn.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.symdyn.contact.ContactReport;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.StepDerivatives;
import org.symdyn.contact.TimeStepper;
import org.symdyn.contract.DynamicsDerivatives;
import org.symdyn.contract.Kinematics;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.generator.CodeGenerator;
import org.symdyn.generator.GeneratorOptions;
import org.symdyn.generator.InProcessCompiler;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.Model;
import org.symdyn.systems.CompliantContact;
import org.symdyn.systems.PdServo;
import org.symdyn.systems.SystemStepDerivatives;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * The derivatives of one contact step (issue 35): solo12 standing on its four feet (shared {@code solo12.urdf} with a
 * floor and a contact point at each foot added, μ = 0.9; the static-equilibrium τ of
 * {@link ConstrainedSolverBenchmark#standing}, every foot sticking), h = 1 ms.
 * <ul>
 * <li>{@code stepAndDerivatives}: the step (H, C, contact detection, the solve warm-started from the previous call)
 * and then {@link StepDerivatives#compute}: ∂(q⁺, v⁺)/∂(q, v, τ), what one iteration of an MPC needs per knot;
 * bar: at most 25 µs on the generated class;</li>
 * <li>{@code step}: the step alone, for the share of the derivatives;</li>
 * <li>{@code systemStepAndDerivatives}: the same robot as a {@link TimeSteppingSystem} with a PD servo on each of
 * its 12 joints holding the pose (kp 4, kd 0.3), stepped and differentiated by {@link SystemStepDerivatives} (the
 * servos' gains chained into the step's Jacobians), the state put back before each call (the stepper's warm start
 * kept).</li>
 * </ul>
 * Backends: the class generated with derivatives ({@code generated}, compiled in memory at set-up; its ∂ID/∂q, ∂ID/∂v,
 * H, C and Jacobians) or {@link GenericDynamics}; the contact rows' kinematic derivatives come from the interpreter's
 * MotionDerivatives for both. Add {@code -prof gc}: 0 B per call expected.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public class StepDerivativesBenchmark {
    private static final double H = 1e-3;
    private static final String[] FEET = {"FL", "FR", "HL", "HR"};

    @Param({"generated", "generic"})
    public String backend;

    private TimeStepper stepper;
    private StepDerivatives derivatives;
    private TimeSteppingSystem system;
    private SystemStepDerivatives systemDerivatives;
    private TimeSteppingSystem compliant;
    private SystemStepDerivatives compliantDerivatives;
    private double[] qCompliant;
    private double[] q;
    private double[] v;
    private double[] tau;
    private double[] qOut;
    private double[] vOut;

    @Setup
    public void setUp() throws Exception {
        Path file = SharedModels.urdf("solo12");
        StringBuilder extra = new StringBuilder("  <symdyn:ground name=\"floor\" normal=\"0 0 1\" friction=\"0.9\"/>\n");
        for (String foot : FEET) {
            extra.append(String.format(Locale.ROOT, "  <symdyn:contact_point name=\"%s\" link=\"%s_FOOT\"/>%n", foot,
                    foot));
        }
        String xml = Files.readString(file).replaceFirst("<robot ", "<robot xmlns:symdyn=\"urn:symdyn:1\" ")
                .replace("</robot>", extra + "</robot>");
        Model m = UrdfReader.parse(xml, file.toString(), new UrdfReader.Options(true, false));
        q = new double[m.nq()];
        tau = new double[m.nv()];
        ConstrainedSolverBenchmark.standing(m, "solo12", ConstrainedSolverBenchmark.constraintSet(m), q, tau);
        q[2] -= 1e-6;
        v = new double[m.nv()];
        qOut = new double[m.nq()];
        vOut = new double[m.nv()];
        Object dyn;
        if (backend.equals("generated")) {
            dyn = InProcessCompiler.compile(new CodeGenerator().generate(m, GeneratorOptions.of(
                    "org.symdyn.benchmarks.stepderiv", "Solo12StepDerivatives").withDerivatives(true)))
                    .type().getDeclaredConstructor().newInstance();
        } else if (backend.equals("generic")) {
            dyn = new GenericDynamics(m);
        } else {
            throw new IllegalArgumentException("backend must be generated or generic: " + backend);
        }
        stepper = build(dyn, m);
        ContactReport r = stepper.step(q, v, tau, H, qOut, vOut);
        if (!r.converged() || stepper.contactCount() != 4) {
            throw new IllegalStateException("solo12 should stand on 4 sticking feet: " + r + ", "
                    + stepper.contactCount() + " contacts");
        }
        derivatives = new StepDerivatives(stepper, m);
        derivatives.compute(q, v, tau, H);
        Object systemDynamics = backend.equals("generated") ? dyn.getClass().getDeclaredConstructor().newInstance()
                : new GenericDynamics(m);
        system = servoed(systemDynamics, m, q);
        system.setInput(tau);
        system.setState(0, q, v);
        systemDerivatives = new SystemStepDerivatives(system, m);
        systemDerivatives.step();
        // the same robot on compliant feet (no rigid contact), pressed 2 mm into the floor, on its servos
        Object compliantDynamics = backend.equals("generated") ? dyn.getClass().getDeclaredConstructor().newInstance()
                : new GenericDynamics(m);
        compliant = compliantFeet(compliantDynamics, m, q);
        qCompliant = q.clone();
        qCompliant[2] -= 0.002;
        compliant.setInput(tau);
        compliant.setState(0, qCompliant, v);
        compliantDerivatives = new SystemStepDerivatives(compliant, m);
        compliantDerivatives.step();
        for (int b = 0; b < 4; b++) {
            if (derivatives.mode(b) != StepDerivatives.STICKING) {
                throw new IllegalStateException("foot " + b + " is not sticking");
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends DynamicsDerivatives & Kinematics> TimeStepper build(Object dyn, Model m) {
        return TimeStepper.builder((T) dyn).contacts(ContactSet.of(m)).build();
    }

    @Benchmark
    public double[] stepAndDerivatives() {
        stepper.step(q, v, tau, H, qOut, vOut);
        derivatives.compute(q, v, tau, H);
        return derivatives.dvNextDq().data;
    }

    @SuppressWarnings("unchecked")
    private static <T extends DynamicsDerivatives & Kinematics> TimeSteppingSystem servoed(Object dyn, Model m,
            double[] pose) {
        return servos(TimeSteppingSystem.builder((T) dyn).contacts(ContactSet.of(m)).timeStep(H), m, pose).build();
    }

    /** A PD servo on every revolute joint holding the pose (kp 4, kd 0.3, no torque limit). */
    private static TimeSteppingSystem.Builder servos(TimeSteppingSystem.Builder b, Model m, double[] pose) {
        for (var body : m.bodies()) {
            var j = body.joint();
            if (j.type() == org.symdyn.model.JointType.REVOLUTE) {
                b.actuator(new PdServo(j.name() + "_servo", j.qIndex(), j.vIndex(), 4, 0.3, pose[j.qIndex()],
                        Double.POSITIVE_INFINITY));
            }
        }
        return b;
    }

    @SuppressWarnings("unchecked")
    private static <T extends DynamicsDerivatives & Kinematics> TimeSteppingSystem compliantFeet(Object dyn, Model m,
            double[] pose) {
        return servos(TimeSteppingSystem.builder((T) dyn).timeStep(H)
                .actuator(new CompliantContact("feet", ContactSet.of(m), (T) dyn, 3000, 20, 40)), m, pose).build();
    }

    /** solo12 on compliant feet and its servos: the step and its derivatives, the contact forces' among them. */
    @Benchmark
    public double[] compliantSystemStepAndDerivatives() {
        System.arraycopy(qCompliant, 0, compliant.q(), 0, qCompliant.length);
        System.arraycopy(v, 0, compliant.v(), 0, v.length);
        compliantDerivatives.step();
        return compliantDerivatives.dvNextDq().data;
    }

    @Benchmark
    public double[] systemStepAndDerivatives() {
        System.arraycopy(q, 0, system.q(), 0, q.length);
        System.arraycopy(v, 0, system.v(), 0, v.length);
        systemDerivatives.step();
        return systemDerivatives.dvNextDq().data;
    }

    @Benchmark
    public double[] step() {
        stepper.step(q, v, tau, H, qOut, vOut);
        return vOut;
    }
}
