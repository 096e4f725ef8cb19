package org.symdyn.io.sdf;

import java.io.File;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.symdyn.io.MeshPolicy;
import org.symdyn.io.PackagePath;
import org.symdyn.io.XmlDocument;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;

/**
 * Reads an SDFormat file (versions 1.6 to 1.11) into an immutable {@link Model}, by the rules of the SDFormat
 * specification where they change the dynamics (each class of this package states the rules it follows).
 *
 * <h2>What is read</h2>
 * <ul>
 * <li>{@code <sdf version>} ({@link SdfVersion}); one {@code <model>}, or a {@code <world>} with one model (its
 * {@code <gravity>} is read, SDFormat's 0 0 −9.8 when absent; the rest of the world is a warning). A model file
 * without a world has SymDyn's default gravity 0 0 −9.81: the world sets gravity.</li>
 * <li>Nested {@code <model>}s and {@code <include>}s of models, names scoped {@code outer::inner::name}
 * ({@link ModelTreeReader}, {@link SdfSource}); {@code <static>}.</li>
 * <li>{@code <link>}, {@code <frame>}, {@code <pose relative_to>} with degrees and quaternions
 * ({@link PoseElement}, {@link FrameGraph}); {@code <inertial>} ({@link InertialReader}).</li>
 * <li>{@code <joint>} fixed, revolute, continuous, prismatic, ball, universal and revolute2, with axes, limits and
 * damping ({@link JointReader}); the tree and the floating base ({@link BodyAssembler}): a root link that no joint
 * attaches to the world floats, on a floating joint named after it, unless the model is static.</li>
 * <li>{@code <collision>} and {@code <visual>} primitives and meshes with their surface friction and
 * restitution ({@link LinkContentReader}, {@link GeometryReader}; meshes by {@link Options#meshes()}, as for URDF);
 * IMU and ray/lidar sensors ({@link SensorReader}).</li>
 * </ul>
 *
 * <h2>What is not</h2>
 * Heightmaps, screw and gearbox joints (errors), joint friction and springs, plugins, the world's lights,
 * physics and other models, other sensors and simulator settings: each present one is a located warning (or an
 * error where reading on would give a different mechanism), never dropped silently.
 *
 * <h2>Problems</h2>
 * As the URDF and MJCF readers: every problem is found before anything is thrown, all thrown together as one
 * {@link ModelException} whose diagnostics print as {@code path:[line,col] message} at the element (in the file it
 * was written in, for included files); accepted oddities are {@link Model#warnings()}, errors under
 * {@link Options#strict()}. The XML is read by the same hardened parser (no external entities or DTDs).
 */
public final class SdfReader {
    /**
     * How to read.
     *
     * @param strict      warnings are errors
     * @param modelPath   the folders {@code model://name} URIs are looked up in, in order (for a mesh's
     *                    {@code model://} URI, after the package path)
     * @param meshes      what to do with mesh shapes ({@code <mesh><uri>}), as for URDF
     * @param packagePath where {@code package://} URIs resolve, and {@code model://} URIs of meshes first
     */
    public record Options(boolean strict, List<Path> modelPath, MeshPolicy meshes, PackagePath packagePath) {
        /** Warnings allowed, no model path, meshes skipped. */
        public static final Options DEFAULT = new Options(false, List.of());

        public Options {
            modelPath = List.copyOf(modelPath);
            java.util.Objects.requireNonNull(meshes, "meshes");
            java.util.Objects.requireNonNull(packagePath, "packagePath");
        }

        /**
         * For reading a model's dynamics: meshes skipped ({@link MeshPolicy#SKIP}), as generation needs none, the
         * package path of the environment.
         */
        public Options(boolean strict, List<Path> modelPath) {
            this(strict, modelPath, MeshPolicy.SKIP, PackagePath.fromEnvironment());
        }

        /** These options with that mesh policy and package path. */
        public Options withMeshes(MeshPolicy policy, PackagePath path) {
            return new Options(strict, modelPath, policy, path);
        }

        /**
         * The options with the model path of the environment, as Gazebo finds models: the folders of
         * {@code SDF_PATH}, then those of {@code GZ_SIM_RESOURCE_PATH} (each a list separated by the platform's path
         * separator); meshes skipped.
         */
        public static Options fromEnvironment(boolean strict) {
            List<Path> path = new ArrayList<>();
            for (String variable : List.of("SDF_PATH", "GZ_SIM_RESOURCE_PATH")) {
                String value = System.getenv(variable);
                if (value == null) {
                    continue;
                }
                for (String dir : value.split(File.pathSeparator)) {
                    try {
                        if (!dir.isBlank()) {
                            path.add(Path.of(dir));
                        }
                    } catch (InvalidPathException e) {
                        // a folder that cannot be named is not searched
                    }
                }
            }
            return new Options(strict, path);
        }
    }

    private SdfReader() {
    }

    /** Reads a file with {@link Options#DEFAULT}. */
    public static Model read(Path file) throws ModelException {
        return read(file, Options.DEFAULT);
    }

    /**
     * Reads a file and the files it includes. The model's source path is {@code file.toString()} and its hash the
     * SHA-256 of the main file's bytes.
     *
     * @throws ModelException with every problem found; if the file cannot be read, one diagnostic
     *                        {@code path:[0,0] cannot read file: <reason>}
     */
    public static Model read(Path file, Options options) throws ModelException {
        String path = String.valueOf(file);
        Options o = options == null ? Options.DEFAULT : options;
        try {
            return new SdfModelReader(SdfSource.read(file, path, o.modelPath()), path, o).read();
        } catch (RuntimeException e) {
            throw XmlDocument.internalError(path, e);
        }
    }

    /**
     * Reads a document given as a string (a relative {@code <include>} in it is an error: there is no folder).
     *
     * @param path the name used in messages and as the model's source path
     * @throws ModelException with every problem found
     */
    public static Model parse(String xml, String path, Options options) throws ModelException {
        String p = path == null ? "<string>" : path;
        Options o = options == null ? Options.DEFAULT : options;
        try {
            return new SdfModelReader(SdfSource.parse(xml, p, o.modelPath()), p, o).read();
        } catch (RuntimeException e) {
            throw XmlDocument.internalError(p, e);
        }
    }

    /**
     * The version an SDFormat file declares ({@code "1.7"}), or null when the file cannot be parsed or declares none
     * that is read.
     */
    public static String version(Path file) {
        try {
            SdfVersion v = SdfVersion.parse(XmlDocument.read(file, String.valueOf(file)).root().attribute("version"));
            return v == null || !v.isRead() ? null : v.toString();
        } catch (ModelException | RuntimeException e) {
            return null;
        }
    }
}
