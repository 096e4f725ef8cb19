package org.symdyn.constraints;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Kinematics;
import org.symdyn.model.LineOnLineConstraintModel;

/**
 * Contact between two edges, with the semantics of Simbody's {@code Constraint::LineOnLineContact}, evaluated
 * numerically through any {@link Kinematics} (the generic runtime or a generated class).
 *
 * <h2>Geometry (all vectors in world coordinates)</h2>
 * Edge F is fixed in body F, edge B in body B (either may be the world, body index -1). Each edge frame E, given
 * in its body's frame, has its origin at the edge centre P, its x axis along the edge (direction d) and its z axis
 * pointing out of its solid (direction s); the half length is kept for the caller (it does not enter the rows,
 * which work on the infinite lines, as in Simbody). So, with R, o the pose of a body:
 * <pre>
 *   d_f = R_F x_Ef,  s_f = R_F z_Ef,  P_f = o_F + R_F p_Ef      (and likewise d_b, s_b, P_b on B)
 *   p   = P_b - P_f
 *   w'  = d_f × d_b,   σ = sign chosen below,   w = σ w',   sinθ = |w|
 *   n   = w / |w|                                                (the contact normal, C_z)
 *   r   = p · n                                                  (signed separation = position error)
 * </pre>
 * <b>Normal sign</b> (Simbody's rule): the normal points out of F and into B, so that translating B along +n
 * increases the separation. With w's = w'·s_f and w'b = w'·s_b, whichever of s_f and s_b gives the clearer signal
 * decides: if |w's| &gt; |w'b| then σ = +1 when w's ≥ 0, else -1; otherwise σ = -1 when w'b ≥ 0, else +1.
 * Hence r &gt; 0 means separation, r &lt; 0 penetration, ṙ &lt; 0 approach.
 *
 * <p><b>Closest points</b> Q_f = P_f + t_f d_f and Q_b = P_b + t_b d_b solve P_f + t_f d_f + r n = P_b + t_b d_b
 * (the seed's equations (1)-(7)); dotting with d_f and d_b gives, with c = d_f·d_b, a = p·d_f, b = p·d_b and
 * |w|² = 1 - c²:
 * <pre>
 *   t_f = (a - c b) / |w|²,    t_b = (c a - b) / |w|²
 * </pre>
 * The <b>contact frame</b> C has origin C_o = (Q_f + Q_b)/2 and axes C_x = d_f, C_y = n × d_f, C_z = n.
 *
 * <p><b>Parallel lines</b> (sinθ &lt; {@link #PARALLEL_TOLERANCE}): the closest points are not unique; as the seed
 * specifies, each returned point lies midway between its line's centre point and the projection of the other
 * line's centre point on that line: t_f = (p·d_f)/2, t_b = -(p·d_b)/2. The normal, which w no longer defines, is
 * the direction of the perpendicular offset u = p - (p·d_f) d_f from line F to line B, signed by the same rule as
 * above (with u in place of w'), so that r = p·n = ±|u| is the distance between the lines; when the lines also
 * coincide (|u| ≤ 1e-12 (1 + |p|)) it is s_f. Every quantity stays finite. The constraint is singular there (a
 * parallel pair is a kink of r(q)); the rows below are evaluated with this frame, and γ is exact for motions that
 * keep the lines parallel.
 *
 * <h2>Rows</h2>
 * Rows are ordered [normal, tangent x, tangent y]: row 0 is holonomic, rows 1-2 (only when rolling is enforced)
 * are non-holonomic. With v_X(C_o) = v_oX + ω_X × (C_o - o_X) the velocity of the material point of body X at
 * C_o (world), and Δv = v_B(C_o) - v_F(C_o) the velocity of B's point relative to F's coincident point:
 * <pre>
 *   φ   = [ r, 0, 0 ]                     (non-holonomic rows have no position error)
 *   φ̇  = G v = [ n·Δv, d_f·Δv, (n×d_f)·Δv ]     (n·Δv = ṙ exactly: Q_b - Q_f ∥ n)
 *   G   = [ nᵀ; d_fᵀ; (n×d_f)ᵀ ] (J_B(C_o) - J_F(C_o))   with J_X(C_o) the point Jacobian of X's point at C_o
 *   γ   = -Ġ v,   (Ġ v)_i = Ċ_i · Δv + C_i · (T_B - T_F),   T_X = a_oX + α_X × (C_o - o_X) + ω_X × (Ċ_o - v_oX)
 * </pre>
 * where a_oX and α_X are the bias accelerations (v̇ = 0) of X's origin and its angular acceleration, and
 * Ċ_x = ω_F × d_f, Ċ_z = ṅ, Ċ_y = ṅ × d_f + n × ḋ_f with
 * <pre>
 *   ḋ_f = ω_F × d_f,  ḋ_b = ω_B × d_b,  ṗ = v_B(P_b) - v_F(P_f),  ẇ = σ (ḋ_f × d_b + d_f × ḋ_b)
 *   ṅ = (ẇ - (n·ẇ) n) / |w|,   ċ = ḋ_f·d_b + d_f·ḋ_b,  ȧ = ṗ·d_f + p·ḋ_f,  ḃ = ṗ·d_b + p·ḋ_b,  (|w|²)˙ = 2 w·ẇ
 *   ṫ_f = (ȧ - ċ b - c ḃ - t_f (|w|²)˙) / |w|²,   ṫ_b = (ċ a + c ȧ - ḃ - t_b (|w|²)˙) / |w|²
 *   Q̇_f = v_F(P_f) + ṫ_f d_f + t_f ḋ_f,  Q̇_b = v_B(P_b) + ṫ_b d_b + t_b ḋ_b,  Ċ_o = (Q̇_f + Q̇_b)/2
 * </pre>
 * (the parallel branch differentiates its own t's and normal the same way). σ is piecewise constant and does not
 * enter the derivatives.
 *
 * <h2>Multipliers and forces</h2>
 * With the project's convention H v̇ + C = τ + Gᵀ λ, the multipliers λ = [λ_n, λ_x, λ_y] are the components in C of
 * the force f = λ_n n + λ_x d_f + λ_y (n × d_f) applied to B's material point at C_o, and -f to F's (Simbody's
 * multipliers have the opposite sign: its λ is minus this force). λ_n &gt; 0 pushes B away from F (compression).
 * {@link #forceOnB} gives it as a spatial force [moment about B's origin; force] at B's origin in world or B body
 * coordinates, {@link #forceOnF} the reaction on F; their generalised force J_Bᵀ f_B + J_Fᵀ f_F equals Gᵀ λ.
 *
 * <p>Every method evaluates from q (and v) afresh; nothing allocates after construction. An instance owns its
 * workspaces and those of the calls it makes on its {@link Kinematics}: it is not thread-safe (use one instance,
 * and one kinematics instance, per thread).
 */
