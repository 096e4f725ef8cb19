package org.symdyn.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.contact.ContactReport;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.ContactSettings;
import org.symdyn.contact.ShapeContactDetection;
import org.symdyn.contact.TimeStepper;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.Kinematics;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.io.MeshPolicy;
import org.symdyn.io.PackagePath;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.Model;

/**
 * Time stepping with contact between collision shapes (issue 31): solo12 on its own collision meshes (each link's
 * STL as its convex hull, 291 to 670 vertices) standing on a floor ({@code <symdyn:ground>} added to a copy of
 * {@code shared/models/solo12.urdf} in a temporary folder, meshes from {@code shared/packages}), h = 1 ms, τ the
 * static-equilibrium torques of {@link ConstrainedSolverBenchmark}'s solo12 with its feet on the floor, the pairs
 * of hulls that overlap in that state (base and upper legs) left out ({@link ContactSet#withoutOverlapsAt}), every
 * other pair of the 17 hulls tested each step (self-collision on).
 * <ul>
 * <li>{@code step}: one whole step from the same state every call: detection (placements, sweep and prune,
 * narrowphase), H, C, the contact Jacobians, W, the solve warm-started from the previous call, v⁺ and q⁺;</li>
 * <li>{@code detect}: the detection alone, at the same state.</li>
 * </ul>
 * Backends: the generated class alone ({@code generated}, compiled in memory at set-up) or {@link GenericDynamics}.
 * Set-up prints the contacts found and checks that the solve converges.
 *
 * <p>{@code kinematicsForm} ({@link KinematicsFormParameter}): the generated class with the generator's default
 * kinematics ({@code default}: a straight-line method per body, a query computing the body's branch only) or, with
 * {@code -p kinematicsForm=default,compact}, also in the compact form ({@code compact}: shared passes, each query a
 * pass over the whole tree), so that one run measures both; the generic backend does not read it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public class ShapeContactStepBenchmark {
    private static final double H = 1e-3;
    private static final double MARGIN = ContactSettings.defaults().margin();

    @Param({"generated", "generic"})
    public String backend;

    @Param({KinematicsFormParameter.DEFAULT})
    public String kinematicsForm;

    /**
     * {@code default}: the stepper's choice for one robot, per step (W read sparse when the rows outnumber the dofs,
     * as solo12's 48 rows on 18 dofs do here: ADMM's λ steps through the sparse Cholesky of σ I + Yᵀ Y, 18 x 18,
     * instead of W's 48 x 48); {@code formed}: W formed every step ({@code sparseDelassus(false)}); {@code sparse}:
     * never formed ({@code sparseDelassus(true)}).
     */
    @Param({"default"})
    public String delassus;

    private TimeStepper stepper;
    private ShapeContactDetection detection;
    private double[] q0;
    private double[] v0;
    private double[] q;
    private double[] v;
    private double[] tau;

    @Setup
    public void setUp() throws Exception {
        Path urdf = SharedModels.urdf("solo12");
        Path packages = urdf.getParent().getParent().resolve("packages");
        if (!Files.isDirectory(packages)) {
            throw new MissingInputException("the meshes of solo12 are not in " + packages);
        }
        Path dir = Files.createTempDirectory("symdyn-bench");
        Path scene = dir.resolve("solo12_floor.urdf");
        Files.writeString(scene, Files.readString(urdf).replace("</robot>", "  <symdyn:ground"
                + " xmlns:symdyn=\"urn:symdyn:1\" name=\"floor\" point=\"0 0 0\" normal=\"0 0 1\" friction=\"0.8\"/>\n"
                + "</robot>"));
        Model m = UrdfReader.read(scene, new UrdfReader.Options(true, false).withMeshes(MeshPolicy.REQUIRED,
                PackagePath.of(List.of(packages))));
        Model declared = ConstrainedSolverBenchmark.readModel("solo12Declared");
        q0 = new double[m.nq()];
        tau = new double[m.nv()];
        ConstrainedSolverBenchmark.standing(declared, "solo12Declared", ConstraintSet.of(declared), q0, tau);
        if (backend.equals("generated")) {
            build(m, ConstrainedSolverBenchmark.generatedFunctions(m, kinematicsForm));
        } else if (backend.equals("generic")) {
            build(m, new GenericDynamics(m));
        } else {
            throw new IllegalArgumentException("backend must be generated or generic: " + backend);
        }
        q = q0.clone();
        v = v0.clone();
        ContactReport r = stepper.step(q, v, tau, H, q, v);
        if (!r.converged()) {
            throw new IllegalStateException("contact solve did not converge: " + r);
        }
        StringBuilder names = new StringBuilder();
        for (int k = 0; k < stepper.contactCount(); k++) {
            names.append(k == 0 ? "" : ", ").append(stepper.contacts().name(k));
        }
        System.out.println("# ShapeContactStepBenchmark " + backend + " kinematics "
                + (backend.equals("generic") ? "interpreted" : kinematicsForm) + ": " + stepper.contactCount() + " contacts ("
                + names + "), " + r.iterations() + " iterations");
    }

    private <T extends Dynamics & Kinematics> void build(Model m, T f) {
        ContactSet set = ContactSet.of(m).withoutOverlapsAt(f, q0, 1e-9, null);
        // lower the base until the lowest foot touches the floor (the feet are hulls, not the declared points)
        ShapeContactDetection probe = new ShapeContactDetection(set, f);
        probe.detect(q0, null, 0, 0.05);
        double lowest = Double.POSITIVE_INFINITY;
        for (int k = 0; k < probe.count(); k++) {
            if (probe.shapeA(k) >= probe.shapeCount()) {
                lowest = Math.min(lowest, probe.gap(k));
            }
        }
        q0[2] -= lowest;
        v0 = new double[m.nv()];
        TimeStepper.Builder b = TimeStepper.builder(f).contacts(set).settings(ContactSettings.defaults());
        switch (delassus) {
            case "default" -> { }
            case "formed" -> b.sparseDelassus(false);
            case "sparse" -> b.sparseDelassus(true);
            default -> throw new IllegalArgumentException("delassus must be default, formed or sparse: " + delassus);
        }
        stepper = b.build();
        detection = new ShapeContactDetection(set, f);
    }

    @Benchmark
    public double step() {
        System.arraycopy(q0, 0, q, 0, q.length);
        System.arraycopy(v0, 0, v, 0, v.length);
        stepper.step(q, v, tau, H, q, v);
        return q[2] + v[5];
    }

    @Benchmark
    public int detect() {
        detection.detect(q0, v0, H, MARGIN);
        return detection.count();
    }
}
