package org.symdyn.geometry;

import java.io.IOException;

/**
 * A mesh file that cannot be read: the message names the file, where (line of a text file, byte offset of a binary
 * one) and what is wrong, as in {@code "bowl.stl: byte 184: truncated: ..."}.
 */
public final class MeshFileException extends IOException {
    private static final long serialVersionUID = 1L;

    /** @param message the file, the place and the cause */
    public MeshFileException(String message) {
        super(message);
    }
}
