package org.symdyn.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import org.symdyn.cli.TrajectoryReader.Trajectory;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code symdyn view}: one self-contained HTML page ({@link MotionPage}) that animates a trajectory of
 * {@code symdyn simulate} in a WebGL view drawn with three.js (inlined into the page): the links' visual shapes, the
 * links' frames as a stick figure with axis triads, the collision shapes on request, the contact points with their
 * normal impulses, the grounds and the Lidars' rays, with play/pause, a time slider, an orbiting camera and a plot of
 * a chosen signal. The frames' world poses are computed here with the model's kinematics at every recorded q; the
 * page needs no network. Prints one line on standard output: the file, its size and what it draws.
 */
@Command(name = "view", sortOptions = false, usageHelpAutoWidth = true, usageHelpWidth = 100,
        header = "Write an HTML page that animates a trajectory of symdyn simulate.",
        description = {
            "Writes one self-contained HTML file that works offline (three.js is inlined into it, about 250 kB;"
                    + " the browser needs WebGL): the links' visual shapes (boxes, spheres, cylinders, capsules and"
                    + " meshes, shaded, in their colour or a neutral grey), the links as a stick figure (parent to"
                    + " child link origins, an axis triad per link; x red, y green, z blue; shown by default when"
                    + " fewer than half of the moving bodies have a visual shape, as when meshes could not be"
                    + " read), the collision shapes on request (translucent, with their"
                    + " edges; a moving mesh as its convex hull), the contact points (an arrow along the contact"
                    + " normal, or the ground's, with length by normal impulse; a dot when there is no normal), the"
                    + " grounds as grids, and each Lidar's rays to the recorded ranges, in a 3-D view that orbits"
                    + " when dragged (wheel: zoom; double-click: reset); play/pause, speed, a time slider, and a plot"
                    + " of a chosen signal (each q, each v, the contacts' normal impulses summed, each sensor"
                    + " channel but the Lidars').",
            "The link poses are computed from each recorded q with the model's kinematics, so the model must be the"
                    + " one simulated (same --floating). Meshes are written whole (vertices as base64 Float32"
                    + " arrays), never simplified. A trajectory of up to 256 MiB is read (simulate --every N records"
                    + " every N-th step, for a longer run).",
            "Prints one line on standard output: the file written, its size, the recorded states and what the page"
                    + " draws; on standard error the stages of work that takes over a second (not with --quiet)."},
        footer = {"", "Trajectory file: symdyn simulate's output; \"t\" and \"q\" are required; \"v\", \"contacts\""
                + " (with \"normal\" when present) and \"sensors\" (a Lidar's readings: rows x samples ranges per"
                + " time, ray index row * samples + k) are shown when present, other keys are ignored.",
            "",
            "Exit codes: 0 success, 1 internal error, 2 bad usage, model or trajectory file, or an output that cannot"
                    + " be written."})
final class ViewCommand implements CliCommand {
    @Parameters(index = "0", paramLabel = "TRAJ.json", arity = "1", description = "The trajectory (symdyn simulate).")
    String trajectory;

    @Parameters(index = "1", paramLabel = "MODEL.urdf", arity = "1", description = "The model file.")
    String model;

    @Option(names = {"-o", "--output"}, paramLabel = "motion.html", required = true, order = 1,
            description = "The HTML file to write.")
    String output;

    @Mixin
    MeshOptions meshes = new MeshOptions();

    @Mixin
    QuietOption quiet = new QuietOption();

    @Mixin
    CommonOptions options = new CommonOptions();

    @Override
    public void run(PrintStream out, PrintStream err) throws CliException {
        if (output.isEmpty()) {
            throw CliException.usage("view", "option --output needs a non-empty value");
        }
        Path outFile = GenerateCommand.outputFile(output);
        Progress progress = quiet.progress(err);
        progress.started(model + ": reading (with its meshes)");
        long start = System.nanoTime();
        Model m = options.load(model, meshes, "view");
        progress.ended(model + ": read", Progress.millisSince(start));
        progress.started(trajectory + ": reading");
        start = System.nanoTime();
        Trajectory t = TrajectoryReader.read(SymDynCli.path(trajectory), m);
        progress.ended(trajectory + ": read", Progress.millisSince(start));
        for (Diagnostic warning : m.warnings()) {
            progress.warning(warning.toString());
        }
        progress.started(outFile + ": computing the poses of " + t.t().length + " recorded states and writing");
        start = System.nanoTime();
        String page = MotionPage.html(m, new GenericDynamics(m), t);
        GenerateCommand.write(outFile, page);
        progress.ended(outFile + ": written", Progress.millisSince(start));
        out.println(summary(outFile, page.getBytes(java.nio.charset.StandardCharsets.UTF_8).length, m, t));
    }

    /** The line printed for a page: file, size and what it draws. */
    static String summary(Path file, long bytes, Model model, Trajectory t) {
        SceneRecords.Counts c = SceneRecords.counts(model, t.lidarRanges());
        return file + ": " + bytes + " bytes, " + t.t().length + " recorded states, " + model.frames().size()
                + " frames, " + c.visual() + " visual shapes, " + c.collision() + " collision shapes ("
                + c.meshTriangles() + " mesh triangles), " + c.lidars() + " of " + model.scene().lidars().size()
                + " Lidars with readings";
    }
}
