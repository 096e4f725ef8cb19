package org.symdyn.constraints;

import java.util.ArrayList;
import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Arguments;
import org.symdyn.contract.ConstraintFunctions;
import org.symdyn.contract.ConstraintType;
import org.symdyn.contract.ForwardingModelInfo;
import org.symdyn.contract.ModelInfo;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.ConstraintModel;
import org.symdyn.model.ContactConstraintModel;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.LineOnLineConstraintModel;
import org.symdyn.model.LoopConstraintModel;
import org.symdyn.model.Model;

/**
 * The numeric constraint functions of a model's loop, contact, coupler and line-on-line constraints, built on
 * the generic kinematics: the oracle generated constraint code is checked against. Rows follow RBDL's definitions:
 * <ul>
 * <li>loop with frames P (predecessor) and S (successor) and axes a = [a_ω; a_v] in P: φ = a · [r; d] with
 * d = R_Pᵀ (o_S - o_P) (successor point minus predecessor point, in P) and r = ½ vee(R - Rᵀ) for R = R_Pᵀ R_S
 * (the small-angle rotation from P to S); G = aᵀ diag(R_Pᵀ, R_Pᵀ) (J_S - J_P) with J the world-aligned 6D
 * Jacobians [ω; ṗ] of the frame origins; γ = -Ġ v, which with Δv = [Δω; Δṗ] and Δa = [Δω̇; Δp̈] (world, at
 * v̇ = 0) and ω_P the predecessor's angular velocity in P is γ = -aᵀ (R_Pᵀ Δa - ω_P × R_Pᵀ Δv) blockwise;</li>
 * <li>contact at point p of a body with world normal n: φ = 0, G = nᵀ J_p, γ = -n · p̈(q, v, v̇ = 0);</li>
 * <li>coupler q_j = ratio q_r + offset: φ = q_j - ratio q_r - offset, G = e_j - ratio e_r, γ = 0;</li>
 * <li>line-on-line contact (Simbody's LineOnLineContact): rows [normal] or, when rolling, [normal, slip along
 * d_f, slip along n × d_f], evaluated by {@link LineOnLineContact} (which states the equations and signs):
 * φ = [r, 0, 0] with r the signed separation along the normal n (out of edge F, into edge B), G = Cᵀ (J_B - J_F)
 * at the contact point, γ = -Ġ v.</li>
 * </ul>
 * Velocity error is G v for every row.
 *
 * <p>The rows are evaluated by the same {@link ConstraintRows} providers a {@link ConstraintSet} uses for
 * constraints added in code ({@link LoopRows}, {@link ContactRows}, {@link CouplerRows}, {@link LineOnLineRows}),
 * one per model constraint in model order, bound to this instance's own {@link GenericDynamics} as kinematics;
 * except that the contact rows at one body point (a foot held along x, y and z by three {@code contact} elements)
 * share one {@link ContactRows}, so that they are evaluated with one point Jacobian and one bias acceleration
 * instead of one each (each costs a pass of the kinematics over the tree).
 * (This class does not use {@link ConstraintSet}: a set built with {@link ConstraintSet#of} evaluates the model's
 * rows through these functions.)
 *
 * <p>No method allocates after construction; an instance is not thread-safe.
 */
public final class GenericConstraints implements ConstraintFunctions, ForwardingModelInfo {
    private final GenericDynamics kin;
    private final int rows;
    private final int nq;
    private final int nv;
    /** One row provider per model constraint, in model order, bound to {@link #kin}. */
    private final ConstraintRows[] providers;
    /** Row offset of each provider. */
    private final int[] offsets;
    /** The model's constraints (metadata) and their names. */
    private final List<ConstraintModel> constraints;
    private final List<String> names;

    /**
     * @throws IllegalArgumentException if a constraint is of an unknown kind or does not fit the model (a body out
     *                                  of range, a loop joining a body to itself, a coupler on a multi-dof joint, a
     *                                  zero loop axis or contact normal, a degenerate line-on-line edge frame)
     */
    public GenericConstraints(Model model) {
        this(new GenericDynamics(model));
    }

    /**
     * Constraint functions evaluated on {@code kin}'s kinematics (shared with its other users, not copied), so that
     * they follow its parameters' values ({@link GenericDynamics#setParameter}): for a caller binding an interpreter
     * it was given, where {@link #GenericConstraints(Model)} would close the loops on the file's numbers.
     */
    public static GenericConstraints sharing(GenericDynamics kin) {
        return new GenericConstraints(kin);
    }

    /**
     * The model's constraint functions following the declared parameters of {@code implementation} (dynamics bound
     * beside them: a generated class made without constraint code), so that its loops close on the values set on it,
     * not on the file's; the file's functions when it has no parameters.
     */
    public static ConstraintFunctions following(Model model, Object implementation) {
        return model.parameters().isEmpty() ? new GenericConstraints(model)
                : new FollowingConstraints(model, implementation);
    }

