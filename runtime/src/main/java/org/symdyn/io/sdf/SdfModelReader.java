package org.symdyn.io.sdf;

import java.util.ArrayList;
import java.util.List;
import org.symdyn.io.DiagnosticOrder;
import org.symdyn.io.MeshLoader;
import org.symdyn.io.Messages;
import org.symdyn.io.ModelChecks;
import org.symdyn.io.Names;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;
import org.symdyn.model.Model;
import org.symdyn.model.ModelBuilder;
import org.symdyn.model.ModelException;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;

/**
 * Turns one SDFormat document into a {@link Model}: the {@code <sdf version>}, the one model it describes (directly,
 * or as the one model of a {@code <world>}), its declarations ({@link ModelTreeReader}), their frames
 * ({@link FrameGraph}), joints ({@link JointReader}), bodies ({@link BodyAssembler}), explicit frames, and what the
 * links carry ({@link LinkContentReader}). Every problem goes into the files' lists; nothing is thrown before all are
 * found.
 */
final class SdfModelReader {
    /** SDFormat's gravity in a {@code <world>} that gives none (m/s²). */
    private static final double[] WORLD_GRAVITY = {0, 0, -9.8};

    private final SdfSource source;
    private final String path;
    private final SdfReader.Options options;

    SdfModelReader(SdfSource source, String path, SdfReader.Options options) {
        this.source = source;
        this.path = path;
        this.options = options;
    }

    Model read() throws ModelException {
        XmlElement root = source.root();
        ValueReader values = source.values(root);
        if (!root.is("sdf")) {
            values.error(root, Messages.unexpectedDocument(root, "sdf", "an SDFormat file"));
            throw DiagnosticOrder.refusal(source.diagnostics());
        }
        SdfVersion version = SdfVersion.parse(root.attribute("version"));
        if (version == null || !version.isRead()) {
            values.error(root, root.has("version") ? "<sdf version='" + Messages.cut(root.attribute("version"))
                    + "'>: SDFormat 1.6 to 1.11 is read" : "<sdf> has no 'version' attribute (1.6 to 1.11 is read)");
            throw DiagnosticOrder.refusal(source.diagnostics());
        }
        double[] gravity = Model.DEFAULT_GRAVITY.clone();
        XmlElement model = null;
        List<XmlElement> worlds = root.children("world");
        List<XmlElement> models = root.children("model");
        for (XmlElement c : root.children()) {
            if (!c.is("world") && !c.is("model")) {
                values.warning(c, "<" + Messages.cut(c.name()) + "> in <sdf> is not read");
            }
        }
        if (worlds.size() + models.size() != 1) {
            values.error(root, "an SDFormat file read as a model holds one <model> or one <world> (it holds "
                    + models.size() + " models and " + worlds.size() + " worlds)");
            throw DiagnosticOrder.refusal(source.diagnostics());
        }
        if (!worlds.isEmpty()) {
            XmlElement world = worlds.get(0);
            model = worldModel(world, values);
            XmlElement g = SdfText.first(world, "gravity");
            gravity = g == null ? WORLD_GRAVITY.clone() : SdfText.numbers(values, g, 3, "world gravity");
        } else {
            model = models.get(0);
        }
        if (model == null) {
            throw DiagnosticOrder.refusal(source.diagnostics());
        }
        ValueReader modelValues = source.values(model);
        String name = modelValues.require(model, "name", "<model> has no 'name' attribute");
        Names.check(modelValues, model, "model name", name);
        ModelBuilder builder = Model.builder(name == null ? "model" : name).source(path, source.sha256())
                .strict(options.strict()).gravity(gravity[0], gravity[1], gravity[2]);
        builder.root(ModelScope.WORLD, modelValues.location(model));

        ModelTree tree = new ModelTreeReader(source).read(model, source.file(model).version());
        if (tree.links.isEmpty()) {
            modelValues.error(model, "model '" + name + "' has no links");
        }
        FrameGraph frames = new FrameGraph(tree, source);
        JointReader jointReader = new JointReader(source, frames);
        List<SdfJoint> joints = new ArrayList<>();
        for (ModelTree.JointDecl j : tree.joints) {
            joints.add(jointReader.read(j));
        }
        BodyAssembler bodies = new BodyAssembler(source, frames, builder);
        bodies.add(tree.links, joints);
        addFrames(tree, frames, bodies, builder);
        SensorReader sensors = new SensorReader(source, frames, builder);
        LinkContentReader contents = new LinkContentReader(source, frames, bodies, builder, sensors,
                new MeshLoader(options.meshes(), options.packagePath(), options.modelPath()));
        for (ModelTree.LinkDecl l : tree.links) {
            contents.read(l);
        }
        return ModelChecks.build(builder, source.diagnostics());
    }

