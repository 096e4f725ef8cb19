package org.symdyn.samples;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.ContactSettings;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.io.MeshPolicy;
import org.symdyn.io.PackagePath;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.Model;
import org.symdyn.systems.SolveSummary;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * A ball rolling in a concave bowl: the bowl is a static triangle mesh (a spherical cap of radius R = 0.5 m, its
 * lowest point at the origin, its centre at (0, 0, R), sampled on a square grid here and written as an OBJ file with
 * its triangles' fronts facing up), fixed to the world in a scene file written beside it; a solid ball (radius r =
 * 0.05 m, 0.2 kg, μ 0.8) released at rest off-centre, touching the bowl at 20° from its lowest point. It rolls down
 * and oscillates; for rolling without slip on a sphere its centre moves on the sphere of radius R − r with the small
 * oscillation period T = 2π √(7 (R − r) / (5 g)) (a point mass's would be 2π √((R − r) / g)). Time stepping at
 * h = 1 ms on the generic runtime ({@link #SETTINGS}); prints the lowest point reached (the ball's centre, against
 * the smooth sphere's r), the period (twice the mean time between zero crossings of x) against the formula,
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
    /** The cap reaches this far from its axis (m), sampled on a square grid of this spacing (m). */
    static final double RIM_RADIUS = 0.4;
    static final double CELL = 0.02;
    static final double G = 9.81;
    /** The most ball-bowl contacts per step. */
    static final int MAX_CONTACTS = 16;
    /**
     * How much closer to the bowl's centre than the smooth sphere the ball starts (m): the flat triangles lie up to
     * d² / (8 R) = 2e-4 m (d the cells' diagonal) inside the sphere, and a ball started in them would be pushed out.
     */
    static final double LIFT = 3e-4;
    /**
     * The contact solve: no penetration recovery (β = 0: pushing the ball out of a triangle it sank into by
     * rounding adds energy; with the ball started clear of the mesh it sinks at most a few micrometres), and up to
     * 3,000 ADMM iterations, since a ball on an edge between two triangles gives two nearly parallel contacts that
     * the solve converges on slowly.
     */
    static final ContactSettings SETTINGS = ContactSettings.defaults().penetrationRecovery(0).maxIterations(3000);
    static final int RECORD_EVERY = 10;

    private BowlDemo() {
    }

    /**
     * A run: time, the ball centre's x and z, its energy per step (J, index 0: the start), the smallest gap of any
     * contact at any step (m; negative: penetration), the solves.
     */
    record Result(double[] time, double[] x, double[] z, double[] energy, double deepest, SolveSummary summary,
            long dropped, TrajectoryFile trajectory) {
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
            return java.util.Arrays.stream(z).min().orElse(Double.NaN);
        }

        /** The times at which x crosses 0, either way, interpolated linearly (s). */
        double[] crossings() {
            double[] c = new double[x.length];
            int n = 0;
            for (int i = 1; i < x.length; i++) {
                if ((x[i - 1] < 0) != (x[i] < 0)) {
                    c[n++] = time[i - 1] + (time[i] - time[i - 1]) * (-x[i - 1]) / (x[i] - x[i - 1]);
                }
            }
            return java.util.Arrays.copyOf(c, n);
        }

        /** Twice the mean time between successive zero crossings (s; NaN with fewer than two crossings). */
        double period() {
            double[] c = crossings();
            return c.length < 2 ? Double.NaN : 2 * (c[c.length - 1] - c[0]) / (c.length - 1);
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

    /**
     * The bowl's OBJ text: the cap z = R − √(R² − x² − y²) sampled on a square grid of spacing {@link #CELL}, the
     * cells whose four corners lie within {@link #RIM_RADIUS} of the axis, two triangles each, fronts facing up
     * (towards the centre). A grid keeps the triangles alike in size everywhere (a polar grid would gather many thin
     * triangles at the bottom, where the ball rests).
     */
    static String bowlObj() {
        int n = (int) Math.floor(RIM_RADIUS / CELL);
        int side = 2 * n + 1;
        int[] index = new int[side * side]; // OBJ vertex number (from 1) of grid point (i, j), 0 when not used
        StringBuilder vertices = new StringBuilder();
        StringBuilder faces = new StringBuilder();
        int count = 0;
        int triangles = 0;
        for (int i = 0; i < side - 1; i++) {
            for (int j = 0; j < side - 1; j++) {
                if (!inside(i, j, n) || !inside(i + 1, j, n) || !inside(i + 1, j + 1, n) || !inside(i, j + 1, n)) {
                    continue;
                }
                int[] corner = new int[4];
                int[][] ij = {{i, j}, {i + 1, j}, {i + 1, j + 1}, {i, j + 1}};
                for (int c = 0; c < 4; c++) {
                    int k = ij[c][0] * side + ij[c][1];
                    if (index[k] == 0) {
                        double x = (ij[c][0] - n) * CELL, y = (ij[c][1] - n) * CELL;
                        vertices.append(String.format(Locale.ROOT, "v %.12f %.12f %.12f%n", x, y,
                                BOWL_RADIUS - Math.sqrt(BOWL_RADIUS * BOWL_RADIUS - x * x - y * y)));
                        index[k] = ++count;
                    }
                    corner[c] = index[k];
                }
                // Counter-clockwise seen from above: the front faces up, into the bowl.
                faces.append("f ").append(corner[0]).append(' ').append(corner[1]).append(' ').append(corner[2])
                        .append('\n');
                faces.append("f ").append(corner[0]).append(' ').append(corner[2]).append(' ').append(corner[3])
                        .append('\n');
                triangles += 2;
            }
        }
        return String.format(Locale.ROOT, "# A bowl (SymDyn BowlDemo): the spherical cap of radius %s m with its lowest"
                + " point at the origin, on a %s m grid within %s m of the axis; %d vertices, %d triangles, fronts"
                + " facing up%n", BOWL_RADIUS, CELL, RIM_RADIUS, count, triangles) + vertices + faces;
    }

    private static boolean inside(int i, int j, int n) {
        double x = (i - n) * CELL, y = (j - n) * CELL;
        return x * x + y * y <= RIM_RADIUS * RIM_RADIUS + 1e-12;
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
        // A ball in a concave mesh touches several triangles near a vertex (up to six around one), more than the
        // default bound of four per pair.
        ContactSet set = ContactSet.of(model, MAX_CONTACTS);
        TimeSteppingSystem sys = TimeSteppingSystem.builder(new GenericDynamics(model)).contacts(set).timeStep(H)
                .settings(SETTINGS)
                .build();
        double arm = BOWL_RADIUS - BALL_RADIUS - LIFT;
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
        double deepest = Double.POSITIVE_INFINITY;
        for (int i = 1; i <= steps; i++) {
            sys.step();
            sample(sys, i, time, x, z, energy);
            for (int k = 0; k < sys.stepper().contactCount(); k++) {
                deepest = Math.min(deepest, sys.stepper().contacts().gap(k));
            }
            if (i % RECORD_EVERY == 0) {
                traj.record(sys);
            }
        }
        return new Result(time, x, z, energy, deepest, sys.summary(), sys.stepper().droppedContacts(), traj);
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
        out.printf(Locale.ROOT, "Ball in a bowl (a static triangle mesh on a %.2f m grid: spherical cap R = %.2f m; "
                + "ball r = %.2f m, %.1f kg, mu 0.8), released at rest %.0f deg off the bottom, h = %.0f ms, %.1f s%n",
                CELL, BOWL_RADIUS, BALL_RADIUS, BALL_MASS, Math.toDegrees(RELEASE), H * 1e3,
                r.time()[r.time().length - 1]);
        out.printf(Locale.ROOT, "  contact solves: %s; contacts dropped %d; smallest gap %.2e m%n", r.summary(),
                r.dropped(), r.deepest());
        out.printf(Locale.ROOT, "  lowest point of the ball's centre: z = %.6f m (on the smooth sphere: r = %.6f m; "
                + "start z = %.6f m)%n", r.lowestCentre(), BALL_RADIUS, r.z()[0]);
        out.printf(Locale.ROOT, "  period %.4f s over %d half swings (rolling without slip: 2 pi sqrt(7 (R - r) / "
                + "(5 g)) = %.4f s; a sliding point mass: %.4f s)%n", r.period(), r.crossings().length - 1,
                rollingPeriod(), 2 * Math.PI * Math.sqrt(arm / G));
        out.printf(Locale.ROOT, "  energy: %.6f J at the start, %.6f J at the end; largest increase over one step "
                + "%.3e J (never increases: %s)%n", r.energy()[0], r.energy()[r.energy().length - 1],
                r.largestEnergyIncrease(), r.largestEnergyIncrease() <= 0 ? "yes" : "no");
    }
}
