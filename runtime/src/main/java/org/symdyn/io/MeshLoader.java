package org.symdyn.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.symdyn.geometry.LoadedMesh;
import org.symdyn.geometry.MeshFileException;
import org.symdyn.geometry.Shape;

/**
 * The mesh shapes of one model reading: a mesh URI found through the {@link PackagePath} (and, for SDFormat, its
 * model path), read by {@link MeshFormats} at a per-axis scale, each file and scale once per reading; what happens
 * to a mesh that cannot be had is the {@link MeshPolicy}'s. The loaded mesh is a triangle mesh in the file's
 * coordinates times the scale; the {@link org.symdyn.model.ModelBuilder} makes a moving link's collision mesh its
 * convex hull and keeps a static one's triangles.
 */
public final class MeshLoader {
    private final MeshPolicy policy;
    private final PackagePath packagePath;
    private final List<Path> modelPath;
    private final Map<String, Object> meshes = new HashMap<>();

    /**
     * @param modelPath the folders {@code model://NAME/PATH} URIs are looked up in after the package path
     *                  ({@link PackagePath#resolveModel}); null when the format has no {@code model://} URIs (they
     *                  are then not read, as any other scheme)
     */
    public MeshLoader(MeshPolicy policy, PackagePath packagePath, List<Path> modelPath) {
        this.policy = policy;
        this.packagePath = packagePath;
        this.modelPath = modelPath == null ? null : List.copyOf(modelPath);
    }

    /** True when meshes are not loaded at all ({@link MeshPolicy#SKIP}). */
    public boolean skips() {
        return policy == MeshPolicy.SKIP;
    }

    /**
     * The mesh of a URI, or null when it is left out: under {@link MeshPolicy#SKIP} without a word; otherwise a
     * mesh not found or unreadable is an error at {@code at} ({@link MeshPolicy#REQUIRED}) or a warning
     * ({@link MeshPolicy#OPTIONAL}), and a {@code package://} or {@code model://} URI while no folder is known to
     * look in is a warning. The reading's own warnings (zero-area triangles left out) are given for collision
     * meshes only: a visual mesh draws the same without them.
     *
     * @param directory the folder of the file that names the mesh, against which relative paths resolve (null: the
     *                  working directory)
     * @param scale     per-axis scale, no entry zero (the caller checks it)
     * @param what      how messages name the shape, e.g. "link 'arm': collision"
     */
    public Shape load(ValueReader values, XmlElement at, String uri, double[] scale, Path directory, String what,
            boolean collision) {
        if (policy == MeshPolicy.SKIP) {
            return null;
        }
        PackagePath.Resolution where = modelPath != null && uri.trim().startsWith(PackagePath.MODEL_SCHEME)
                ? packagePath.resolveModel(uri, modelPath) : packagePath.resolve(uri, directory);
        String problem;
        if (where.found()) {
            Object loaded = load(where.file(), scale);
            if (loaded instanceof LoadedMesh mesh) {
                for (String w : collision ? mesh.warnings() : List.<String>of()) {
                    values.warning(at, what + ": mesh '" + quoted(uri) + "': " + w);
                }
                return mesh.mesh();
            }
            problem = "cannot read mesh '" + quoted(uri) + "': " + loaded;
        } else if (where.needsPackagePath()) {
            values.warning(at, what + ": mesh left out: " + where.problem());
            return null;
        } else {
            problem = "mesh not found: " + where.problem();
        }
        if (policy == MeshPolicy.REQUIRED) {
            values.error(at, what + ": " + problem);
        } else {
            values.warning(at, what + ": " + problem + " (the shape is left out)");
        }
        return null;
    }

    /** The mesh of a file at a scale, or the problem's text; read once per file and scale. */
    private Object load(Path file, double[] scale) {
        String key = file.toAbsolutePath().normalize() + "|" + scale[0] + "|" + scale[1] + "|" + scale[2];
        return meshes.computeIfAbsent(key, k -> {
            try {
                return MeshFormats.read(file, scale[0], scale[1], scale[2]);
            } catch (MeshFileException x) {
                return x.getMessage();
            } catch (IOException x) {
                return file + ": " + Messages.ioReason(x);
            } catch (RuntimeException x) {
                return file + ": " + x;
            }
        });
    }

    /** A URI as messages quote it: whole, unless it is absurdly long. */
    private static String quoted(String uri) {
        return uri.length() <= 400 ? uri : Messages.cut(uri);
    }
}
