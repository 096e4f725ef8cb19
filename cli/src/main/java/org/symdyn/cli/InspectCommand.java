package org.symdyn.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.geometry.Box;
import org.symdyn.geometry.Capsule;
import org.symdyn.geometry.ConvexHull;
import org.symdyn.geometry.Cylinder;
import org.symdyn.geometry.Shape;
import org.symdyn.geometry.Sphere;
import org.symdyn.geometry.TriangleMesh;
import org.symdyn.io.ModelFileReader;
import org.symdyn.model.Body;
import org.symdyn.model.CollisionShapeModel;
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
 *   "name": robot name, "format": "URDF" or "MJCF" (the format the file was read in), "nq": n, "nv": n,
 *   "q_names": [...], "v_names": [...],
 *   "bodies": [{"name", "parent" (parent body's name, or the root link's), "joint", "joint_type" (URDF name),
 *               "armature" (kg m² or kg) and "damping" (N m s/rad or N s/m) of the joint, each only when nonzero}],
 *   "frames": [{"name", "body" (the body it moves with, or the root link's name)}],
 *   "constraints": [{"name", "type", "rows"}],
 *   "collision_shapes": [{"name", "link", "body", "kind" (sphere, capsule, box, cylinder, hull, mesh, half_space),
 *                         "hull_vertices" (a hull's), "triangles" (a static mesh's)}],
 *   "collision_shapes_per_link": {link: count},
 *   "visual_shapes": count,
 *   "no_contact": [[link1, link2]],
 *   "lidars": [{"name", "link", "samples", "rows"}],
 *   "keyframes": [{"name", "q", "v"}]   the model's initial states (MJCF keyframes), only when it has some,
 *   "warnings": ["path:[line,col] warning: ..."]
 * }
 * </pre>
 */
@Command(name = "inspect", sortOptions = false, usageHelpAutoWidth = true, usageHelpWidth = 100,
        header = "Print a model's structure as JSON.",
        description = {"Keys: name, format (URDF, MJCF or SDFormat 1.x), nq, nv, q_names, v_names, bodies (name, parent, joint,"
                + " joint_type; armature and damping when nonzero), frames (name, body), constraints (name, type,"
                + " rows), collision_shapes (name, link, body, kind, hull_vertices or triangles),"
                + " collision_shapes_per_link, visual_shapes (their count), no_contact (link pairs), lidars (name,"
                + " link, samples, rows), keyframes (name, q, v: the initial states simulate --keyframe starts"
                + " from; present only when the model has some) and warnings.",
            "Meshes are loaded (--package-path, --missing-meshes); a mesh on a moving link collides as its convex"
                    + " hull."},
        footer = {"", "Exit codes: 0 success, 1 internal error, 2 bad usage or model file (every problem printed as"
                + " path:[line,col] message)."})
final class InspectCommand implements CliCommand {
    @Parameters(paramLabel = "MODEL", arity = "1", description = "The model file (.urdf, MJCF .xml or .mjcf, or SDFormat .sdf).")
    String model;

    @Mixin
    MeshOptions meshes = new MeshOptions();

    @Mixin
    CommonOptions options = new CommonOptions();

    @Override
    public void run(PrintStream out, PrintStream err) throws CliException {
        Model m = options.load(model, meshes, "inspect");
        out.println(SymDynCli.WRITER.write(describe(m, ModelFileReader.formatName(SymDynCli.path(model)))));
    }

    static JsonValue describe(Model model, String format) {
        List<JsonValue> bodies = new ArrayList<>();
        for (Body b : model.bodies()) {
            JsonValue.ObjectBuilder body = JsonValue.objectBuilder()
                    .put("name", b.name())
                    .put("parent", bodyName(model, b.parentIndex()))
                    .put("joint", b.joint().name())
                    .put("joint_type", b.joint().type().urdfName());
            if (b.joint().armature() != 0) {
                body.put("armature", b.joint().armature());
            }
            if (b.joint().damping() != 0) {
                body.put("damping", b.joint().damping());
            }
            bodies.add(body.build());
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
        JsonValue.ObjectBuilder out = JsonValue.objectBuilder()
                .put("name", model.name())
                .put("format", format)
                .put("nq", model.nq())
                .put("nv", model.nv())
                .put("q_names", JsonValue.strings(model.qNames()))
                .put("v_names", JsonValue.strings(model.vNames()))
                .put("bodies", JsonValue.array(bodies))
                .put("frames", JsonValue.array(frames))
                .put("constraints", JsonValue.array(constraints))
                .put("collision_shapes", JsonValue.array(collisionShapes(model)))
                .put("collision_shapes_per_link", JsonValue.object(perLink(model)))
                .put("visual_shapes", model.scene().visualShapes().size())
                .put("no_contact", JsonValue.array(model.scene().noContactPairs().stream()
                        .map(p -> (JsonValue) JsonValue.strings(List.of(p.link1(), p.link2()))).toList()))
                .put("lidars", JsonValue.array(model.scene().lidars().stream().map(l -> (JsonValue) JsonValue
                        .objectBuilder().put("name", l.name()).put("link", l.link()).put("samples", l.samples())
                        .put("rows", l.rows()).build()).toList()));
        if (!model.initialStates().isEmpty()) {
            out.put("keyframes", JsonValue.array(model.initialStates().stream().map(s -> (JsonValue) JsonValue
                    .objectBuilder().put("name", s.name()).put("q", JsonValue.array(s.q()))
                    .put("v", JsonValue.array(s.v())).build()).toList()));
        }
        return out.put("warnings", JsonValue.strings(model.warnings().stream().map(Diagnostic::toString).toList()))
                .build();
    }

    private static List<JsonValue> collisionShapes(Model model) {
        List<JsonValue> out = new ArrayList<>();
        for (CollisionShapeModel c : model.collisionShapes()) {
            JsonValue.ObjectBuilder b = JsonValue.objectBuilder().put("name", c.name()).put("link", c.link())
                    .put("body", bodyName(model, c.body())).put("kind", kind(c.shape()));
            if (c.shape() instanceof ConvexHull hull) {
                b.put("hull_vertices", hull.vertexCount());
            } else if (c.shape() instanceof TriangleMesh mesh) {
                b.put("triangles", mesh.triangleCount());
            }
            out.add(b.build());
        }
        return out;
    }

    private static Map<String, JsonValue> perLink(Model model) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (CollisionShapeModel c : model.collisionShapes()) {
            counts.merge(c.link(), 1, Integer::sum);
        }
        Map<String, JsonValue> out = new LinkedHashMap<>();
        counts.forEach((link, n) -> out.put(link, JsonValue.of(n)));
        return out;
    }

    private static String kind(Shape s) {
        if (s instanceof Sphere) {
            return "sphere";
        } else if (s instanceof Capsule) {
            return "capsule";
        } else if (s instanceof Box) {
            return "box";
        } else if (s instanceof Cylinder) {
            return "cylinder";
        } else if (s instanceof ConvexHull) {
            return "hull";
        } else if (s instanceof TriangleMesh) {
            return "mesh";
        }
        return "half_space";
    }

    private static String bodyName(Model model, int bodyIndex) {
        return bodyIndex < 0 ? model.rootName() : model.body(bodyIndex).name();
    }
}
