package org.symdyn.geometry;

import java.util.List;

/**
 * A mesh read from a file ({@link MeshFiles}): the triangles, in the file's frame scaled as asked (metres), and the
 * warnings of the reading (zero-area triangles left out, OBJ statements ignored), each naming the file and place.
 *
 * @param mesh     the triangles
 * @param warnings what the reader left out or ignored, in file order (unmodifiable)
 */
public record LoadedMesh(TriangleMesh mesh, List<String> warnings) {
    /** Copies the warnings. */
    public LoadedMesh {
        warnings = List.copyOf(warnings);
    }
}
