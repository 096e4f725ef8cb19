package org.symdyn.io;

/**
 * What a model reader does with a mesh file ({@code <mesh filename>}) it cannot have: not found through the
 * {@link PackagePath}, unreadable or malformed.
 */
public enum MeshPolicy {
    /**
     * Meshes are loaded; one that cannot be had is an error at its {@code <mesh>} element, naming the URI and where
     * it was looked for. One exception, so that robots from ROS packages read where no package path is known: a
     * {@code package://} URI while no package path was given at all ({@link PackagePath#isEmpty()}) is a warning,
     * and the shape is left out.
     */
    REQUIRED,
    /** Meshes are loaded; one that cannot be had is a warning (the same text as under REQUIRED), its shape left out. */
    OPTIONAL,
    /**
     * Meshes are not loaded at all and their shapes are left out without a word; the other shapes are read and
     * checked as always. For uses that never need shapes (generating code, evaluating dynamics).
     */
    SKIP
}