public final class LineOnLineContact {
    /** sinθ = |d_f × d_b| below which the lines are treated as parallel. */
    public static final double PARALLEL_TOLERANCE = 1e-10;

    /** Relative tolerance (on 1 + |p|) below which parallel lines are treated as coincident. */
    private static final double COINCIDENT_TOLERANCE = 1e-12;

    private static final int CROSSING = 0;
    private static final int PARALLEL = 1;
    private static final int COINCIDENT = 2;

    /** The coordinates of a spatial force at a body origin. */
    public enum Coordinates {
        /** World-aligned axes: [moment about the body origin; force], both in world coordinates. */
        WORLD,
        /** The body's own axes: [moment about the body origin; force], both in body coordinates. */
        BODY
    }

    private final LineOnLineConstraintModel model;
    private final Kinematics kin;
    private final int rows;
    private final int nv;
    private final boolean rolling;
    private final double[] zeroV;
    private final DMatrixRMaj jacF;
    private final DMatrixRMaj jacB;
    private final double[] tmp = new double[3];
    private final double[] forceWorld = new double[3];

    private final LineOnLineEdge f;
    private final LineOnLineEdge b;

    // Position level.
    private int mode;
    private double sense;
    private double sinTheta;
    private double cosTheta;
    private double pDotDf;
    private double pDotDb;
    private double tf;
    private double tb;
    private double uNorm;
    private double separation;
    private final double[] p = new double[3];
    private final double[] w = new double[3];
    private final double[] n = new double[3];
    private final double[] cy = new double[3];
    private final double[] qf = new double[3];
    private final double[] qb = new double[3];
    private final double[] co = new double[3];