    /**
     * The one model of a world (a {@code <model>} or an {@code <include>} of one); every other element of the world
     * but {@code <gravity>} is a warning. Several models are an error naming them.
     */
    private XmlElement worldModel(XmlElement world, ValueReader values) {
        List<XmlElement> candidates = new ArrayList<>();
        for (XmlElement c : world.children()) {
            if (c.is("model") || c.is("include")) {
                candidates.add(c);
            }
        }
        if (candidates.size() != 1) {
            List<String> names = new ArrayList<>();
            for (XmlElement c : candidates) {
                names.add(c.is("model") ? "'" + c.attribute("name") + "'" : "include '" + SdfText.string(c, "uri")
                        + "'");
            }
            values.error(world, candidates.isEmpty() ? "the world has no model"
                    : "the world has " + candidates.size() + " models (" + Messages.cut(String.join(", ", names))
                    + "): a model file describes one; keep one of them");
            return null;
        }
        boolean otherContent = false;
        for (XmlElement c : world.children()) {
            if (!c.is("model") && !c.is("include") && !c.is("gravity")) {
                otherContent = true;
            }
        }
        if (otherContent) {
            values.warning(world, "the world's content other than its model and gravity (" + otherNames(world)
                    + ") is ignored");
        }
        XmlElement only = candidates.get(0);
        if (only.is("model")) {
            return only;
        }
        SdfSource.Included included = source.include(only, new ArrayList<>(source.file(world).file() == null
                ? List.of() : List.of(SdfSource.real(source.file(world).file()))));
        if (included == null) {
            return null;
        }
        List<XmlElement> inner = included.root().children("model");
        if (inner.size() != 1) {
            included.file().values().error(included.root(), "an included file must hold exactly one <model>");
            return null;
        }
        if (SdfText.first(only, "pose") != null || SdfText.first(only, "name") != null) {
            values.warning(only, "the included model's <name> and <pose> in the world are not read (the model is"
                    + " read as the file describes it)");
        }
        return inner.get(0);
    }

    private static String otherNames(XmlElement world) {
        List<String> names = new ArrayList<>();
        for (XmlElement c : world.children()) {
            if (!c.is("model") && !c.is("include") && !c.is("gravity") && !names.contains("<" + c.name() + ">")) {
                names.add("<" + c.name() + ">");
            }
        }
        return Messages.cut(String.join(", ", names));
    }

    /** Explicit frames, as frames of the links they are attached to. */
    private void addFrames(ModelTree tree, FrameGraph frames, BodyAssembler bodies, ModelBuilder builder) {
        for (ModelTree.FrameDecl f : tree.frames) {
            String link = frames.link(f.name());
            Pose linkPose = link == null ? null : bodies.builderPose(link);
            if (linkPose == null) {
                continue;
            }
            SourceLocation at = source.values(f.element()).location(f.element());
            builder.addFixedLink(f.name(), link, linkPose.inverse().compose(frames.pose(f.name())), null, at, at);
        }
    }
}
