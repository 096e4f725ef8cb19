package org.symdyn.io.mjcf;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.symdyn.io.DiagnosticOrder;
import org.symdyn.io.MeshPolicy;
import org.symdyn.io.Messages;
import org.symdyn.io.ModelChecks;
import org.symdyn.io.Names;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;
import org.symdyn.model.Model;
import org.symdyn.model.ModelBuilder;
import org.symdyn.model.ModelException;

/**
 * Turns one MJCF model (its files' element tree) into a {@link Model}: settings and defaults first, then the body
 * tree, then the sections that refer to bodies, joints and sites (geom shapes, contact exclusions, equalities,
 * actuators, sensors, keyframes). Every problem goes into the files' lists; nothing is thrown before all are found.
 */
final class MjcfModelReader {
    /** Top-level sections read, or ignored because they do not change the dynamics. */
    private static final Set<String> SECTIONS = Set.of("compiler", "option", "size", "default", "asset",
            "worldbody", "contact", "equality", "tendon", "actuator", "sensor", "keyframe", "visual", "statistic",
            "custom", "extension", "deformable");

    private final MjcfSource source;
    private final String path;
    private final Path file;
    private final MjcfReader.Options options;

    MjcfModelReader(MjcfSource source, String path, Path file, MjcfReader.Options options) {
        this.source = source;
        this.path = path;
        this.file = file;
        this.options = options;
    }

    Model read() throws ModelException {
        XmlElement root = source.root();
        ValueReader rootValues = source.values(root);
        if (!root.is("mujoco")) {
            rootValues.error(root, "the document element is <" + Messages.cut(root.name()) + ">"
                    + (root.namespace().isEmpty() ? "" : " in namespace '" + Messages.cut(root.namespace()) + "'")
                    + ", expected <mujoco> (an MJCF file)");
            throw DiagnosticOrder.refusal(source.diagnostics());
        }
        String name = root.attribute("model");
        if (name == null || name.isBlank()) {
            name = defaultName();
        }
        Names.check(rootValues, root, "model name", name);
        ModelBuilder builder = Model.builder(name).source(path, source.sha256()).strict(options.strict());

        CompilerSettings compiler = CompilerSettings.read(source, source.children(root, "compiler"));
        DefaultClasses defaults = DefaultClasses.read(source, source.children(root, "default"));
        Flags flags = readOptions(root, builder);
        boolean contactDisabled = flags.contactDisabled();
        GeomReader geomReader = new GeomReader(compiler, meshAssets(root, compiler), materialColours(root));

        BodyTreeReader tree = new BodyTreeReader(source, defaults, compiler, builder, geomReader,
                flags.dampersDisabled());
        tree.read(source.children(root, "worldbody"), root);

        new GeomShapes(source, builder, options.meshes(), contactDisabled).add(tree.geoms(), tree.bodies(),
                source.children(root, "contact"));
        TendonCouplings tendons = new TendonCouplings(source, options.ignoreTendons(), source.children(root,
                "tendon"));
        new EqualityReader(source, defaults, builder, tree, tendons).read(source.children(root, "equality"));
        java.util.Set<String> actuatorNames = new ActuatorReader(source, defaults, compiler, builder, tree, tendons)
                .read(source.children(root, "actuator"));
        new SensorReader(source, builder, tree, actuatorNames).read(source.children(root, "sensor"));
        new KeyframeReader(source, builder, tree).read(source.children(root, "keyframe"));
        for (XmlElement c : source.children(root)) {
            if (!c.namespace().isEmpty() || !SECTIONS.contains(c.name())) {
                source.values(c).warning(c, "unknown element <" + Messages.cut(c.name()) + "> in <mujoco>;"
                        + " ignored");
            } else if (c.is("deformable")) {
                source.values(c).warning(c, "<deformable> (flexes and skins) is not read");
            }
        }

        MjcfAttributes.check(source, root);
        return ModelChecks.build(builder, source.diagnostics());
    }

    private String defaultName() {
        if (file == null || file.getFileName() == null) {
            return "mujoco_model";
        }
        String n = file.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot > 0 ? n.substring(0, dot) : n;
    }

    /**
     * What the option's flags switch off that the reading follows: every contact ({@code contact="disable"}: no geom
     * collides) and the joints' damping ({@code damper} or {@code passive} disabled).
     */
    private record Flags(boolean contactDisabled, boolean dampersDisabled) {
    }

