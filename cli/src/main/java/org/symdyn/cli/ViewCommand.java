package org.symdyn.cli;

import java.io.PrintStream;
import java.nio.file.Files;
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
 * {@code symdyn simulate}: the links' frames as a stick figure with axis triads, the contact points, the grounds,
 * with play/pause, a time slider, an orbiting 3-D view and a plot of a chosen signal. The frames' world poses are
 * computed here with the model's kinematics at every recorded q; the page needs no network and no library.
 */
@Command(name = "view", sortOptions = false, usageHelpAutoWidth = true, usageHelpWidth = 100,
        header = "Write an HTML page that animates a trajectory of symdyn simulate.",
        description = {
            "Writes one self-contained HTML file (no network, no external library): the model's links as a stick"
                    + " figure (parent to child link origins, an axis triad per link; x red, y green, z blue), the"
                    + " contact points (dot size by normal impulse), the grounds as grids, in a 3-D view that orbits"
                    + " when dragged (wheel: zoom; double-click: reset); play/pause, speed, a time slider, and a plot"
                    + " of a chosen signal (each q, each v, the contacts' normal impulses summed).",
            "The link poses are computed from each recorded q with the model's kinematics, so the model must be the"
                    + " one simulated (same --floating)."},
        footer = {"", "Trajectory file: symdyn simulate's output; \"t\" and \"q\" are required, \"v\" and \"contacts\""
                + " are shown when present, other keys are ignored.",
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
    CommonOptions options = new CommonOptions();

    @Override
    public void run(PrintStream out, PrintStream err) throws CliException {
        if (output.isEmpty()) {
            throw CliException.usage("view", "option --output needs a non-empty value");
        }
        Path outFile = GenerateCommand.outputPath(output);
        if (Files.isDirectory(outFile)) {
            throw CliException.badInput(outFile + ":[0,0] cannot write file: it is a directory");
        }
        Model m = options.load(model, meshes, "view");
        Trajectory t = TrajectoryReader.read(SymDynCli.path(trajectory), m);
        for (Diagnostic warning : m.warnings()) {
            err.println(warning);
        }
        GenerateCommand.write(outFile, MotionPage.html(m, new GenericDynamics(m), t));
    }
}