    // Velocity level.
    private final double[] dv = new double[3];
    private final double[] pDot = new double[3];
    private final double[] wDot = new double[3];
    private final double[] nDot = new double[3];
    private final double[] cyDot = new double[3];
    private final double[] qfDot = new double[3];
    private final double[] qbDot = new double[3];
    private final double[] coDot = new double[3];
    private final double[] bias = new double[3];

    /**
     * @param model      the constraint (body indices refer to {@code kinematics}' bodies, -1 for the world)
     * @param kinematics the kinematics of the model; this instance calls it, so it must not be shared across
     *                   threads either
     * @throws IllegalArgumentException if a body index is out of range or an edge frame is degenerate
     */
    public LineOnLineContact(LineOnLineConstraintModel model, Kinematics kinematics) {
        this.model = model;
        this.kin = kinematics;
        int nb = kinematics.bodyCount();
        checkBody(model.bodyF(), nb, "F");
        checkBody(model.bodyB(), nb, "B");
        this.rolling = model.rolling();
        this.rows = rolling ? 3 : 1;
        this.nv = kinematics.nv();
        this.zeroV = new double[nv];
        this.jacF = new DMatrixRMaj(3, nv);
        this.jacB = new DMatrixRMaj(3, nv);
        this.f = new LineOnLineEdge(model.bodyF(), model.edgeF(), "F of '" + model.name() + "'");
        this.b = new LineOnLineEdge(model.bodyB(), model.edgeB(), "B of '" + model.name() + "'");
    }

    private void checkBody(int body, int nb, String which) {
        if (body < -1 || body >= nb) {
            throw new IllegalArgumentException(model.location() + " line_on_line constraint '" + model.name()
                    + "': body " + which + " index " + body + " is out of range (-1.." + (nb - 1) + ")");
        }
    }

    /** The constraint this instance evaluates. */
    public LineOnLineConstraintModel model() {
        return model;
    }

    /** 3 when rolling (no slip) is enforced, else 1. */
    public int rowCount() {
        return rows;
    }

    /** Whether the two tangential (no-slip) rows are generated. */
    public boolean isRolling() {
        return rolling;
    }

    // ---------------------------------------------------------------- geometry queries

    /**
     * The closest points Q_f (on line F) and Q_b (on line B) in world coordinates; for parallel lines the
     * midpoints described in the class comment.
     *
     * @return true if the lines are parallel (sinθ &lt; {@link #PARALLEL_TOLERANCE})
     */
    public boolean closestPoints(double[] q, double[] pointF, double[] pointB) {
        evalPosition(q);
        copy(qf, pointF);
        copy(qb, pointB);
        return mode != CROSSING;
    }

    /** True if the lines are parallel at q (sinθ &lt; {@link #PARALLEL_TOLERANCE}). */
    public boolean isParallel(double[] q) {
        evalPosition(q);
        return mode != CROSSING;
    }

    /**
     * The contact frame C: rotation world &lt;- C (row-major, columns C_x = d_f, C_y = n × d_f, C_z = n) and its
     * origin C_o = (Q_f + Q_b)/2, in world coordinates.
     */
    public void contactFrame(double[] q, double[] rotation, double[] origin) {
        evalPosition(q);
        for (int i = 0; i < 3; i++) {
            rotation[3 * i] = f.d[i];
            rotation[3 * i + 1] = cy[i];
            rotation[3 * i + 2] = n[i];
        }
        copy(co, origin);
    }

    /** The signed separation r = (P_b - P_f) · n: positive apart, negative interpenetrating (m). */
    public double separation(double[] q) {
        evalPosition(q);
        return separation;
    }

    // ---------------------------------------------------------------- constraint rows

    /** out[offset] = r; out[offset + 1], out[offset + 2] = 0 when rolling (non-holonomic rows). */
    public void positionError(double[] q, double[] out, int offset) {
        evalPosition(q);
        out[offset] = separation;
        if (rolling) {
            out[offset + 1] = 0;
            out[offset + 2] = 0;
        }
    }

