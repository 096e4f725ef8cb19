package org.symdyn.constraints;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.ConstraintType;
import org.symdyn.contract.Kinematics;
import org.symdyn.model.LineOnLineConstraintModel;

/**
 * Line-on-line contact (Simbody's LineOnLineContact) as {@link ConstraintRows}: an adapter over
 * {@link LineOnLineContact}, which states the geometry, rows and signs. Rows [normal] or, when rolling is
 * enforced, [normal, slip along d_f, slip along n × d_f]:
 * <pre>
 *   φ = [r, 0, 0],   φ̇ = G v,   G = Cᵀ (J_B(C_o) - J_F(C_o)),   γ = -Ġ v
 * </pre>
 * with r the signed separation along the normal n (out of edge F, into edge B; m), C = [d_f, n × d_f, n] the
 * contact frame and C_o its origin. The multipliers λ = [λ_n, λ_x, λ_y] (N) are the components of the force
 * f = λ_n n + λ_x d_f + λ_y (n × d_f) on B's material point at C_o, -f on F's.
 *
 * <p>Two uses: {@link ConstraintSet#addRows} adds a line-on-line contact in code (type
 * {@link ConstraintType#LINE_ON_LINE}); and a {@link ConstraintSet} built with {@link ConstraintSet#of} uses
 * {@link #of} to resolve the multipliers of a model's line-on-line constraint into body forces (its rows are
 * evaluated by the model's constraint functions, which stack the same rows).
 *
 * <p><b>Body forces</b> ({@link #bodyForces}): two entries, B then F, each at its body's origin with the body's
 * orientation (frame rotation identity, frame origin 0 in body coordinates; for the world, the world frame): the
 * spatial force [moment about the body origin; force] of {@link LineOnLineContact#forceOnB} and
 * {@link LineOnLineContact#forceOnF}, in body coordinates, or in world-aligned coordinates when {@code inWorld}.
 * So Σ_k J_kᵀ f_k = Gᵀ λ with J_k the body Jacobian [ω; v_origin] in the same coordinates.
 *
 * <p>Life cycle as {@link ConstraintRows}: bound once (the evaluator and its workspaces are created there), no
 * allocation afterwards, not thread-safe.
 */
public final class LineOnLineRows implements ConstraintRows {
    private final LineOnLineConstraintModel constraint;
    private Kinematics kin;
    private LineOnLineContact contact;
    private final double[] rotation = new double[9];
    private final double[] origin = new double[3];

    /** The rows of a line-on-line constraint (body indices of the model the rows will be bound to). */
    public LineOnLineRows(LineOnLineConstraintModel constraint) {
        this.constraint = java.util.Objects.requireNonNull(constraint, "constraint");
    }

    /** The rows of a model's line-on-line constraint. */
    public static LineOnLineRows of(LineOnLineConstraintModel constraint) {
        return new LineOnLineRows(constraint);
    }

    /** The constraint. */
    public LineOnLineConstraintModel constraint() {
        return constraint;
    }

    /** The evaluator (null before binding). */
    public LineOnLineContact contact() {
        return contact;
    }

    @Override
    public ConstraintType type() {
        return ConstraintType.LINE_ON_LINE;
    }

    @Override
    public int rowCount() {
        return constraint.rowCount();
    }

    /**
     * @throws IllegalArgumentException if a body index is out of range or an edge frame degenerate
     * @throws IllegalStateException    if already bound
     */
    @Override
    public void bind(Kinematics kinematics) {
        if (kin != null) {
            throw new IllegalStateException("line-on-line rows '" + constraint.name() + "' are already bound");
        }
        contact = new LineOnLineContact(constraint, kinematics);
        kin = kinematics;
    }

    @Override
    public void positionError(double[] q, double[] phi, int offset) {
        contact.positionError(q, phi, offset);
    }

    @Override
    public void velocityError(double[] q, double[] v, double[] phidot, int offset) {
        contact.velocityError(q, v, phidot, offset);
    }

    @Override
    public void jacobian(double[] q, DMatrixRMaj g, int rowOffset) {
        contact.jacobian(q, g, rowOffset);
    }

    @Override
    public void gamma(double[] q, double[] v, double[] gamma, int offset) {
        contact.gamma(q, v, gamma, offset);
    }

    @Override
    public int maxBodyForces() {
        return 2;
    }

    /**
     * Entry 0: body B, entry 1: body F (either may be the world, -1), each at its body origin with the body's axes;
     * forces from {@link LineOnLineContact#forceOnB} and {@link LineOnLineContact#forceOnF} (see the class comment).
     */
    @Override
    public void bodyForces(double[] q, double[] multipliers, int offset, boolean inWorld, ConstraintForces out) {
        LineOnLineContact.Coordinates coords = inWorld ? LineOnLineContact.Coordinates.WORLD
                : LineOnLineContact.Coordinates.BODY;
        out.reset(inWorld);
        int eb = entry(q, constraint.bodyB(), out);
        contact.forceOnB(q, multipliers, offset, coords, out.force(eb));
        int ef = entry(q, constraint.bodyF(), out);
        contact.forceOnF(q, multipliers, offset, coords, out.force(ef));
    }

    private int entry(double[] q, int body, ConstraintForces out) {
        int e = out.add(body);
        FrameMath.setIdentity(out.frameRotation(e));
        double[] o = out.frameOrigin(e);
        o[0] = o[1] = o[2] = 0;
        double[] w = out.originInWorld(e);
        if (body < 0) {
            w[0] = w[1] = w[2] = 0;
        } else {
            kin.bodyPose(q, body, rotation, origin);
            System.arraycopy(origin, 0, w, 0, 3);
        }
        return e;
    }

    @Override
    public String toString() {
        return "LineOnLineRows{" + constraint.name() + ", " + rowCount() + " rows}";
    }
}
