package org.symdyn.contract;

import org.ejml.data.DMatrixRMaj;

/**
 * The argument checks of the contract's policy (see the package documentation), shared by the generic backend,
 * every generated class and the solvers, so that a wrong argument gives the same {@link IllegalArgumentException}
 * with the same message whichever backend is behind an interface:
 * <ul>
 * <li>every {@code double[]} argument has exactly its length: "q must have 7 entries, got 6";</li>
 * <li>every {@code DMatrixRMaj} output has exactly its shape: "H must be 7x7, got 7x6";</li>
 * <li>an output is not the same array as an input or another output, nor a matrix output's {@code data} array:
 * "C must not be the same array as v (an output may not alias an input or another output)"; empty arrays and
 * matrices, which hold nothing, may be shared.</li>
 * </ul>
 * A {@code null} argument throws {@link NullPointerException}. The checks are a few compares at the start of a
 * call; they do not allocate unless they throw.
 */
public final class Arguments {
    private Arguments() {
    }

    /**
     * @throws IllegalArgumentException if {@code array.length != length}
     */
    public static void checkLength(double[] array, int length, String name) {
        if (array.length != length) {
            throw new IllegalArgumentException(name + " must have " + length + " entries, got " + array.length);
        }
    }

    /**
     * @throws IllegalArgumentException if the matrix is not {@code rows x cols}
     */
    public static void checkShape(DMatrixRMaj matrix, int rows, int cols, String name) {
        if (matrix.numRows != rows || matrix.numCols != cols) {
            throw new IllegalArgumentException(name + " must be " + rows + "x" + cols + ", got " + matrix.numRows + "x"
                    + matrix.numCols);
        }
    }

    /**
     * @throws IllegalArgumentException if {@code output} is the same array as {@code other} (an input or another
     *                                  output)
     */
    public static void checkDistinct(double[] output, String outputName, double[] other, String otherName) {
        if (output == other && output.length != 0) {
            throw aliased(outputName, otherName);
        }
    }

    /**
     * @throws IllegalArgumentException if the matrix output's data array is {@code other} (an input or another
     *                                  output)
     */
    public static void checkDistinct(DMatrixRMaj output, String outputName, double[] other, String otherName) {
        if (output.data == other && other.length != 0) {
            throw aliased(outputName, otherName);
        }
    }

    /**
     * @throws IllegalArgumentException if the two matrix outputs are the same matrix or share their data array
     */
    public static void checkDistinct(DMatrixRMaj output, String outputName, DMatrixRMaj other, String otherName) {
        if ((output == other || output.data == other.data) && output.getNumElements() != 0) {
            throw aliased(outputName, otherName);
        }
    }

    /**
     * @throws IndexOutOfBoundsException if {@code index} is not in [0, size), naming the index ("body 7 of 5")
     */
    public static void checkIndex(int index, int size, String name) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(name + " " + index + " of " + size);
        }
    }

    private static IllegalArgumentException aliased(String output, String other) {
        return new IllegalArgumentException(output + " must not be the same array as " + other
                + " (an output may not alias an input or another output)");
    }
}