    /** Constraint functions evaluated on {@code kin}'s kinematics (shared with its other users; not copied). */
    GenericConstraints(GenericDynamics kin) {
        Model model = kin.model();
        this.kin = kin;
        this.nq = model.nq();
        this.nv = model.nv();
        this.constraints = model.constraints();
        this.names = constraints.stream().map(ConstraintModel::name).toList();
        List<ConstraintRows> bound = new ArrayList<>();
        List<Integer> rowOffsets = new ArrayList<>();
        // Contact rows at one body point (a foot held along x, y and z) share one provider, so one point Jacobian
        // and one bias acceleration serve them all; its rows sit at their own places in the model's order (offset 0).
        List<ContactRows> contacts = new ArrayList<>();
        List<String> contactNames = new ArrayList<>();
        int row = 0;
        for (ConstraintModel c : model.constraints()) {
            if (c instanceof LoopConstraintModel loop && loop.axes().isEmpty()) {
                continue; // no rows
            }
            if (c instanceof ContactConstraintModel contact) {
                ContactRows shared = null;
                for (ContactRows other : contacts) {
                    if (other.isAt(contact.body(), contact.point())) {
                        shared = other;
                        break;
                    }
                }
                if (shared == null) {
                    shared = new ContactRows(contact.body(), contact.point(), contact.normal(), row);
                    contacts.add(shared);
                    contactNames.add(c.name());
                    bound.add(shared);
                    rowOffsets.add(0);
                } else {
                    shared.addNormalAt(contact.normal(), row);
                }
                row += 1;
                continue;
            }
            ConstraintRows p = boundRows(model, c, kin);
            if (p.rowCount() != c.rowCount()) {
                throw new IllegalStateException("constraint '" + c.name() + "' declares " + c.rowCount()
                        + " rows, its row provider has " + p.rowCount());
            }
            bound.add(p);
            rowOffsets.add(row);
            row += p.rowCount();
        }
        for (int k = 0; k < contacts.size(); k++) {
            try {
                contacts.get(k).bind(kin);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("constraint '" + contactNames.get(k) + "' of model '"
                        + model.name() + "': " + e.getMessage(), e);
            }
        }
        providers = bound.toArray(new ConstraintRows[0]);
        offsets = rowOffsets.stream().mapToInt(Integer::intValue).toArray();
        if (row != model.constraintRowCount()) {
            throw new IllegalStateException("model '" + model.name() + "' declares " + model.constraintRowCount()
                    + " constraint rows, its constraints have " + row);
        }
        this.rows = row;
    }

    /** The row provider of a model constraint, bound to {@code kinematics}. */
    private static ConstraintRows boundRows(Model model, ConstraintModel c, GenericDynamics kinematics) {
        try {
            ConstraintRows rows = ConstraintRows.of(model, c);
            rows.bind(kinematics);
            return rows;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("constraint '" + c.name() + "' of model '" + model.name() + "': "
                    + e.getMessage(), e);
        }
    }

    @Override
    public int constraintRows() {
        return rows;
    }

    @Override
    public void positionError(double[] q, double[] phi) {
        checkRowArguments(q, null, phi, "phi");
        for (int k = 0; k < providers.length; k++) {
            providers[k].positionError(q, phi, offsets[k]);
        }
    }

    @Override
    public void velocityError(double[] q, double[] v, double[] phidot) {
        checkRowArguments(q, v, phidot, "phidot");
        for (int k = 0; k < providers.length; k++) {
            providers[k].velocityError(q, v, phidot, offsets[k]);
        }
    }

    @Override
    public void constraintJacobian(double[] q, DMatrixRMaj g) {
        Arguments.checkLength(q, nq, "q");
        Arguments.checkShape(g, rows, nv, "G");
        Arguments.checkDistinct(g, "G", q, "q");
        g.zero();
        for (int k = 0; k < providers.length; k++) {
            providers[k].jacobian(q, g, offsets[k]);
        }
    }

    @Override
    public void gamma(double[] q, double[] v, double[] gamma) {
        checkRowArguments(q, v, gamma, "gamma");
        for (int k = 0; k < providers.length; k++) {
            providers[k].gamma(q, v, gamma, offsets[k]);
        }
    }

    /** Refuses a state or a row output (one entry per row) of the wrong length, or an output aliasing an input. */
    private void checkRowArguments(double[] q, double[] v, double[] out, String name) {
        Arguments.checkLength(q, nq, "q");
        if (v != null) {
            Arguments.checkLength(v, nv, "v");
        }
        Arguments.checkLength(out, rows, name);
        Arguments.checkDistinct(out, name, q, "q");
        if (v != null) {
            Arguments.checkDistinct(out, name, v, "v");
        }
    }

    // ---------------------------------------------------------------- metadata

    /** The model's own description, shared with the kinematics these functions are evaluated on. */
    @Override
    public ModelInfo modelInfo() {
        return kin.modelInfo();
    }

    @Override
    public int nv() {
        return nv;
    }

    @Override
    public List<String> constraintNames() {
        return names;
    }

    @Override
    public ConstraintType constraintType(int k) {
        return constraints.get(k).type();
    }

    @Override
    public int constraintRowCount(int k) {
        return constraints.get(k).rowCount();
    }

    @Override
    public double baumgarteTimeConstant(int k) {
        return constraints.get(k).baumgarteTimeConstant();
    }
}