    /**
     * The velocity errors G v: [n·Δv] or [n·Δv, d_f·Δv, (n×d_f)·Δv] with Δv the velocity of B's material point at
     * C_o relative to F's (the first is ṙ, the others the slip velocities).
     */
    public void velocityError(double[] q, double[] v, double[] out, int offset) {
        evalPosition(q);
        evalVelocity(q, v);
        out[offset] = dot(n, dv);
        if (rolling) {
            out[offset + 1] = dot(f.d, dv);
            out[offset + 2] = dot(cy, dv);
        }
    }

    /**
     * Writes this constraint's {@link #rowCount()} rows of G (all nv columns) into {@code g} from row
     * {@code rowOffset}: row i = C_iᵀ (J_B(C_o) - J_F(C_o)).
     */
    public void jacobian(double[] q, DMatrixRMaj g, int rowOffset) {
        if (g.numCols != nv || rowOffset < 0 || rowOffset + rows > g.numRows) {
            throw new IllegalArgumentException("G must have " + nv + " columns and room for " + rows
                    + " rows from row " + rowOffset + ", got " + g.numRows + "x" + g.numCols);
        }
        evalPosition(q);
        pointJacobian(q, f, jacF);
        pointJacobian(q, b, jacB);
        jacobianRow(g, rowOffset, n);
        if (rolling) {
            jacobianRow(g, rowOffset + 1, f.d);
            jacobianRow(g, rowOffset + 2, cy);
        }
    }

    private void jacobianRow(DMatrixRMaj g, int row, double[] c) {
        double[] jb = jacB.data;
        double[] jf = jacF.data;
        int o = row * nv;
        for (int col = 0; col < nv; col++) {
            g.data[o + col] = c[0] * (jb[col] - jf[col]) + c[1] * (jb[nv + col] - jf[nv + col])
                    + c[2] * (jb[2 * nv + col] - jf[2 * nv + col]);
        }
    }

    private void pointJacobian(double[] q, LineOnLineEdge side, DMatrixRMaj out) {
        if (side.body < 0) {
            out.zero();
            return;
        }
        side.toBody(co, side.contactLocal);
        kin.pointJacobian(q, side.body, side.contactLocal, out);
    }

    /** γ = -Ġ v for this constraint's rows, written from {@code out[offset]}. */
    public void gamma(double[] q, double[] v, double[] out, int offset) {
        evalPosition(q);
        evalVelocity(q, v);
        evalRates();
        f.bias(kin, q, v, zeroV, co, coDot);
        b.bias(kin, q, v, zeroV, co, coDot);
        // T_B - T_F
        for (int i = 0; i < 3; i++) {
            bias[i] = b.acceleration[i] - f.acceleration[i];
        }
        out[offset] = -(dot(nDot, dv) + dot(n, bias));
        if (rolling) {
            out[offset + 1] = -(dot(f.dDot, dv) + dot(f.d, bias));
            out[offset + 2] = -(dot(cyDot, dv) + dot(cy, bias));
        }
    }

    // ---------------------------------------------------------------- forces

    /**
     * The constraint force on B's material point at C_o, f = λ_n n [+ λ_x d_f + λ_y (n × d_f)], in world
     * coordinates (N). {@code lambda} holds {@link #rowCount()} multipliers from {@code lambdaOffset}.
     */
    public void contactForce(double[] q, double[] lambda, int lambdaOffset, double[] out) {
        evalPosition(q);
        force(lambda, lambdaOffset, out);
    }

    /**
     * The constraint force on B as a spatial force [moment about B's origin; force] at B's origin, in world or B
     * coordinates (for B the world: about the world origin, in world coordinates either way).
     */
    public void forceOnB(double[] q, double[] lambda, int lambdaOffset, Coordinates coordinates, double[] out) {
        evalPosition(q);
        force(lambda, lambdaOffset, forceWorld);
        spatialForce(b, forceWorld, 1, coordinates, out);
    }

    /** The reaction on F, equal and opposite to {@link #forceOnB}'s force at the same point C_o, at F's origin. */
    public void forceOnF(double[] q, double[] lambda, int lambdaOffset, Coordinates coordinates, double[] out) {
        evalPosition(q);
        force(lambda, lambdaOffset, forceWorld);
        spatialForce(f, forceWorld, -1, coordinates, out);
    }

