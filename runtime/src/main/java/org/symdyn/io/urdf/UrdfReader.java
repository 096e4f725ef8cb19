package org.symdyn.io.urdf;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Objects;
import org.symdyn.io.MeshPolicy;
import org.symdyn.io.PackagePath;
import org.symdyn.io.XmlDocument;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;

/**
 * Reads a URDF file, with SymDyn's constraint extension elements, into an immutable {@link Model}.
 *
 * <h2>What is read</h2>
 * <ul>
 * <li>{@code <link>}: the {@code <inertial>} (origin xyz and rpy, mass, inertia about the centre of mass in the
 * inertial frame) becomes the link's inertia in the link frame: centre of mass xyz, inertia R I Rᵀ with
 * R = Rz(yaw) Ry(pitch) Rx(roll). A link without {@code <inertial>} is massless.</li>
 * <li>A link's {@code <collision>} and {@code <visual>} elements are its shapes ({@code SceneElementReader}):
 * {@code box}, {@code cylinder} (axis z), {@code sphere}, {@code mesh} (STL, OBJ, Collada, found through
 * {@link Options#packagePath()}) and {@code symdyn:capsule} (axis z, length of the cylindrical part); a collision's
 * {@code <symdyn:contact friction restitution/>} material; a visual's colour. A mesh on a moving link collides as
 * its convex hull; on the root, triangle by triangle. Meshes are loaded as {@link Options#meshes()} says.</li>
 * <li>{@code <joint>} of type {@code revolute}, {@code continuous}, {@code prismatic}, {@code fixed},
 * {@code floating}, {@code planar} or {@code ball} (a spherical joint, as Drake's URDF reader accepts it):
 * {@code origin} (xyz rpy, default identity) is the joint frame in the parent link frame; {@code axis xyz}
 * (default 1 0 0, any nonzero vector, normalised) is in the joint frame; {@code limit lower/upper} of revolute
 * and prismatic joints become position limits (NaN when the limit or a bound is absent, which URDF forbids for
 * revolute joints but which is accepted here); {@code <mimic joint multiplier offset>} becomes a
 * {@link org.symdyn.model.CouplerConstraintModel} named {@code <joint>_mimic} (a mimic on a fixed joint is ignored
 * with a warning); {@code <dynamics damping>} and {@code <dynamics symdyn:armature>} (namespace {@value #NAMESPACE})
 * become the joint's damping and armature (finite, ≥ 0, default 0), a nonzero {@code friction} is ignored with a
 * warning.</li>
 * <li>Body order: the root link is the one link that is no joint's child; bodies follow the URDF document order,
 * depth first from the root (a link's child joints in document order, each child's subtree before the next
 * sibling). A link on a fixed joint becomes a frame of its moving ancestor, its inertia merged into it.</li>
 * <li>Extension elements in namespace {@value #NAMESPACE} (any prefix), direct children of {@code <robot>}:
 * {@code gravity xyz}; {@code no_contact link1 link2}; {@code lidar} ({@link org.symdyn.model.LidarModel});
 * {@code loop} (predecessor and successor with link, xyz, rpy; one or more {@code axis value}
 * of 6 numbers [angular; linear] in the predecessor frame, normalised); {@code contact} (link, point on the link,
 * default 0 0 0; world normal, normalised); {@code coupler} (joint, reference, ratio default 1, offset default 0:
 * q_joint = ratio q_reference + offset, both single-dof movable joints); {@code line_on_line} (rolling, default
 * false; edge_f and edge_b with link, xyz, rpy and a positive half_length). Each constraint has a unique name and
 * an optional positive {@code baumgarte_time_constant} (seconds; absent means stabilisation off, NaN). A
 * constraint's link may be the root link (body -1; not for a contact, which needs a moving body) or a link on
 * fixed joints, whose placement is folded into the constraint frame or point. Other namespaces and unknown URDF
 * elements ({@code transmission}, {@code gazebo}, {@code material}, ...) are ignored; an unknown element in the
 * SymDyn namespace is an error.</li>
 * </ul>
 *
 * <h2>Floating base</h2>
 * A {@code floating} joint in the file is a {@link org.symdyn.model.JointType#FLOATING} joint. With
 * {@link Options#floatingBase()}, the rule is: if the first movable joint (in body order) is already floating,
 * the root is a world link and nothing is added; otherwise the root link itself becomes body 0 on a floating joint
 * named {@code floating_base} (with {@code _root} appended while a movable joint of the file has that name),
 * whose parent is a synthetic root link named {@code world} ({@code world_root} if the file has a link called
 * {@code world}). This is what legged-robot files without a world link (HyQ, Solo, ANYmal, Romeo) need; the
 * floating body carries the root link's inertia and that of every link fixed to it, which must be positive.
 *
 * <h2>Problems</h2>
 * Every problem in the file is found before anything is thrown, and all are thrown together as one
 * {@link ModelException} whose {@link Diagnostic}s (in file order) print as {@code path:[line,col] message}, the
 * position being the start tag of the offending element. A model is returned only if there is no error;
 * accepted oddities (a violated triangle inequality, inertia problems of placeholder links under
 * {@link org.symdyn.model.ModelBuilder#DUMMY_MASS} kg, ignored repeated elements, limits with lower above upper,
 * ...) are {@link Model#warnings()}, or errors under {@link Options#strict()}.
 *
 * <h2>Security</h2>
 * The XML parser reads nothing but the document: no external DTD and no external entities are ever loaded
 * (a reference to one is an error), and entity expansion is bounded.
 */
