package org.symdyn.io;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.symdyn.io.mjcf.MjcfReader;
import org.symdyn.io.sdf.SdfReader;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.Body;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.model.SourceLocation;

/**
 * Reads a model file in its format ({@link #formatOf}): MJCF by {@link MjcfReader}, URDF by {@link UrdfReader},
 * SDFormat by {@link SdfReader} (with the model path of the environment, {@link SdfReader.Options#fromEnvironment}).
 * The one entry point of the command line, the build plugin and applications that take any
 * model file.
 */
public final class ModelFileReader {
    /**
     * How to read.
     *
     * @param floatingBase  URDF: give the root link a floating joint ({@link UrdfReader.Options#floatingBase()}).
     *                      MJCF floats a body by its {@code <freejoint>}, SDFormat a root link that no joint attaches
     *                      to the world: the option is accepted when the model has a floating joint, and refused
     *                      otherwise
     * @param strict        warnings are errors
     * @param ignoreTendons MJCF: leave out tendons that couple joints ({@link MjcfReader.Options#ignoreTendons()})
     * @param meshes        what to do with mesh shapes ({@link UrdfReader.Options#meshes()},
     *                      {@link MjcfReader.Options#meshes()})
     * @param packagePath   URDF and SDFormat: where {@code package://} URIs resolve
     *                      ({@link UrdfReader.Options#packagePath()}), and SDFormat's {@code model://} mesh URIs
     *                      before the model path
     */
    public record Options(boolean floatingBase, boolean strict, boolean ignoreTendons, MeshPolicy meshes,
            PackagePath packagePath) {
        /** Fixed base as the file says, warnings allowed, tendon couplings refused, meshes skipped. */
        public static final Options DEFAULT = new Options(false, false, false);

        public Options {
            java.util.Objects.requireNonNull(meshes, "meshes");
            java.util.Objects.requireNonNull(packagePath, "packagePath");
        }

        /** For reading a model's dynamics: meshes skipped ({@link MeshPolicy#SKIP}), as generation needs none. */
        public Options(boolean floatingBase, boolean strict, boolean ignoreTendons) {
            this(floatingBase, strict, ignoreTendons, MeshPolicy.SKIP, PackagePath.fromEnvironment());
        }

        /** These options with that mesh policy and package path. */
        public Options withMeshes(MeshPolicy policy, PackagePath path) {
            return new Options(floatingBase, strict, ignoreTendons, policy, path);
        }
    }

    private ModelFileReader() {
    }

    /**
     * Reads the file. A missing file and a directory are one diagnostic at {@code path:[0,0]}.
     *
     * @throws ModelException every problem of the file, each located
     */
    public static Model read(Path file, Options options) throws ModelException {
        Options o = options == null ? Options.DEFAULT : options;
        String name = String.valueOf(file);
        if (!Files.exists(file)) {
            throw refusal(name, "cannot read file: no such file");
        }
        if (Files.isDirectory(file)) {
            throw refusal(name, "cannot read file: it is a directory");
        }
        switch (formatOf(file)) {
            case URDF:
                return UrdfReader.read(file, new UrdfReader.Options(o.floatingBase(), o.strict(), o.meshes(),
                        o.packagePath()));
            case MJCF: {
                Model model = MjcfReader.read(file, new MjcfReader.Options(o.strict(), o.ignoreTendons(), o.meshes()));
                if (o.floatingBase() && !floats(model)) {
                    throw refusal(name, "the floating-base option adds a floating joint to a URDF's root link; an"
                            + " MJCF body floats by a <freejoint>, and this model has none");
                }
                return model;
            }
            default: {
                Model model = SdfReader.read(file, SdfReader.Options.fromEnvironment(o.strict())
                        .withMeshes(o.meshes(), o.packagePath()));
                if (o.floatingBase() && !floats(model)) {
                    throw refusal(name, "the floating-base option adds a floating joint to a URDF's root link; an"
                            + " SDFormat model floats when no joint attaches it to the world and it is not static,"
                            + " and this model does not");
                }
                return model;
            }
        }
    }

    /**
     * The format's name as reports print it: {@link ModelFormat#displayName()}, with the version an SDFormat file
     * declares ("SDFormat 1.10") when it can be read.
     */
    public static String formatName(Path file) {
        ModelFormat format = formatOf(file);
        if (format == ModelFormat.SDF) {
            String version = SdfReader.version(file);
            return version == null ? format.displayName() : format.displayName() + " " + version;
        }
        return format.displayName();
    }

    /**
     * The format a file is read in: by its extension ({@link ModelFormat#of}), except that an {@code .xml} file
     * whose document element is {@code <robot>} is URDF (other {@code .xml} files, also those that cannot be parsed,
     * are MJCF), and a name with no known extension is URDF, the format SymDyn reads by default.
     */
    public static ModelFormat formatOf(Path file) {
        ModelFormat format = ModelFormat.of(file);
        if (format == null) {
            return ModelFormat.URDF;
        }
        if (format == ModelFormat.MJCF && isXml(file) && "robot".equals(documentElement(file))) {
            return ModelFormat.URDF;
        }
        return format;
    }

    /**
     * True when {@code file} is a model file a build should read: a {@code .urdf}, {@code .mjcf} or {@code .sdf} file,
     * or an {@code .xml} file whose document element is {@code <mujoco>} or {@code <robot>} (a folder of models may
     * hold other XML files). An {@code .xml} file that cannot be read or parsed counts as a model, so that its
     * problem is reported.
     */
    public static boolean isModelFile(Path file) {
        if (!isXml(file)) {
            return ModelFormat.of(file) != null;
        }
        String root = documentElement(file);
        return root == null || root.equals("mujoco") || root.equals("robot");
    }

    private static boolean isXml(Path file) {
        Path name = file.getFileName();
        return name != null && name.toString().toLowerCase(Locale.ROOT).endsWith(".xml");
    }

    /** The local name of the document element in no namespace, "" in a namespace, null when unreadable. */
    private static String documentElement(Path file) {
        try {
            XmlElement root = XmlDocument.read(file, file.toString()).root();
            return root.namespace().isEmpty() ? root.name() : "";
        } catch (ModelException e) {
            return null;
        }
    }

    private static boolean floats(Model model) {
        for (Body b : model.bodies()) {
            if (b.joint().type() == JointType.FLOATING) {
                return true;
            }
        }
        return false;
    }

    private static ModelException refusal(String path, String message) {
        return new ModelException(Diagnostic.error(new SourceLocation(path, 0, 0), message));
    }
}
