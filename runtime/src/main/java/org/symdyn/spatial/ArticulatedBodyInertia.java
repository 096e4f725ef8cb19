package org.symdyn.spatial;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;

/**
 * A mutable articulated-body inertia (ABI) P: the apparent spatial inertia of a body that is the free base of a
 * subtree in a given configuration, so that a spatial force f applied to it and its spatial acceleration a are
 * related by f = P a + p (p a velocity-dependent bias force; Featherstone, <i>Rigid Body Dynamics Algorithms</i>,
 * §7.1). It is a symmetric 6x6 matrix acting on motion vectors [ω; v] (angular first) and producing force vectors
 * [n; f]:
 *
 * <pre>
 *     P = [ J   F ]      J  symmetric 3x3 inertia (second mass moment), kg m²
 *         [ Fᵀ  M ]      F  full 3x3 first mass moment,                 kg m
 *                        M  symmetric 3x3 mass distribution,            kg
 * </pre>
 *
 * Unlike a rigid-body inertia (10 independent numbers, {@link RigidBodyInertia}) all 21 elements of the lower
 * triangle are significant: the apparent mass M depends on the direction of the push, and in general there is no
 * centre of mass. Every rigid-body inertia is an ABI ({@link #of(RigidBodyInertia)}).
 *
 * <p>All quantities are about the origin of one frame and expressed in that frame's coordinates; sums and
 * differences are only meaningful between ABIs about the same point in the same frame.
 *
 * <p><b>Storage.</b> Exactly the 21 significant numbers, in one {@code double[21]}:
 * <pre>
 *   [0..5]   M upper triangle  M00 M01 M02 M11 M12 M22
 *   [6..14]  F row-major       F00 F01 F02 F10 F11 F12 F20 F21 F22
 *   [15..20] J upper triangle  J00 J01 J02 J11 J12 J22
 * </pre>
 *
 * <p><b>Allocation.</b> The methods named {@code ...InPlace}, the static {@code add/subtract(a, b, out)},
 * {@link #set}, {@link #setZero}, {@link #setFrom(RigidBodyInertia)}, {@link #multiply}, {@link #toMatrix} and
 * {@link #addTransformTranspose} allocate nothing and may be used on hot paths. The methods returning a new
 * instance ({@link #plus}, {@link #minus}, {@link #shift}, {@link #reexpress}, {@link #transformTranspose}, ...)
 * allocate it. An instance owns a small scratch array, so one instance must not be used from several threads at
 * once (give each thread its own instances).
 *
 * <p>{@link #equals} and {@link #hashCode} compare the 21 stored numbers exactly; as the object is mutable, do not
 * change an instance while it is a key of a hash map.
 */
public final class ArticulatedBodyInertia {
    /** Relative tolerance used when a full matrix is checked for symmetry, unless another is given. */
    public static final double DEFAULT_SYMMETRY_TOLERANCE = 1e-9;

    private static final int F = 6;
    /** Storage index of element (i, j) (index 3 i + j) of the M, F and J blocks. */
    private static final int[] M_INDEX = {0, 1, 2, 1, 3, 4, 2, 4, 5};
    private static final int[] F_INDEX = {6, 7, 8, 9, 10, 11, 12, 13, 14};
    private static final int[] J_INDEX = {15, 16, 17, 16, 18, 19, 17, 19, 20};

    private final double[] a = new double[21];
    /** Scratch for the rotations: 21 rotated elements and a 3x3 intermediate. Not part of the value. */
    private final double[] scratch = new double[30];

    /** The zero ABI. */
    public ArticulatedBodyInertia() {
    }

    /** A new zero ABI (the identity of {@link #plus}). */
    public static ArticulatedBodyInertia zero() {
        return new ArticulatedBodyInertia();
    }

