package org.symdyn.io.mjcf;

import java.nio.file.Path;
import org.symdyn.io.MeshPolicy;
import org.symdyn.io.XmlDocument;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;

/**
 * Reads a MuJoCo MJCF file into an immutable {@link Model}, by MuJoCo's compile rules where they change the
 * dynamics (each class of this package states the rules it follows).
 *
 * <h2>What is read</h2>
 * <ul>
 * <li>{@code <mujoco model>}: the model's name (the file's name without extension when absent);
 * {@code <include file>} ({@link MjcfSource}); {@code <compiler>} ({@link CompilerSettings}); {@code <default>}
 * classes with {@code class} and {@code childclass} ({@link DefaultClasses}); {@code <option gravity>} and
 * {@code <flag gravity="disable">}.</li>
 * <li>{@code <worldbody>}: bodies, {@code <frame>}s, joints (hinge, slide, ball, free) with armature, damping,
 * {@code ref} and limits, inertials or inertia from geoms ({@link BodyTreeReader}, {@link JointReader},
 * {@link InertialReader}, {@link GeomInertia}); geoms as collision or visual shapes and sites
 * ({@link GeomShapes}).</li>
 * <li>{@code <equality>} connect, weld and joint ({@link EqualityReader}); {@code <contact><exclude>}
 * ({@link GeomShapes}); {@code <actuator>} motor, position, velocity ({@link ActuatorReader}); {@code <sensor>}
 * jointpos, jointvel, gyro with accelerometer ({@link SensorReader}); {@code <keyframe>} keys as the model's
 * {@link org.symdyn.model.Model#initialStates()} ({@link KeyframeReader}).</li>
 * </ul>
 *
 * <h2>What is not</h2>
 * Joint springs ({@code stiffness}), {@code frictionloss}, a keyframe's controls, other sensors and actuators, tendons, muscles,
 * flexes, plugins: each present one is a located warning, never dropped silently. A tendon that couples joints
 * through an equality or an actuator is an error unless {@link Options#ignoreTendons()}. Elements that would add
 * bodies ({@code composite}, {@code flexcomp}, {@code attach}, {@code replicate}) are errors. Visual and camera
 * settings are ignored.
 *
 * <h2>Coordinates</h2>
 * The world body is the root link {@code world}. A free joint's coordinates are the body frame's pose in the world,
 * q = [p, quaternion x, y, z, w], v = [ω; v] in the body frame (SymDyn's floating joint; MuJoCo writes the
 * quaternion w first and the linear velocity in world axes). A ball joint's quaternion is x, y, z, w. A hinge or
 * slide coordinate is MuJoCo's qpos: at q = ref the body is at its XML pose.
 *
 * <h2>Problems</h2>
 * As the URDF reader: every problem is found before anything is thrown, all thrown together as one
 * {@link ModelException} whose diagnostics print as {@code path:[line,col] message} at the element (in the file it
 * was written in, for included files); accepted oddities are {@link Model#warnings()}, errors under
 * {@link Options#strict()}. The XML is read by the same hardened parser (no external entities or DTDs).
 */
public final class MjcfReader {
    /**
     * How to read.
     *
     * @param strict        warnings are errors
     * @param ignoreTendons read a model whose tendons couple joints (through an equality or an actuator) as if those
     *                      tendons and the elements acting on them were absent, with a warning each
     * @param meshes        what to do with a mesh geom's file ({@link MeshPolicy}, as the URDF and SDFormat readers
     *                      do): a file that cannot be found or read is an error at the geom
     *                      ({@link MeshPolicy#REQUIRED}), a warning with the geom left out
     *                      ({@link MeshPolicy#OPTIONAL}), or not looked at ({@link MeshPolicy#SKIP}: for the
     *                      dynamics, which never use shapes; no inertia is taken from a mesh)
     */
    public record Options(boolean strict, boolean ignoreTendons, MeshPolicy meshes) {
        /** Warnings allowed, tendon couplings refused, meshes {@link MeshPolicy#OPTIONAL}. */
        public static final Options DEFAULT = new Options(false, false);

        public Options {
            java.util.Objects.requireNonNull(meshes, "meshes");
        }

        /**
         * Meshes loaded where they can be, a missing one a warning ({@link MeshPolicy#OPTIONAL}): what this reader
         * did before it took a mesh policy.
         */
        public Options(boolean strict, boolean ignoreTendons) {
            this(strict, ignoreTendons, MeshPolicy.OPTIONAL);
        }

        /** These options with that mesh policy. */
        public Options withMeshes(MeshPolicy policy) {
            return new Options(strict, ignoreTendons, policy);
        }
    }

    private MjcfReader() {
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
        try {
            return new MjcfModelReader(MjcfSource.read(file, path), path, file, options == null ? Options.DEFAULT
                    : options).read();
        } catch (RuntimeException e) {
            throw XmlDocument.internalError(path, e);
        }
    }

    /**
     * Reads a document given as a string (an {@code <include>} in it is an error: there is no directory).
     *
     * @param path the name used in messages and as the model's source path
     * @throws ModelException with every problem found
     */
    public static Model parse(String xml, String path, Options options) throws ModelException {
        String p = path == null ? "<string>" : path;
        try {
            return new MjcfModelReader(MjcfSource.parse(xml, p), p, null, options == null ? Options.DEFAULT
                    : options).read();
        } catch (RuntimeException e) {
            throw XmlDocument.internalError(p, e);
        }
    }
}