    /**
     * {@code <option gravity>} (default 0 0 −9.81; the last one written wins), the gravity flag, and the contact and
     * damper flags ({@link Flags}). The other flags are located warnings when they disable something (SymDyn cannot
     * switch off its limits, equalities or friction), as are a medium's {@code density}, {@code viscosity} and
     * {@code wind} (fluid forces, not modelled).
     */
    private Flags readOptions(XmlElement root, ModelBuilder builder) {
        double[] gravity = Model.DEFAULT_GRAVITY.clone();
        boolean disabled = false;
        boolean contactDisabled = false;
        boolean dampersDisabled = false;
        for (XmlElement o : source.children(root, "option")) {
            ValueReader v = source.values(o);
            gravity = v.vector(o, "gravity", 3, gravity, "option gravity");
            double density = v.number(o, "density", 0, false, "option density");
            double viscosity = v.number(o, "viscosity", 0, false, "option viscosity");
            double[] wind = v.vector(o, "wind", 3, new double[3], "option wind");
            if (density != 0 || viscosity != 0 || wind[0] != 0 || wind[1] != 0 || wind[2] != 0) {
                v.warning(o, "the medium's density, viscosity and wind (fluid forces) are not modelled");
            }
            for (XmlElement f : source.children(o, "flag")) {
                for (String flag : new String[] {"gravity", "contact", "damper", "passive"}) {
                    String value = f.attribute(flag);
                    if (value != null && !value.trim().equals("enable") && !value.trim().equals("disable")) {
                        v.error(f, "<flag " + flag + "=\"" + Messages.cut(value) + "\">: the value must be enable or"
                                + " disable");
                    }
                }
                String g = f.attribute("gravity");
                if (g != null) {
                    disabled = "disable".equals(g.trim());
                }
                String c = f.attribute("contact");
                if (c != null) {
                    contactDisabled = "disable".equals(c.trim());
                }
                for (String damper : new String[] {"damper", "passive"}) {
                    String d = f.attribute(damper);
                    if (d != null) {
                        dampersDisabled = "disable".equals(d.trim());
                    }
                }
                for (String flag : UNREAD_FLAGS) {
                    String value = f.attribute(flag);
                    // simulation settings: not a word when reading for the dynamics alone (generate, evaluate)
                    if (value != null && "disable".equals(value.trim()) && options.meshes() != MeshPolicy.SKIP) {
                        v.warning(f, "<flag " + flag + "=\"disable\"> is not read: SymDyn keeps them");
                    }
                }
            }
        }
        if (disabled) {
            gravity = new double[3];
        }
        builder.gravity(gravity[0], gravity[1], gravity[2]);
        return new Flags(contactDisabled, dampersDisabled);
    }

    /** Flags that switch off what SymDyn always models. */
    private static final String[] UNREAD_FLAGS = {"constraint", "equality", "limit", "frictionloss", "actuation",
        "clampctrl"};

    /** The {@code <mesh>} assets by name (a mesh without a name is named after its file, as in MuJoCo). */
    private Map<String, GeomReader.MeshAsset> meshAssets(XmlElement root, CompilerSettings compiler) {
        Map<String, GeomReader.MeshAsset> meshes = new HashMap<>();
        for (XmlElement asset : source.children(root, "asset")) {
            for (XmlElement m : source.children(asset, "mesh")) {
                ValueReader v = source.values(m);
                String meshFile = m.attribute("file");
                String name = m.attribute("name");
                if (name == null && meshFile != null) {
                    String base = Path.of(meshFile).getFileName().toString();
                    int dot = base.lastIndexOf('.');
                    name = dot > 0 ? base.substring(0, dot) : base;
                }
                if (name == null) {
                    v.warning(m, "a <mesh> without name or file is ignored");
                    continue;
                }
                double[] scale = v.vector(m, "scale", 3, new double[] {1, 1, 1}, "mesh '" + name + "' scale");
                String resolved = meshFile == null ? null : meshFile(compiler, meshFile);
                meshes.put(name, new GeomReader.MeshAsset(resolved, scale));
            }
        }
        return meshes;
    }

    /** The {@code rgba} of each named {@code <material>} asset (MuJoCo's default 1 1 1 1). */
    private Map<String, double[]> materialColours(XmlElement root) {
        Map<String, double[]> colours = new HashMap<>();
        for (XmlElement asset : source.children(root, "asset")) {
            for (XmlElement m : source.children(asset, "material")) {
                String name = m.attribute("name");
                if (name != null) {
                    colours.putIfAbsent(name, source.values(m).vector(m, "rgba", 4, new double[] {1, 1, 1, 1},
                            "material '" + Messages.cut(name) + "' rgba"));
                }
            }
        }
        return colours;
    }

    /** The mesh file's path: {@code meshdir} (relative to the model file's directory) then the file's name. */
    private String meshFile(CompilerSettings compiler, String name) {
        Path dir = file == null ? Path.of("") : file.toAbsolutePath().getParent();
        try {
            if (compiler.meshdir() != null) {
                dir = dir.resolve(compiler.meshdir());
            }
            return dir.resolve(name).toString();
        } catch (RuntimeException e) {
            return name;
        }
    }
}
