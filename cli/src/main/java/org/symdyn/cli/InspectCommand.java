package org.symdyn.cli;

import java.util.ArrayList;
import java.util.List;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.model.Body;
import org.symdyn.model.ConstraintModel;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Frame;
import org.symdyn.model.Model;

/**
 * {@code symdyn inspect}: the structure of a model as JSON.
 *
 * <pre>
 * {
 *   "name": robot name, "nq": n, "nv": n, "q_names": [...], "v_names": [...],
 *   "bodies": [{"name", "parent" (parent body's name, or the root link's), "joint", "joint_type" (URDF name)}],
 *   "frames": [{"name", "body" (the body it moves with, or the root link's name)}],
 *   "constraints": [{"name", "type", "rows"}],
 *   "warnings": ["path:[line,col] warning: ..."]
 * }
 * </pre>
 */
final class InspectCommand {
    private InspectCommand() {
    }

    static JsonValue describe(Model model) {
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