    /**
     * The ABI with the given blocks, each a row-major 3x3 array: {@code mass} = M (symmetric), {@code massMoment} =
     * F (full), {@code inertia} = J (symmetric). M and J are checked for symmetry: an element pair differing by more
     * than {@link #DEFAULT_SYMMETRY_TOLERANCE} times the largest absolute element of that block is an
     * {@link IllegalArgumentException}; smaller (rounding) differences are removed by storing the mean of the pair.
     */
    public static ArticulatedBodyInertia of(double[] mass, double[] massMoment, double[] inertia) {
        return new ArticulatedBodyInertia().setMass(mass).setMassMoment(massMoment).setInertia(inertia);
    }

    /**
     * The ABI of a single rigid body, equal as a 6x6 matrix to {@link RigidBodyInertia#toMatrix}: with h = m c,
     * J = Ī (the rotational inertia about the frame origin), F = [h]× and M = m 1.
     */
    public static ArticulatedBodyInertia of(RigidBodyInertia rbi) {
        return new ArticulatedBodyInertia().setFrom(rbi);
    }

    /**
     * The ABI of a full symmetric 6x6 matrix [J F; Fᵀ M], checked for symmetry with
     * {@link #DEFAULT_SYMMETRY_TOLERANCE}; see {@link #fromMatrix(DMatrixRMaj, double)}.
     */
    public static ArticulatedBodyInertia fromMatrix(DMatrixRMaj matrix) {
        return fromMatrix(matrix, DEFAULT_SYMMETRY_TOLERANCE);
    }