    private void force(double[] lambda, int off, double[] out) {
        double ln = lambda[off];
        double lx = rolling ? lambda[off + 1] : 0;
        double ly = rolling ? lambda[off + 2] : 0;
        for (int i = 0; i < 3; i++) {
            out[i] = ln * n[i] + lx * f.d[i] + ly * cy[i];
        }
    }

    private void spatialForce(LineOnLineEdge side, double[] fc, double sign, Coordinates coordinates, double[] out) {
        for (int i = 0; i < 3; i++) {
            tmp[i] = co[i] - side.origin[i];
        }
        double f0 = sign * fc[0], f1 = sign * fc[1], f2 = sign * fc[2];
        double m0 = tmp[1] * f2 - tmp[2] * f1;
        double m1 = tmp[2] * f0 - tmp[0] * f2;
        double m2 = tmp[0] * f1 - tmp[1] * f0;
        if (coordinates == Coordinates.BODY) {
            double[] r = side.rotation;
            out[0] = r[0] * m0 + r[3] * m1 + r[6] * m2;
            out[1] = r[1] * m0 + r[4] * m1 + r[7] * m2;
            out[2] = r[2] * m0 + r[5] * m1 + r[8] * m2;
            out[3] = r[0] * f0 + r[3] * f1 + r[6] * f2;
            out[4] = r[1] * f0 + r[4] * f1 + r[7] * f2;
            out[5] = r[2] * f0 + r[5] * f1 + r[8] * f2;
        } else {
            out[0] = m0;
            out[1] = m1;
            out[2] = m2;
            out[3] = f0;
            out[4] = f1;
            out[5] = f2;
        }
    }

    // ---------------------------------------------------------------- evaluation

    private void evalPosition(double[] q) {
        f.pose(kin, q);
        b.pose(kin, q);
        double[] df = f.d;
        double[] db = b.d;
        for (int i = 0; i < 3; i++) {
            p[i] = b.centre[i] - f.centre[i];
        }
        cross(df, db, w);
        double wsf = dot(w, f.s);
        double wsb = dot(w, b.s);
        sense = senseOf(wsf, wsb);
        scale(w, sense, w);
        sinTheta = norm(w);
        cosTheta = dot(df, db);
        pDotDf = dot(p, df);
        pDotDb = dot(p, db);
        if (sinTheta >= PARALLEL_TOLERANCE) {
            mode = CROSSING;
            scale(w, 1 / sinTheta, n);
            double s2 = sinTheta * sinTheta;
            tf = (pDotDf - cosTheta * pDotDb) / s2;
            tb = (cosTheta * pDotDf - pDotDb) / s2;
        } else {
            // Parallel: midway points; the normal along the offset u = p - (p·d_f) d_f (kept in w).
            for (int i = 0; i < 3; i++) {
                w[i] = p[i] - pDotDf * df[i];
            }
            uNorm = norm(w);
            if (uNorm > COINCIDENT_TOLERANCE * (1 + norm(p))) {
                mode = PARALLEL;
                sense = senseOf(dot(w, f.s), dot(w, b.s));
                scale(w, sense, w);
                scale(w, 1 / uNorm, n);
            } else {
                mode = COINCIDENT;
                sense = 1;
                copy(f.s, n);
            }
            tf = 0.5 * pDotDf;
            tb = -0.5 * pDotDb;
        }
        for (int i = 0; i < 3; i++) {
            qf[i] = f.centre[i] + tf * df[i];
            qb[i] = b.centre[i] + tb * db[i];
            co[i] = 0.5 * (qf[i] + qb[i]);
        }
        cross(n, df, cy);
        separation = dot(p, n);
    }

    /** Simbody's rule: +1 if the normal candidate points out of F (or, when B's signal is clearer, into B). */
    private static double senseOf(double alongSf, double alongSb) {
        if (Math.abs(alongSf) > Math.abs(alongSb)) {
            return alongSf >= 0 ? 1 : -1;
        }
        return alongSb >= 0 ? -1 : 1;
    }

