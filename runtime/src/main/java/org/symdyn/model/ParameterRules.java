package org.symdyn.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.symdyn.contract.Arguments;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * The physical rules a new value of a declared parameter ({@link ParameterModel}) must keep, for whoever holds the
 * values: {@link Model#withParameters} (the interpreter) and a generated class's {@code setParameter}, which builds
 * one of these from literals in its static initialiser (it has no {@link Model}). The rules are the model file's:
 * <ul>
 * <li>every value finite;</li>
 * <li>a link field: the link's own inertial (mass, centre of mass, inertia about it; its file values with every
 * parameter of that link in place) a physical body, as a file's inertia must be (a finite non-negative mass and an
 * inertia about the centre of mass that is not negative beyond rounding; see {@code InertiaRules});</li>
 * <li>an armature: not negative;</li>
 * <li>an origin coordinate: any finite number.</li>
 * </ul>
 * A refused value changes nothing: {@link #check} throws before the caller stores it. Immutable.
 */
public final class ParameterRules {
    private final String[] names;
    private final ParameterModel.Field[] fields;
    /** For a link field: the link's name; null for joint fields. */
    private final String[] links;
    /** For a link field: the link's own 13 numbers as its file declares them (m, c, I_c row-major); else null. */
    private final double[][] fileNumbers;

    /**
     * @param names       the parameters' names, in declaration order
     * @param fields      what each stands for
     * @param links       for each link field, the name of its link (parameters of one link name the same link);
     *                    null for a joint field
     * @param fileNumbers for each link field, its link's own inertial as the file declares it, 13 numbers (m, c_x,
     *                    c_y, c_z, then I_c row-major), the same for every parameter of that link; null for a joint
     *                    field
     */
    public ParameterRules(String[] names, ParameterModel.Field[] fields, String[] links, double[][] fileNumbers) {
        int n = names.length;
        if (fields.length != n || links.length != n || fileNumbers.length != n) {
            throw new IllegalArgumentException("parameter rules: " + n + " names, " + fields.length + " fields, "
                    + links.length + " links, " + fileNumbers.length + " inertials");
        }
        this.names = names.clone();
        this.fields = fields.clone();
        this.links = links.clone();
        this.fileNumbers = new double[n][];
        for (int k = 0; k < n; k++) {
            if (fields[k].isLinkField() && (links[k] == null || fileNumbers[k] == null
                    || fileNumbers[k].length != 13)) {
                throw new IllegalArgumentException("parameter " + names[k] + ": a link field needs its link's name"
                        + " and 13 numbers");
            }
            this.fileNumbers[k] = fileNumbers[k] == null ? null : fileNumbers[k].clone();
        }
    }

    /** The rules of a model's declared parameters (its links' own inertials as declared). */
    public static ParameterRules of(Model model) {
        List<ParameterModel> params = model.parameters();
        int n = params.size();
        String[] names = new String[n];
        ParameterModel.Field[] fields = new ParameterModel.Field[n];
        String[] links = new String[n];
        double[][] numbers = new double[n][];
        for (int k = 0; k < n; k++) {
            ParameterModel p = params.get(k);
            names[k] = p.name();
            fields[k] = p.field();
            if (p.field().isLinkField()) {
                links[k] = model.body(p.body()).name();
                numbers[k] = fileNumbers(model, p.body());
            }
        }
        return new ParameterRules(names, fields, links, numbers);
    }

    /**
     * A link's own inertial with every declared parameter of it at its model value: 13 numbers (m, c, I_c
     * row-major), the values a file gives.
     */
    public static double[] fileNumbers(Model model, int body) {
        RigidBodyInertia own = model.ownInertia(body);
        double[] out = new double[13];
        out[0] = own.mass();
        System.arraycopy(own.comArray(), 0, out, 1, 3);
        System.arraycopy(own.inertiaAboutComArray(), 0, out, 4, 9);
        return out;
    }

    /** The number of parameters. */
    public int size() {
        return names.length;
    }

    /**
     * Checks that parameter {@code index} may take {@code value} while the others keep {@code current}'s values.
     *
     * @param current every parameter's value now (entry {@code index} is ignored; not modified)
     * @throws IndexOutOfBoundsException for an index out of range
     * @throws IllegalArgumentException  naming the parameter and, for a link field, the link and the rule broken
     */
    public void check(int index, double value, double[] current) {
        Arguments.checkIndex(index, names.length, "parameter");
        double[] values = current.clone();
        values[index] = value;
        checkAll(values, index);
    }

    /**
     * Checks a whole set of values, as {@link Model#withParameters} takes them.
     *
     * @throws IllegalArgumentException for the first value or link that breaks a rule
     */
    public void checkAll(double[] values) {
        checkAll(values, -1);
    }

    private void checkAll(double[] values, int only) {
        if (values.length != names.length) {
            throw new IllegalArgumentException(names.length + " parameters, " + values.length + " values given");
        }
        for (int k = 0; k < values.length; k++) {
            if ((only < 0 || k == only) && !Double.isFinite(values[k])) {
                throw new IllegalArgumentException("parameter " + names[k] + ": " + values[k]
                        + " is not a finite number");
            }
        }
        List<String> checked = new ArrayList<>();
        for (int k = 0; k < values.length; k++) {
            if (only >= 0 && k != only) {
                continue;
            }
            if (fields[k] == ParameterModel.Field.ARMATURE && values[k] < 0) {
                throw new IllegalArgumentException("parameter " + names[k] + ": armature " + values[k]
                        + " is negative");
            }
            if (fields[k].isLinkField() && !checked.contains(links[k])) {
                checked.add(links[k]);
                checkLink(k, values);
            }
        }
    }

    private void checkLink(int k, double[] values) {
        double[] n = fileNumbers[k].clone();
        for (int j = 0; j < values.length; j++) {
            if (fields[j].isLinkField() && links[j].equals(links[k])) {
                for (int slot : fields[j].inertiaSlots()) {
                    n[slot] = values[j];
                }
            }
        }
        RigidBodyInertia own = RigidBodyInertia.of(n[0], Arrays.copyOfRange(n, 1, 4), Arrays.copyOfRange(n, 4, 13));
        List<Diagnostic> problems = new ArrayList<>();
        InertiaRules.checkDeclared(links[k], own, true, null, problems);
        for (Diagnostic d : problems) {
            if (d.isError()) {
                throw new IllegalArgumentException("the parameters of link '" + links[k] + "' make it no physical"
                        + " body: " + d.message());
            }
        }
    }
}