    /**
     * The ABI of a full 6x6 matrix [J F; Fᵀ M]. The matrix must be 6x6 and symmetric: |P(i,j) - P(j,i)| must not
     * exceed {@code relativeTolerance} times the largest absolute element, otherwise an
     * {@link IllegalArgumentException} is thrown. Each stored element is the mean of P(i,j) and P(j,i), so the
     * result is the symmetric part of the matrix.
     */
    public static ArticulatedBodyInertia fromMatrix(DMatrixRMaj matrix, double relativeTolerance) {
        if (matrix.numRows != 6 || matrix.numCols != 6) {
            throw new IllegalArgumentException(
                    "an articulated-body inertia needs a 6x6 matrix, got " + matrix.numRows + "x" + matrix.numCols);
        }
        double max = 0;
        for (int i = 0; i < 36; i++) {
            max = Math.max(max, Math.abs(matrix.data[i]));
        }
        double limit = relativeTolerance * max;
        for (int i = 0; i < 6; i++) {
            for (int j = i + 1; j < 6; j++) {
                double d = Math.abs(matrix.get(i, j) - matrix.get(j, i));
                if (!(d <= limit)) {
                    throw new IllegalArgumentException("matrix is not symmetric: |P(" + i + "," + j + ") - P(" + j
                            + "," + i + ")| = " + d + " > " + limit);
                }
            }
        }
        ArticulatedBodyInertia p = new ArticulatedBodyInertia();
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                p.a[F_INDEX[3 * i + j]] = 0.5 * (matrix.get(i, j + 3) + matrix.get(j + 3, i));
                if (j >= i) {
                    p.a[J_INDEX[3 * i + j]] = 0.5 * (matrix.get(i, j) + matrix.get(j, i));
                    p.a[M_INDEX[3 * i + j]] = 0.5 * (matrix.get(i + 3, j + 3) + matrix.get(j + 3, i + 3));
                }
            }
        }
        return p;
    }

    /** A new instance with the same value. */
    public ArticulatedBodyInertia copy() {
        return new ArticulatedBodyInertia().set(this);
    }

    // ---------------------------------------------------------------------------------------------- setters

    /** Copies {@code other} into this ABI. No allocation. */
    public ArticulatedBodyInertia set(ArticulatedBodyInertia other) {
        System.arraycopy(other.a, 0, a, 0, 21);
        return this;
    }

    /** Sets every element to zero. No allocation. */
    public ArticulatedBodyInertia setZero() {
        Arrays.fill(a, 0);
        return this;
    }

    /** Sets this ABI to the rigid-body inertia {@code rbi} (see {@link #of(RigidBodyInertia)}). No allocation. */
    public ArticulatedBodyInertia setFrom(RigidBodyInertia rbi) {
        double m = rbi.mass();
        double h0 = m * rbi.com(0), h1 = m * rbi.com(1), h2 = m * rbi.com(2);
        a[0] = m;
        a[1] = 0;
        a[2] = 0;
        a[3] = m;
        a[4] = 0;
        a[5] = m;
        // F = [h]x
        a[6] = 0;
        a[7] = -h2;
        a[8] = h1;
        a[9] = h2;
        a[10] = 0;
        a[11] = -h0;
        a[12] = -h1;
        a[13] = h0;
        a[14] = 0;
        for (int i = 0; i < 3; i++) {
            for (int j = i; j < 3; j++) {
                a[J_INDEX[3 * i + j]] = rbi.inertiaAboutOrigin(i, j);
            }
        }
        return this;
    }

    /** Sets the mass distribution M from a row-major symmetric 3x3 (checked and symmetrised as in {@link #of}). */
    public ArticulatedBodyInertia setMass(double[] mass) {
        setSymmetric(mass, M_INDEX, "mass distribution M");
        return this;
    }

    /** Sets the first mass moment F from a row-major 3x3 (full). */
    public ArticulatedBodyInertia setMassMoment(double[] massMoment) {
        if (massMoment.length != 9) {
            throw new IllegalArgumentException("the mass moment F needs 9 entries, got " + massMoment.length);
        }
        System.arraycopy(massMoment, 0, a, F, 9);
        return this;
    }

    /** Sets the inertia J from a row-major symmetric 3x3 (checked and symmetrised as in {@link #of}). */
    public ArticulatedBodyInertia setInertia(double[] inertia) {
        setSymmetric(inertia, J_INDEX, "inertia J");
        return this;
    }

    private void setSymmetric(double[] s, int[] index, String what) {
        if (s.length != 9) {
            throw new IllegalArgumentException("the " + what + " needs 9 entries, got " + s.length);
        }
        double max = 0;
        for (double v : s) {
            max = Math.max(max, Math.abs(v));
        }
        double limit = DEFAULT_SYMMETRY_TOLERANCE * max;
        for (int i = 0; i < 3; i++) {
            for (int j = i + 1; j < 3; j++) {
                double d = Math.abs(s[3 * i + j] - s[3 * j + i]);
                if (!(d <= limit)) {
                    throw new IllegalArgumentException("the " + what + " is not symmetric: |(" + i + "," + j
                            + ") - (" + j + "," + i + ")| = " + d + " > " + limit);
                }
            }
        }
        for (int i = 0; i < 3; i++) {
            for (int j = i; j < 3; j++) {
                a[index[3 * i + j]] = 0.5 * (s[3 * i + j] + s[3 * j + i]);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------- getters

    /** Element (i, j) of the mass distribution M (kg), i, j in 0..2. */
    public double mass(int i, int j) {
        return a[M_INDEX[3 * i + j]];
    }

    /** Element (i, j) of the first mass moment F (kg m), the upper-right block. */
    public double massMoment(int i, int j) {
        return a[F_INDEX[3 * i + j]];
    }

    /** Element (i, j) of the inertia J (kg m²). */
    public double inertia(int i, int j) {
        return a[J_INDEX[3 * i + j]];
    }

    /** Element (i, j) of the 6x6 matrix [J F; Fᵀ M], i, j in 0..5. */
    public double get(int i, int j) {
        if (i < 3) {
            return j < 3 ? inertia(i, j) : massMoment(i, j - 3);
        }
        return j < 3 ? massMoment(j, i - 3) : mass(i - 3, j - 3);
    }

    /** A row-major copy of M. */
    public double[] massArray() {
        return block(M_INDEX);
    }

    /** A row-major copy of F. */
    public double[] massMomentArray() {
        return block(F_INDEX);
    }

    /** A row-major copy of J. */
    public double[] inertiaArray() {
        return block(J_INDEX);
    }

    private double[] block(int[] index) {
        double[] out = new double[9];
        for (int k = 0; k < 9; k++) {
            out[k] = a[index[k]];
        }
        return out;
    }

    /** A copy of the 21 stored numbers in the layout described in the class documentation. */
    public double[] toArray() {
        return a.clone();
    }

    // ------------------------------------------------------------------------------------------- arithmetic

    /** A new ABI this + other (both about the same point in the same frame). */
    public ArticulatedBodyInertia plus(ArticulatedBodyInertia other) {
        return add(this, other, new ArticulatedBodyInertia());
    }

    /** A new ABI this - other (both about the same point in the same frame). */
    public ArticulatedBodyInertia minus(ArticulatedBodyInertia other) {
        return subtract(this, other, new ArticulatedBodyInertia());
    }

    /** this += other. No allocation. */
    public ArticulatedBodyInertia addInPlace(ArticulatedBodyInertia other) {
        return add(this, other, this);
    }

    /** this -= other. No allocation. */
    public ArticulatedBodyInertia subtractInPlace(ArticulatedBodyInertia other) {
        return subtract(this, other, this);
    }

    /** out = x + y; any of the three may be the same instance. No allocation. Returns out. */
    public static ArticulatedBodyInertia add(ArticulatedBodyInertia x, ArticulatedBodyInertia y,
            ArticulatedBodyInertia out) {
        double[] p = x.a, q = y.a, o = out.a;
        for (int k = 0; k < 21; k++) {
            o[k] = p[k] + q[k];
        }
        return out;
    }

    /** out = x - y; any of the three may be the same instance. No allocation. Returns out. */
    public static ArticulatedBodyInertia subtract(ArticulatedBodyInertia x, ArticulatedBodyInertia y,
            ArticulatedBodyInertia out) {
        double[] p = x.a, q = y.a, o = out.a;
        for (int k = 0; k < 21; k++) {
            o[k] = p[k] - q[k];
        }
        return out;
    }

    /**
     * force = P motion, i.e. [n; f] = [J ω + F v; Fᵀ ω + M v] for motion = [ω; v] (66 flops). Vectors are 6 numbers
     * at the given offsets; the output range must not overlap the input range. No allocation.
     */
    public void multiply(double[] motion, int mo, double[] force, int fo) {
        double w0 = motion[mo], w1 = motion[mo + 1], w2 = motion[mo + 2];
        double v0 = motion[mo + 3], v1 = motion[mo + 4], v2 = motion[mo + 5];
        double[] p = a;
        force[fo] = p[15] * w0 + p[16] * w1 + p[17] * w2 + p[6] * v0 + p[7] * v1 + p[8] * v2;
        force[fo + 1] = p[16] * w0 + p[18] * w1 + p[19] * w2 + p[9] * v0 + p[10] * v1 + p[11] * v2;
        force[fo + 2] = p[17] * w0 + p[19] * w1 + p[20] * w2 + p[12] * v0 + p[13] * v1 + p[14] * v2;
        force[fo + 3] = p[6] * w0 + p[9] * w1 + p[12] * w2 + p[0] * v0 + p[1] * v1 + p[2] * v2;
        force[fo + 4] = p[7] * w0 + p[10] * w1 + p[13] * w2 + p[1] * v0 + p[3] * v1 + p[4] * v2;
        force[fo + 5] = p[8] * w0 + p[11] * w1 + p[14] * w2 + p[2] * v0 + p[4] * v1 + p[5] * v2;
    }

    // ------------------------------------------------------------------------------- shift and re-expression

    /**
     * A new ABI: this one rigidly shifted by the offset {@code s} (3 numbers, metres, in this ABI's frame).
     *
     * <p>Let this ABI be about point B. The result is about the point A = B - s, i.e. s is the position of B
     * relative to A; the axes do not change. The equation (that of Simbody's {@code ArticulatedInertia::shift}) is
     * <pre>
     *   P' = [ 1  [s]× ] [ J   F ] [  1     0 ]   so   M' = M
     *        [ 0   1   ] [ Fᵀ  M ] [ -[s]×  1 ]        F' = F + [s]× M
     *                                                  J' = J + [s]× Fᵀ - F [s]× - [s]× M [s]×
     * </pre>
     * which is exactly Xᵀ P X for the {@link SpatialTransform} X with E = 1 and r = s (the motion transform from A
     * to B; B's origin at s in A). This is the step with which an articulated-body algorithm carries a child's ABI
     * to its parent's origin.
     *
     * <p>Mind the sign: this moves the reference point by <b>-s</b>, not +s (as Simbody's ABI shift, and opposite
     * to its {@code SpatialInertia::shift}). To move the reference point from the current origin
     * to the point at d (in this frame), call {@code shift(-d)}. For a rigid body,
     * {@code of(rbi).shift(s)} equals {@code of(rbi.expressedIn(Pose.translation(s)))}.
     */
    public ArticulatedBodyInertia shift(double[] s) {
        return copy().shiftInPlace(s);
    }

    /** {@link #shift(double[])} in place (72 flops). No allocation. Returns this. */
    public ArticulatedBodyInertia shiftInPlace(double[] s) {
        return shiftInPlace(s[0], s[1], s[2]);
    }

    /** {@link #shift(double[])} in place by s = (s0, s1, s2). No allocation. Returns this. */
    public ArticulatedBodyInertia shiftInPlace(double s0, double s1, double s2) {
        shift(a, s0, s1, s2, a, false);
        return this;
    }

    /**
     * A new ABI: this one re-expressed in rotated axes with the same origin,
     * <pre>
     *   P' = [ R  0 ] P [ R  0 ]ᵀ,   i.e. M' = R M Rᵀ, F' = R F Rᵀ, J' = R J Rᵀ,
     *        [ 0  R ]   [ 0  R ]
     * </pre>
     * where {@code rotation} (row-major 3x3, not checked for orthonormality) is R = {@code new <- current}: it maps
     * a vector's coordinates in the current frame to its coordinates in the new frame. In terms of
     * {@link SpatialTransform}: P' = X⁻ᵀ P X⁻¹ = X P Xᵀ for X with E = R and r = 0 (for a pure rotation
     * X⁻¹ = Xᵀ).
     */
    public ArticulatedBodyInertia reexpress(double[] rotation) {
        return copy().reexpressInPlace(rotation);
    }

    /** {@link #reexpress(double[])} in place. No allocation. Returns this. */
    public ArticulatedBodyInertia reexpressInPlace(double[] rotation) {
        if (rotation.length != 9) {
            throw new IllegalArgumentException("a rotation needs 9 entries, got " + rotation.length);
        }
        rotate(a, rotation, false, scratch);
        System.arraycopy(scratch, 0, a, 0, 21);
        return this;
    }

    /**
     * A new ABI Xᵀ P X: this ABI, given in frame B about B's origin, expressed in frame A about A's origin, where X
     * is the motion transform from A to B (E = {@code B <- A}, r = origin of B in A coordinates). Equivalently
     * {@code reexpress(Eᵀ)} followed by {@code shift(r)}:
     * <pre>
     *   Xᵀ P X = [ 1  [r]× ] [ Eᵀ 0  ] P [ E  0 ] [  1     0 ]
     *            [ 0   1   ] [ 0  Eᵀ ]   [ 0  E ] [ -[r]×  1 ]
     * </pre>
     * For a rigid body, {@code of(rbi).transformTranspose(new SpatialTransform().setFromPose(pose))} equals
     * {@code of(rbi.expressedIn(pose))}.
     */
    public ArticulatedBodyInertia transformTranspose(SpatialTransform x) {
        return copy().transformTransposeInPlace(x);
    }

    /** this = Xᵀ this X (see {@link #transformTranspose}). No allocation. Returns this. */
    public ArticulatedBodyInertia transformTransposeInPlace(SpatialTransform x) {
        rotate(a, x.E, true, scratch);
        shift(scratch, x.r[0], x.r[1], x.r[2], a, false);
        return this;
    }

    /**
     * this += Xᵀ child X, the articulated-body algorithm's accumulation P_λ(i) += X_iᵀ P_i X_i (see
     * {@link #transformTranspose}); {@code child} is not modified unless it is this instance (then
     * this = this + Xᵀ this X). No allocation. Returns this.
     */
    public ArticulatedBodyInertia addTransformTranspose(SpatialTransform x, ArticulatedBodyInertia child) {
        rotate(child.a, x.E, true, scratch);
        shift(scratch, x.r[0], x.r[1], x.r[2], a, true);
        return this;
    }

    /**
     * dst[0..20] = the shift of src (layout as {@link #a}) by s, or dst += it when {@code accumulate}. dst may be
     * src (everything is read before anything is written).
     */
    private static void shift(double[] src, double s0, double s1, double s2, double[] dst, boolean accumulate) {
        double m00 = src[0], m01 = src[1], m02 = src[2], m11 = src[3], m12 = src[4], m22 = src[5];
        double f00 = src[6], f01 = src[7], f02 = src[8];
        double f10 = src[9], f11 = src[10], f12 = src[11];
        double f20 = src[12], f21 = src[13], f22 = src[14];
        double j00 = src[15], j01 = src[16], j02 = src[17], j11 = src[18], j12 = src[19], j22 = src[20];
        // G = [s]x M: column j of G is s x (column j of M); [s]x = [0 -s2 s1; s2 0 -s0; -s1 s0 0].
        double g00 = s1 * m02 - s2 * m01, g01 = s1 * m12 - s2 * m11, g02 = s1 * m22 - s2 * m12;
        double g10 = s2 * m00 - s0 * m02, g11 = s2 * m01 - s0 * m12, g12 = s2 * m02 - s0 * m22;
        double g20 = s0 * m01 - s1 * m00, g21 = s0 * m11 - s1 * m01, g22 = s0 * m12 - s1 * m02;
        // H = [s]x Fᵀ: column j of H is s x (row j of F).
        double h00 = s1 * f02 - s2 * f01, h10 = s2 * f00 - s0 * f02, h20 = s0 * f01 - s1 * f00;
        double h01 = s1 * f12 - s2 * f11, h11 = s2 * f10 - s0 * f12, h21 = s0 * f11 - s1 * f10;
        double h02 = s1 * f22 - s2 * f21, h12 = s2 * f20 - s0 * f22, h22 = s0 * f21 - s1 * f20;
        // K = G [s]x: row i of K is (row i of G) x s.  J' = J + H + Hᵀ - K  (-F[s]x = Hᵀ, -[s]x M [s]x = -K).
        double k00 = g01 * s2 - g02 * s1, k01 = g02 * s0 - g00 * s2, k02 = g00 * s1 - g01 * s0;
        double k11 = g12 * s0 - g10 * s2, k12 = g10 * s1 - g11 * s0;
        double k22 = g20 * s1 - g21 * s0;
        put(dst, 0, m00, accumulate);
        put(dst, 1, m01, accumulate);
        put(dst, 2, m02, accumulate);
        put(dst, 3, m11, accumulate);
        put(dst, 4, m12, accumulate);
        put(dst, 5, m22, accumulate);
        put(dst, 6, f00 + g00, accumulate);
        put(dst, 7, f01 + g01, accumulate);
        put(dst, 8, f02 + g02, accumulate);
        put(dst, 9, f10 + g10, accumulate);
        put(dst, 10, f11 + g11, accumulate);
        put(dst, 11, f12 + g12, accumulate);
        put(dst, 12, f20 + g20, accumulate);
        put(dst, 13, f21 + g21, accumulate);
        put(dst, 14, f22 + g22, accumulate);
        put(dst, 15, j00 + 2 * h00 - k00, accumulate);
        put(dst, 16, j01 + h01 + h10 - k01, accumulate);
        put(dst, 17, j02 + h02 + h20 - k02, accumulate);
        put(dst, 18, j11 + 2 * h11 - k11, accumulate);
        put(dst, 19, j12 + h12 + h21 - k12, accumulate);
        put(dst, 20, j22 + 2 * h22 - k22, accumulate);
    }

    private static void put(double[] dst, int k, double value, boolean accumulate) {
        dst[k] = accumulate ? dst[k] + value : value;
    }

    /**
     * dst[0..20] = each block B of src replaced by Q B Qᵀ, where Q = q (row-major) or, when {@code transposed}, qᵀ.
     * dst[21..29] is used as scratch; dst must not be src.
     */
    private static void rotate(double[] src, double[] q, boolean transposed, double[] dst) {
        rotateBlock(src, M_INDEX, true, q, transposed, dst);
        rotateBlock(src, F_INDEX, false, q, transposed, dst);
        rotateBlock(src, J_INDEX, true, q, transposed, dst);
    }

    private static void rotateBlock(double[] src, int[] index, boolean symmetric, double[] q, boolean transposed,
            double[] dst) {
        final int t = 21;
        // T = B Qᵀ: T(i, j) = sum_k B(i, k) Q(j, k)
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                double sum = 0;
                for (int k = 0; k < 3; k++) {
                    sum += src[index[3 * i + k]] * (transposed ? q[3 * k + j] : q[3 * j + k]);
                }
                dst[t + 3 * i + j] = sum;
            }
        }
        // B' = Q T (only the stored upper triangle of a symmetric block)
        for (int i = 0; i < 3; i++) {
            for (int j = symmetric ? i : 0; j < 3; j++) {
                double sum = 0;
                for (int k = 0; k < 3; k++) {
                    sum += (transposed ? q[3 * k + i] : q[3 * i + k]) * dst[t + 3 * k + j];
                }
                dst[index[3 * i + j]] = sum;
            }
        }
    }

    // ---------------------------------------------------------------------------------------- conversions

    /** The full 6x6 matrix [J F; Fᵀ M] into {@code out} (reshaped to 6x6). No allocation if out is already 6x6. */
    public void toMatrix(DMatrixRMaj out) {
        out.reshape(6, 6);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                double f = a[F_INDEX[3 * i + j]];
                out.unsafe_set(i, j, a[J_INDEX[3 * i + j]]);
                out.unsafe_set(i, j + 3, f);
                out.unsafe_set(j + 3, i, f);
                out.unsafe_set(i + 3, j + 3, a[M_INDEX[3 * i + j]]);
            }
        }
    }

    /** A new 6x6 matrix [J F; Fᵀ M]. */
    public DMatrixRMaj toMatrix() {
        DMatrixRMaj m = new DMatrixRMaj(6, 6);
        toMatrix(m);
        return m;
    }

    /**
     * True if every stored element differs from {@code other}'s by at most {@code tolerance} (absolute, in the
     * elements' own units).
     */
    public boolean epsilonEquals(ArticulatedBodyInertia other, double tolerance) {
        for (int k = 0; k < 21; k++) {
            if (!(Math.abs(a[k] - other.a[k]) <= tolerance)) {
                return false;
            }
        }
        return true;
    }

    /** Exact equality of the 21 stored numbers (as {@link Arrays#equals(double[], double[])}). */
    @Override
    public boolean equals(Object o) {
        return o instanceof ArticulatedBodyInertia other && Arrays.equals(a, other.a);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(a);
    }

    @Override
    public String toString() {
        return "ArticulatedBodyInertia{M=" + Arrays.toString(massArray()) + ", F="
                + Arrays.toString(massMomentArray()) + ", J=" + Arrays.toString(inertiaArray()) + "}";
    }
}
