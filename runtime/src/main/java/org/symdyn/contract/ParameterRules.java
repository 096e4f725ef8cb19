package org.symdyn.contract;

import java.util.Arrays;
import org.symdyn.spatial.InertiaValidity;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * The physical rules a new value of a declared parameter ({@link ModelParameters}) must keep, for whoever holds the
 * values: the interpreter ({@code org.symdyn.model.Model.withParameters}, which builds these rules with
 * {@code Model.parameterRules()}) and a generated class's {@code setParameter}, which builds them from literals in
 * its static initialiser. The rules are a model file's:
 * <ul>
 * <li>every value finite;</li>
 * <li>a link's inertial number (mass, centre of mass, inertia about it): the link's own inertial, its file values
 * with every parameter of that link in place, a physical body ({@link InertiaValidity#ofDeclared}'s errors: a
 * finite non-negative mass and an inertia about the centre of mass not negative beyond rounding, for a light
 * placeholder link too, which a file may declare with a warning);</li>
 * <li>an armature: not negative;</li>
 * <li>a joint origin's coordinate: any finite number.</li>
 * </ul>
 * A refused value changes nothing: {@link #check} throws before the caller stores it. Immutable.
 */
public final class ParameterRules {
    private final String[] names;
    /** For a link's number: the link's name; null for a joint's. */
    private final String[] links;
    /** For a link's number: where it sits among the link's 13 numbers (one place, two for a product of inertia). */
    private final int[][] slots;
    private final boolean[] armature;
    /** For a link's number: the link's own 13 numbers as its file declares them (m, c, I_c row-major). */
    private final double[][] fileNumbers;

    /**
     * @param names       the parameters' names, in declaration order
     * @param links       for a link's number, the link's name (parameters of one link give the same name); null for
     *                    a joint's
     * @param slots       for a link's number, its places among the link's 13 numbers (m, c_x, c_y, c_z, then I_c
     *                    row-major; a product of inertia has two); empty for a joint's
     * @param armature    true for a joint's armature
     * @param fileNumbers for a link's number, the link's own inertial as the file declares it, 13 numbers, the same
     *                    for every parameter of that link; empty or null for a joint's
     */
    public ParameterRules(String[] names, String[] links, int[][] slots, boolean[] armature, double[][] fileNumbers) {
        int n = names.length;
        if (links.length != n || slots.length != n || armature.length != n || fileNumbers.length != n) {
            throw new IllegalArgumentException("parameter rules: " + n + " names, " + links.length + " links, "
                    + slots.length + " slots, " + armature.length + " armature flags, " + fileNumbers.length
                    + " inertials");
        }
        this.names = names.clone();
        this.links = links.clone();
        this.slots = new int[n][];
        this.armature = armature.clone();
        this.fileNumbers = new double[n][];
        for (int k = 0; k < n; k++) {
            this.slots[k] = slots[k].clone();
            if (links[k] != null) {
                if (fileNumbers[k] == null || fileNumbers[k].length != 13 || slots[k].length == 0) {
                    throw new IllegalArgumentException("parameter " + names[k] + ": a link's number needs its places"
                            + " and the link's 13 numbers");
                }
                this.fileNumbers[k] = fileNumbers[k].clone();
            }
        }
    }

    /** The number of parameters. */
    public int size() {
        return names.length;
    }

    /** Parameter k's link, for a link's number; null for a joint's. */
    public String link(int k) {
        return links[k];
    }

    /** Parameter k's places among its link's 13 numbers (a new array; empty for a joint's number). */
    public int[] slots(int k) {
        return slots[k].clone();
    }

    /** True if parameter k is a joint's armature. */
    public boolean armature(int k) {
        return armature[k];
    }

    /** Parameter k's link's own inertial as declared, 13 numbers (a new array); null for a joint's number. */
    public double[] fileNumbers(int k) {
        return fileNumbers[k] == null ? null : fileNumbers[k].clone();
    }

    /**
     * Checks that parameter {@code index} may take {@code value} while the others keep {@code current}'s values.
     *
     * @param current every parameter's value now (entry {@code index} is ignored; not modified)
     * @throws IndexOutOfBoundsException for an index out of range
     * @throws IllegalArgumentException  naming the parameter and, for a link's number, the link and the rule broken
     */
    public void check(int index, double value, double[] current) {
        Arguments.checkIndex(index, names.length, "parameter");
        double[] values = current.clone();
        values[index] = value;
        check(values, index);
    }

    /**
     * Checks a whole set of values, one per parameter in declaration order.
     *
     * @throws IllegalArgumentException for the first value or link that breaks a rule
     */
    public void checkAll(double[] values) {
        check(values, -1);
    }

    private void check(double[] values, int only) {
        if (values.length != names.length) {
            throw new IllegalArgumentException(names.length + " parameters, " + values.length + " values given");
        }
        for (int k = 0; k < values.length; k++) {
            if ((only < 0 || k == only) && !Double.isFinite(values[k])) {
                throw new IllegalArgumentException("parameter " + names[k] + ": " + values[k]
                        + " is not a finite number");
            }
        }
        for (int k = 0; k < values.length; k++) {
            if (only >= 0 && k != only) {
                continue;
            }
            if (armature[k] && values[k] < 0) {
                throw new IllegalArgumentException("parameter " + names[k] + ": armature " + values[k]
                        + " is negative");
            }
            if (links[k] != null && (only >= 0 || firstOfLink(k))) {
                checkLink(k, values);
            }
        }
    }

    private boolean firstOfLink(int k) {
        for (int j = 0; j < k; j++) {
            if (links[k].equals(links[j])) {
                return false;
            }
        }
        return true;
    }

    private void checkLink(int k, double[] values) {
        double[] n = fileNumbers[k].clone();
        for (int j = 0; j < values.length; j++) {
            if (links[k].equals(links[j])) {
                for (int slot : slots[j]) {
                    n[slot] = values[j];
                }
            }
        }
        RigidBodyInertia own = RigidBodyInertia.of(n[0], Arrays.copyOfRange(n, 1, 4), Arrays.copyOfRange(n, 4, 13));
        for (InertiaValidity.Finding f : InertiaValidity.ofDeclared(links[k], own, true, false)) {
            if (f.error()) {
                throw new IllegalArgumentException("the parameters of link '" + links[k] + "' make it no physical"
                        + " body: " + f.message());
            }
        }
    }
}