    /** Body velocities, ḋ, velocities of the edge centres and of the material points at C_o; Δv. */
    private void evalVelocity(double[] q, double[] v) {
        f.velocity(kin, q, v, co);
        b.velocity(kin, q, v, co);
        for (int i = 0; i < 3; i++) {
            dv[i] = b.contactVelocity[i] - f.contactVelocity[i];
            pDot[i] = b.centreVelocity[i] - f.centreVelocity[i];
        }
    }

    /** ṅ, Ċ_y and Ċ_o (after evalPosition and evalVelocity). */
    private void evalRates() {
        double[] df = f.d;
        double[] db = b.d;
        double[] ddf = f.dDot;
        double[] ddb = b.dDot;
        double tfDot;
        double tbDot;
        double aDot = dot(pDot, df) + dot(p, ddf);
        double bDot = dot(pDot, db) + dot(p, ddb);
        if (mode == CROSSING) {
            // ẇ = σ (ḋ_f × d_b + d_f × ḋ_b)
            cross(ddf, db, wDot);
            cross(df, ddb, tmp);
            for (int i = 0; i < 3; i++) {
                wDot[i] = sense * (wDot[i] + tmp[i]);
            }
            unitRate(wDot, sinTheta);
            double s2 = sinTheta * sinTheta;
            double cDot = dot(ddf, db) + dot(df, ddb);
            double s2Dot = 2 * dot(w, wDot);
            tfDot = (aDot - cDot * pDotDb - cosTheta * bDot - tf * s2Dot) / s2;
            tbDot = (cDot * pDotDf + cosTheta * aDot - bDot - tb * s2Dot) / s2;
        } else {
            if (mode == PARALLEL) {
                // (σ u)˙ = σ (ṗ - (ṗ·d_f + p·ḋ_f) d_f - (p·d_f) ḋ_f)
                for (int i = 0; i < 3; i++) {
                    wDot[i] = sense * (pDot[i] - aDot * df[i] - pDotDf * ddf[i]);
                }
                unitRate(wDot, uNorm);
            } else {
                cross(f.omega, f.s, nDot);
            }
            tfDot = 0.5 * aDot;
            tbDot = -0.5 * bDot;
        }
        for (int i = 0; i < 3; i++) {
            qfDot[i] = f.centreVelocity[i] + tfDot * df[i] + tf * ddf[i];
            qbDot[i] = b.centreVelocity[i] + tbDot * db[i] + tb * ddb[i];
            coDot[i] = 0.5 * (qfDot[i] + qbDot[i]);
        }
        // Ċ_y = ṅ × d_f + n × ḋ_f
        cross(nDot, df, cyDot);
        cross(n, ddf, tmp);
        for (int i = 0; i < 3; i++) {
            cyDot[i] += tmp[i];
        }
    }

    /** ṅ = (ẋ - (n·ẋ) n) / |x| for n = x / |x|. */
    private void unitRate(double[] xDot, double length) {
        double along = dot(n, xDot);
        for (int i = 0; i < 3; i++) {
            nDot[i] = (xDot[i] - along * n[i]) / length;
        }
    }

    // ---------------------------------------------------------------- small vector helpers

    static void rotate(double[] r, double[] x, double[] out) {
        double x0 = x[0], x1 = x[1], x2 = x[2];
        for (int i = 0; i < 3; i++) {
            out[i] = r[3 * i] * x0 + r[3 * i + 1] * x1 + r[3 * i + 2] * x2;
        }
    }

    static void cross(double[] a, double[] b, double[] out) {
        double a0 = a[0], a1 = a[1], a2 = a[2], b0 = b[0], b1 = b[1], b2 = b[2];
        out[0] = a1 * b2 - a2 * b1;
        out[1] = a2 * b0 - a0 * b2;
        out[2] = a0 * b1 - a1 * b0;
    }

    static double dot(double[] a, double[] b) {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }

    private static double norm(double[] a) {
        return Math.sqrt(dot(a, a));
    }

    private static void scale(double[] a, double s, double[] out) {
        out[0] = a[0] * s;
        out[1] = a[1] * s;
        out[2] = a[2] * s;
    }

    private static void copy(double[] from, double[] to) {
        to[0] = from[0];
        to[1] = from[1];
        to[2] = from[2];
    }
}
