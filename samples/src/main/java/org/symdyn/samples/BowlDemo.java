package org.symdyn.samples;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.symdyn.contact.ContactSet;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.io.MeshPolicy;
import org.symdyn.io.PackagePath;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.Model;
import org.symdyn.systems.SolveSummary;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * A ball rolling in a concave bowl: the bowl is a static triangle mesh (a spherical cap of radius R = 0.5 m, its
 * lowest point at the origin, its centre at (0, 0, R), made here and written as an OBJ file with its triangles'
 * fronts facing the centre), fixed to the world in a scene file written beside it; a solid ball (radius r =
 * 0.05 m, 0.2 kg, μ 0.8) released at rest off-centre, touching the bowl at 20° from its lowest point. It rolls down
 * and oscillates; for rolling without slip on a sphere its centre moves on the sphere of radius R − r with the small
 * oscillation period T = 2π √(7 (R − r) / (5 g)) (a point mass's would be 2π √((R − r) / g)). Time stepping at
 * h = 1 ms on the generic runtime; prints the lowest point reached (the ball's centre, against R's bottom + r), the
 * period (mean of the full swings measured between zero crossings of x going the same way) against the formula,
 * and the energy E = ½ m |v|² + ½ I |ω|² + m g z: its largest increase over one step (it must not increase) and its
 * loss over the run:
 *
 * <pre>
 *   java -cp samples/target/fourbar-demo.jar org.symdyn.samples.BowlDemo [DIR]
 *   java -jar cli/target/symdyn.jar view DIR/bowl.json DIR/bowl_ball.urdf -o bowl.html
 * </pre>
 * (DIR, default {@code bowl-demo}, receives bowl.obj, bowl_ball.urdf and bowl.json).
 */
public final class BowlDemo {
    static final double H = 1e-3;
    static final double T_END = 6.0;
    /** The bowl's radius, the ball's radius (m) and mass (kg), the release angle from the bottom (rad). */
    static final double BOWL_RADIUS = 0.5;
    static final double BALL_RADIUS = 0.05;
    static final double BALL_MASS = 0.2;
    static final double RELEASE = Math.toRadians(20);
    /** The cap spans polar angles 0 to this (rad) in RINGS rings of SEGMENTS quadrilaterals (two triangles each). */
    static final double RIM = Math.toRadians(55);
    static final int RINGS = 24;
    static final int SEGMENTS = 64;
    static final double G = 9.81;
    static final int RECORD_EVERY = 10;

    private BowlDemo() {
    }

    /** A run: time, the ball centre's x and z, its energy per step (J, index 0: the start), the solves. */
    record Result(double[] time, double[] x, double[] z, double[] energy, SolveSummary summary, long dropped,
            TrajectoryFile trajectory) {
        /** The largest E(k+1) − E(k) over the steps (J; ≤ 0 when the energy never increases). */
        double largestEnergyIncrease() {
            double m = Double.NEGATIVE_INFINITY;
            for (int i = 1; i < energy.length; i++) {
                m = Math.max(m, energy[i] - energy[i - 1]);
            }
            return m;
        }

        /** The lowest centre height over the run (m). */
        double lowestCentre() {
            double m = Double.POSITIVE_INFINITY;
            for (double e : z) {
                m = Math.min(m, e);
            }
            return m;
        }

        /** The times at which x crosses 0 going from negative to positive, interpolated linearly (s). */
        double[] upwardCrossings() {
            double[] c = new double[x.length];
            int n = 0;
            for (int i = 1; i < x.length; i++) {
                if (x[i - 1] < 0 && x[i] >= 0) {
                    c[n++] = time[i - 1] + (time[i] - time[i - 1]) * (-x[i - 1]) / (x[i] - x[i - 1]);
                }
            }
            return java.util.Arrays.copyOf(c, n);
        }

        /** The mean time between successive upward zero crossings (s; NaN with fewer than two). */
        double period() {
            double[] c = upwardCrossings();
            return c.length < 2 ? Double.NaN : (c[c.length - 1] - c[0]) / (c.length - 1);
        }
    }

    /** 2π √(7 (R − r) / (5 g)): a solid ball rolling without slip at the bottom of a spherical bowl (s). */
    static double rollingPeriod() {
        return 2 * Math.PI * Math.sqrt(7 * (BOWL_RADIUS - BALL_RADIUS) / (5 * G));
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "bowl-demo");
        Path urdf = writeScene(dir);
        Result r = run(urdf, T_END);
        report(System.out, r);
        Path traj = dir.resolve("bowl.json");
        r.trajectory().write(traj);
        System.out.printf(Locale.ROOT, "Scene and trajectory written to %s; view it with%n  java -jar "
                + "cli/target/symdyn.jar view %s %s -o bowl.html%n", dir, traj, urdf);
    }

    /** The bowl's OBJ text: the cap's vertices (lowest point first) and its triangles, fronts facing (0, 0, R). */
    static String bowlObj() {
        StringBuilder sb = new StringBuilder("# A spherical cap: radius ").append(BOWL_RADIUS)
                .append(" m, lowest point at the origin, centre (0, 0, R), polar angles 0 to ")
                .append(Math.toDegrees(RIM)).append(" deg; fronts face the centre (SymDyn BowlDemo)\n");
        sb.append("v 0 0 0\n");
        for (int ring = 1; ring <= RINGS; ring++) {
            double polar = RIM * ring / RINGS;
            for (int s = 0; s < SEGMENTS; s++) {
                double az = 2 * Math.PI * s / SEGMENTS;
                sb.append(String.format(Locale.ROOT, "v %.12f %.12f %.12f%n", BOWL_RADIUS * Math.sin(polar)
                        * Math.cos(az), BOWL_RADIUS * Math.sin(polar) * Math.sin(az),
                        BOWL_RADIUS * (1 - Math.cos(polar))));
            }
        }
        // OBJ indices start at 1; vertex (ring, s) is 2 + (ring − 1) SEGMENTS + s. Counter-clockwise seen from above
        // (from the centre) makes the front face up, into the bowl.
        for (int s = 0; s < SEGMENTS; s++) {
            int s1 = (s + 1) % SEGMENTS;
            sb.append("f 1 ").append(2 + s).append(' ').append(2 + s1).append('\n');
        }
        for (int ring = 1; ring < RINGS; ring++) {
            for (int s = 0; s < SEGMENTS; s++) {
                int s1 = (s + 1) % SEGMENTS;
                int a = 2 + (ring - 1) * SEGMENTS + s, b = 2 + (ring - 1) * SEGMENTS + s1;
                int c = 2 + ring * SEGMENTS + s, d = 2 + ring * SEGMENTS + s1;
                sb.append("f ").append(a).append(' ').append(c).append(' ').append(d).append('\n');
                sb.append("f ").append(a).append(' ').append(d).append(' ').append(b).append('\n');
            }
        }
        return sb.toString();
    }

    /** The scene file: the bowl on the world link (collision and visual), the ball on a floating joint. */
    static String sceneUrdf() {
        double i = 0.4 * BALL_MASS * BALL_RADIUS * BALL_RADIUS;
        return String.format(Locale.ROOT, """
                <?xml version="1.0"?>
                <!-- A ball in a bowl (SymDyn BowlDemo): bowl.obj, a static triangle mesh fixed to the world, and a
                     solid ball on a floating joint. -->
                <robot name="bowl_ball" xmlns:symdyn="urn:symdyn:1">
                  <link name="world">
                    <collision name="bowl"><geometry><mesh filename="bowl.obj"/></geometry>
                      <symdyn:contact friction="0.8" restitution="0"/></collision>
                    <visual><geometry><mesh filename="bowl.obj"/></geometry>
                      <material name="bowl"><color rgba="0.7 0.7 0.75 1"/></material></visual>
                  </link>
                  <link name="ball">
                    <inertial><origin xyz="0 0 0"/><mass value="%s"/>
                      <inertia ixx="%s" ixy="0" ixz="0" iyy="%s" iyz="0" izz="%s"/></inertial>
                    <collision name="ball"><geometry><sphere radius="%s"/></geometry>
                      <symdyn:contact friction="0.8" restitution="0"/></collision>
                    <visual><geometry><sphere radius="%s"/></geometry>
                      <material name="ball"><color rgba="0.85 0.33 0.1 1"/></material></visual>
                  </link>
                  <joint name="ball_free" type="floating"><parent link="world"/><child link="ball"/></joint>
                </robot>
                """, BALL_MASS, i, i, i, BALL_RADIUS, BALL_RADIUS);
    }

    /** Writes bowl.obj and bowl_ball.urdf into {@code dir} (made if needed); returns the scene file. */
    static Path writeScene(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("bowl.obj"), bowlObj());
        Path urdf = dir.resolve("bowl_ball.urdf");
        Files.writeString(urdf, sceneUrdf());
        return urdf;
    }

    /** Releases the ball in the scene of {@code urdf} and steps until {@code tEnd}. */
    static Result run(Path urdf, double tEnd) throws Exception {
        Model model = UrdfReader.read(urdf,
                UrdfReader.Options.DEFAULT.withMeshes(MeshPolicy.REQUIRED, PackagePath.of(List.of())));
        ContactSet set = ContactSet.of(model);
        TimeSteppingSystem sys = TimeSteppingSystem.builder(new GenericDynamics(model)).contacts(set).timeStep(H)
                .build();
        double arm = BOWL_RADIUS - BALL_RADIUS;
        double[] q0 = {arm * Math.sin(RELEASE), 0, BOWL_RADIUS - arm * Math.cos(RELEASE), 0, 0, 0, 1};
        sys.setState(0, q0, new double[6]);
        int steps = (int) Math.round(tEnd / H);
        double[] time = new double[steps + 1];
        double[] x = new double[steps + 1];
        double[] z = new double[steps + 1];
        double[] energy = new double[steps + 1];
        TrajectoryFile traj = new TrajectoryFile();
        traj.record(sys);
        sample(sys, 0, time, x, z, energy);
        for (int i = 1; i <= steps; i++) {
            sys.step();
            sample(sys, i, time, x, z, energy);
            if (i % RECORD_EVERY == 0) {
                traj.record(sys);
            }
        }
        return new Result(time, x, z, energy, sys.summary(), sys.stepper().droppedContacts(), traj);
    }

    private static void sample(TimeSteppingSystem sys, int i, double[] time, double[] x, double[] z,
            double[] energy) {
        double[] q = sys.q();
        double[] v = sys.v(); // (ωx, ωy, ωz, vx, vy, vz) in the ball's frame, origin at its centre of mass
        double inertia = 0.4 * BALL_MASS * BALL_RADIUS * BALL_RADIUS;
        double w2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        double v2 = v[3] * v[3] + v[4] * v[4] + v[5] * v[5];
        time[i] = sys.time();
        x[i] = q[0];
        z[i] = q[2];
        energy[i] = 0.5 * BALL_MASS * v2 + 0.5 * inertia * w2 + BALL_MASS * G * q[2];
    }

    static void report(PrintStream out, Result r) {
        double arm = BOWL_RADIUS - BALL_RADIUS;
        out.printf(Locale.ROOT, "Ball in a bowl (a static mesh of %d triangles: spherical cap R = %.2f m; ball r = "
                + "%.2f m, %.1f kg, mu 0.8), released at rest %.0f deg off the bottom, h = %.0f ms, %.1f s%n",
                SEGMENTS * (2 * RINGS - 1), BOWL_RADIUS, BALL_RADIUS, BALL_MASS, Math.toDegrees(RELEASE), H * 1e3,
                r.time()[r.time().length - 1]);
        out.printf(Locale.ROOT, "  contact solves: %s; contacts dropped %d%n", r.summary(), r.dropped());
        out.printf(Locale.ROOT, "  lowest point of the ball's centre: z = %.6f m (on the smooth sphere: r = %.6f m; "
                + "start z = %.6f m)%n", r.lowestCentre(), BALL_RADIUS, r.z()[0]);
        out.printf(Locale.ROOT, "  period %.4f s over %d swings (rolling without slip: 2 pi sqrt(7 (R - r) / (5 g)) "
                + "= %.4f s; a sliding point mass: %.4f s)%n", r.period(), r.upwardCrossings().length - 1,
                rollingPeriod(), 2 * Math.PI * Math.sqrt(arm / G));
        out.printf(Locale.ROOT, "  energy: %.6f J at the start, %.6f J at the end; largest increase over one step "
                + "%.3e J (never increases: %s)%n", r.energy()[0], r.energy()[r.energy().length - 1],
                r.largestEnergyIncrease(), r.largestEnergyIncrease() <= 0 ? "yes" : "no");
    }
}
