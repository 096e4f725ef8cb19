package org.symdyn.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.io.ModelFileReader;
import org.symdyn.model.Body;
import org.symdyn.model.ConstraintModel;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Frame;
import org.symdyn.model.Model;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code symdyn inspect}: the structure of a model as JSON.
 *
 * <pre>
 * {
 *   "name": robot name, "format": "URDF" or "MJCF" (the format the file was read in), "nq": n, "nv": n, "q_names": [...], "v_names": [...],
 *   "bodies": [{"name", "parent" (parent body's name, or the root link's), "joint", "joint_type" (URDF name)}],
 *   "frames": [{"name", "body" (the body it moves with, or the root link's name)}],
 *   "constraints": [{"name", "type", "rows"}],
 *   "warnings": ["path:[line,col] warning: ..."]
 * }
 * </pre>
 */
@Command(name = "inspect", sortOptions = false, usageHelpAutoWidth = true, usageHelpWidth = 100,
        header = "Print a model's structure as JSON.",
        description = {"Keys: name, format (URDF, MJCF or SDFormat 1.x), nq, nv, q_names, v_names, bodies (name, parent, joint, joint_type), frames (name,"
                + " body), constraints (name, type, rows) and warnings."},
        footer = {"", "Exit codes: 0 success, 1 internal error, 2 bad usage or model file (every problem printed as"
                + " path:[line,col] message)."})
final class InspectCommand implements CliCommand {
    @Parameters(paramLabel = "MODEL", arity = "1", description = "The model file (.urdf, MJCF .xml or .mjcf, or SDFormat .sdf).")
    String model;

    @Mixin
    CommonOptions options = new CommonOptions();

    @Override
    public void run(PrintStream out, PrintStream err) throws CliException {
        Model m = options.load(model);
        out.println(SymDynCli.WRITER.write(describe(m, ModelFileReader.formatName(SymDynCli.path(model)))));
    }

    static JsonValue describe(Model model, String format) {
        List<JsonValue> bodies = new ArrayList<>();
        for (Body b : model.bodies()) {
            bodies.add(JsonValue.objectBuilder()
                    .put("name", b.name())
                    .put("parent", bodyName(model, b.parentIndex()))
                    .put("joint", b.joint().name())
                    .put("joint_type", b.joint().type().urdfName())
                    .build());
        }
        List<JsonValue> frames = new ArrayList<>();
        for (Frame f : model.frames()) {
            frames.add(JsonValue.objectBuilder()
                    .put("name", f.name())
                    .put("body", bodyName(model, f.bodyIndex()))
                    .build());
        }
        List<JsonValue> constraints = new ArrayList<>();
        for (ConstraintModel c : model.constraints()) {
            constraints.add(JsonValue.objectBuilder()
                    .put("name", c.name())
                    .put("type", c.typeName())
                    .put("rows", c.rowCount())
                    .build());
        }
        return JsonValue.objectBuilder()
                .put("name", model.name())
                .put("format", format)
                .put("nq", model.nq())
                .put("nv", model.nv())
                .put("q_names", JsonValue.strings(model.qNames()))
                .put("v_names", JsonValue.strings(model.vNames()))
                .put("bodies", JsonValue.array(bodies))
                .put("frames", JsonValue.array(frames))
                .put("constraints", JsonValue.array(constraints))
                .put("warnings", JsonValue.strings(model.warnings().stream().map(Diagnostic::toString).toList()))
                .build();
    }

    private static String bodyName(Model model, int bodyIndex) {
        return bodyIndex < 0 ? model.rootName() : model.body(bodyIndex).name();
    }
}