public final class UrdfReader {
    /** The namespace URI of SymDyn's extension elements. */
    public static final String NAMESPACE = "urn:symdyn:1";

    /**
     * The largest model file read (64 MiB; public URDFs are a few MB): a larger file, or a device such as
     * {@code /dev/zero}, is refused after reading that much instead of exhausting the memory.
     */
    public static final int MAX_FILE_BYTES = XmlDocument.MAX_FILE_BYTES;

    /**
     * How to read.
     *
     * @param floatingBase give the root link a 6-dof floating joint (for URDFs without a world link; see the class
     *                     comment for the exact rule)
     * @param strict       warnings are errors
     * @param meshes       what to do with the meshes ({@link MeshPolicy}); under {@link MeshPolicy#SKIP} the file's
     *                     shapes are checked but no mesh is loaded and no warning about shapes is given
     * @param packagePath  where {@code package://} URIs are found ({@link PackagePath})
     */
    public record Options(boolean floatingBase, boolean strict, MeshPolicy meshes, PackagePath packagePath) {
        /** Fixed base as the file says, warnings allowed, meshes skipped ({@link #Options(boolean, boolean)}). */
        public static final Options DEFAULT = new Options(false, false);

        public Options {
            Objects.requireNonNull(meshes, "meshes");
            Objects.requireNonNull(packagePath, "packagePath");
        }

        /**
         * For reading a model's dynamics: {@link MeshPolicy#SKIP}, so that a robot's meshes are neither needed nor
         * warned about (generated code and the interpreter never use shapes); ask for them with
         * {@link #withMeshes}.
         */
        public Options(boolean floatingBase, boolean strict) {
            this(floatingBase, strict, MeshPolicy.SKIP, PackagePath.fromEnvironment());
        }

        /** These options with that mesh policy and package path. */
        public Options withMeshes(MeshPolicy policy, PackagePath path) {
            return new Options(floatingBase, strict, policy, path);
        }
    }

    private UrdfReader() {
    }

    /** Reads a file with {@link Options#DEFAULT}. */
    public static Model read(Path file) throws ModelException {
        return read(file, Options.DEFAULT);
    }

    /**
     * Reads a file. The model's source path is {@code file.toString()} and its hash the SHA-256 of the file's bytes.
     *
     * @throws ModelException with every problem found; if the file cannot be read, one diagnostic
     *                        {@code path:[0,0] cannot read file: <reason>}
     */
    public static Model read(Path file, Options options) throws ModelException {
        String path = String.valueOf(file);
        return read(XmlDocument.read(file, path), path, options, file.toAbsolutePath().getParent());
    }

    /**
     * Reads a document given as a string.
     *
     * @param xml     the URDF text
     * @param path    the name used in messages and as the model's source path; relative mesh paths resolve
     *                against its directory
     * @param options how to read (null for {@link Options#DEFAULT})
     * @throws ModelException with every problem found
     */
    public static Model parse(String xml, String path, Options options) throws ModelException {
        String p = path == null ? "<string>" : path;
        Path directory = null;
        try {
            directory = path == null ? null : Path.of(path).toAbsolutePath().getParent();
        } catch (InvalidPathException e) {
            // a name that is no file's: relative mesh paths resolve against the working directory
        }
        return read(XmlDocument.parse(xml, p), p, options, directory);
    }

    private static Model read(XmlDocument document, String path, Options options, Path directory)
            throws ModelException {
        try {
            UrdfModelReader reader = new UrdfModelReader(path, options == null ? Options.DEFAULT : options,
                    directory);
            for (Diagnostic d : document.diagnostics()) {
                reader.report(d);
            }
            return reader.read(document.root(), document.sha256());
        } catch (RuntimeException e) {
            throw XmlDocument.internalError(path, e);
        }
    }
}
