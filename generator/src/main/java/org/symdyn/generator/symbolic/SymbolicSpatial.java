package org.symdyn.generator.symbolic;

import org.matheclipse.core.expression.F;
import org.matheclipse.core.interfaces.IExpr;

/**
 * Featherstone's spatial algebra over symbolic values, with the conventions of the runtime's
 * {@link org.symdyn.spatial.SpatialTransform}: a transform X from A to B is (E, r) with E rotating A coordinates
 * into B coordinates and r the origin of B in A coordinates; motion vectors [ω; v], force vectors [n; f]. Zeros and
 * ones of constant operands fold away in {@link ExpressionGraph}, so a constant transform that is a permutation
 * costs nothing.
 */
final class SymbolicSpatial {
    private final ExpressionGraph g;

    SymbolicSpatial(ExpressionGraph g) {
        this.g = g;
    }

    /** A Plücker transform (E, r). */
    static final class Transform {
        final IExpr[] e;
        final IExpr[] r;

        Transform(IExpr[] e, IExpr[] r) {
            this.e = e;
            this.r = r;
        }
    }

    /** Rigid-body inertia in compact form: mass, first moment h = m c, rotational inertia Ī about the origin. */
    static final class Inertia {
        final IExpr m;
        final IExpr[] h;
        final IExpr[] i; // row-major 3x3, symmetric (the same expression objects mirror)

        Inertia(IExpr m, IExpr[] h, IExpr[] i) {
            this.m = m;
            this.h = h;
            this.i = i;
        }
    }

    /** Model numbers as exact constants ({@link ExpressionGraph#constant(double)}). */
    IExpr[] constants(double[] x) {
        IExpr[] out = new IExpr[x.length];
        for (int k = 0; k < x.length; k++) {
            out[k] = g.constant(x[k]);
        }
        return out;
    }

    /** The 3 x 3 identity (row-major), as constants that fold away. */
    static IExpr[] identity() {
        return new IExpr[] {F.C1, F.C0, F.C0, F.C0, F.C1, F.C0, F.C0, F.C0, F.C1};
    }

    IExpr[] zeros(int n) {
        IExpr[] z = new IExpr[n];
        java.util.Arrays.fill(z, F.C0);
        return z;
    }

    /** E x for a 3-vector. */
    IExpr[] rotate(IExpr[] e, IExpr[] x) {
        IExpr[] out = new IExpr[3];
        for (int k = 0; k < 3; k++) {
            out[k] = g.sum(g.mul(e[3 * k], x[0]), g.mul(e[3 * k + 1], x[1]), g.mul(e[3 * k + 2], x[2]));
        }
        return out;
    }

    /** Eᵀ x for a 3-vector. */
    IExpr[] rotateTranspose(IExpr[] e, IExpr[] x) {
        IExpr[] out = new IExpr[3];
        for (int k = 0; k < 3; k++) {
            out[k] = g.sum(g.mul(e[k], x[0]), g.mul(e[3 + k], x[1]), g.mul(e[6 + k], x[2]));
        }
        return out;
    }

    /** The matrix x× (row-major 3 x 3), so that (x×) y = x × y. */
    IExpr[] skew(IExpr[] x) {
        return new IExpr[] {F.C0, g.neg(x[2]), x[1], x[2], F.C0, g.neg(x[0]), g.neg(x[1]), x[0], F.C0};
    }

    /** a × b. */
    IExpr[] cross(IExpr[] a, IExpr[] b) {
        return new IExpr[] {
            g.sub(g.mul(a[1], b[2]), g.mul(a[2], b[1])),
            g.sub(g.mul(a[2], b[0]), g.mul(a[0], b[2])),
            g.sub(g.mul(a[0], b[1]), g.mul(a[1], b[0]))};
    }

    IExpr[] add3(IExpr[] a, IExpr[] b) {
        return new IExpr[] {g.add(a[0], b[0]), g.add(a[1], b[1]), g.add(a[2], b[2])};
    }

    IExpr[] sub3(IExpr[] a, IExpr[] b) {
        return new IExpr[] {g.sub(a[0], b[0]), g.sub(a[1], b[1]), g.sub(a[2], b[2])};
    }

    IExpr[] add6(IExpr[] a, IExpr[] b) {
        IExpr[] out = new IExpr[6];
        for (int k = 0; k < 6; k++) {
            out[k] = g.add(a[k], b[k]);
        }
        return out;
    }

    static IExpr[] angular(IExpr[] m) {
        return new IExpr[] {m[0], m[1], m[2]};
    }

    static IExpr[] linear(IExpr[] m) {
        return new IExpr[] {m[3], m[4], m[5]};
    }

    static IExpr[] join(IExpr[] a, IExpr[] b) {
        return new IExpr[] {a[0], a[1], a[2], b[0], b[1], b[2]};
    }

    /** X m = [E ω; E (v - r × ω)]. */
    IExpr[] applyMotion(Transform x, IExpr[] m) {
        IExpr[] w = angular(m);
        IExpr[] v = sub3(linear(m), cross(x.r, w));
        return join(rotate(x.e, w), rotate(x.e, v));
    }

    /** X⁻¹ m = [Eᵀ ω; Eᵀ v + r × Eᵀ ω]: a motion vector in B coordinates carried to A. */
    IExpr[] applyInverseMotion(Transform x, IExpr[] m) {
        IExpr[] w = rotateTranspose(x.e, angular(m));
        return join(w, add3(rotateTranspose(x.e, linear(m)), cross(x.r, w)));
    }

    IExpr[] sub6(IExpr[] a, IExpr[] b) {
        IExpr[] out = new IExpr[6];
        for (int k = 0; k < 6; k++) {
            out[k] = g.sub(a[k], b[k]);
        }
        return out;
    }

    /** s a for a 6-vector. */
    IExpr[] scale6(IExpr s, IExpr[] a) {
        IExpr[] out = new IExpr[6];
        for (int k = 0; k < 6; k++) {
            out[k] = g.mul(s, a[k]);
        }
        return out;
    }

    /** Xᵀ f = [Eᵀ n + r × Eᵀ f; Eᵀ f]: a force in B coordinates carried to A. */
    IExpr[] applyTransposeForce(Transform x, IExpr[] f) {
        IExpr[] lin = rotateTranspose(x.e, linear(f));
        IExpr[] ang = add3(rotateTranspose(x.e, angular(f)), cross(x.r, lin));
        return join(ang, lin);
    }

    /** v × m. */
    IExpr[] crossMotion(IExpr[] v, IExpr[] m) {
        IExpr[] w = angular(v);
        return join(cross(w, angular(m)), add3(cross(w, linear(m)), cross(linear(v), angular(m))));
    }

    /** v ×* f. */
    IExpr[] crossForce(IExpr[] v, IExpr[] f) {
        IExpr[] w = angular(v);
        return join(add3(cross(w, angular(f)), cross(linear(v), linear(f))), cross(w, linear(f)));
    }

    /** I m = [Ī ω + h × v; m v - h × ω]. */
    IExpr[] inertiaTimes(Inertia in, IExpr[] m) {
        IExpr[] w = angular(m);
        IExpr[] v = linear(m);
        IExpr[] iw = new IExpr[3];
        for (int k = 0; k < 3; k++) {
            iw[k] = g.sum(g.mul(in.i[3 * k], w[0]), g.mul(in.i[3 * k + 1], w[1]), g.mul(in.i[3 * k + 2], w[2]));
        }
        IExpr[] ang = add3(iw, cross(in.h, v));
        IExpr[] mv = {g.mul(in.m, v[0]), g.mul(in.m, v[1]), g.mul(in.m, v[2])};
        return join(ang, sub3(mv, cross(in.h, w)));
    }

    /**
     * Xᵀ I X: an inertia given in B coordinates expressed in A coordinates. With h' = Eᵀ h:
     * h_A = h' + m r and Ī_A = Eᵀ Ī E + 2 (r·h') 1 + m |r|² 1 - h' rᵀ - r h'ᵀ - m r rᵀ.
     */
    Inertia transformToParent(Transform x, Inertia in) {
        IExpr[] e = x.e;
        IExpr[] hp = rotateTranspose(e, in.h);
        // M = Ī E, then Eᵀ M (upper triangle, mirrored).
        IExpr[] me = new IExpr[9];
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                me[3 * r + c] = g.sum(g.mul(in.i[3 * r], e[c]), g.mul(in.i[3 * r + 1], e[3 + c]),
                        g.mul(in.i[3 * r + 2], e[6 + c]));
            }
        }
        IExpr[] ia = new IExpr[9];
        boolean noShift = x.r[0].isZero() && x.r[1].isZero() && x.r[2].isZero();
        IExpr rh = noShift ? F.C0 : g.dot(x.r, hp);
        IExpr rr = noShift ? F.C0 : g.dot(x.r, x.r);
        for (int r = 0; r < 3; r++) {
            for (int c = r; c < 3; c++) {
                IExpr v = g.sum(g.mul(e[r], me[c]), g.mul(e[3 + r], me[3 + c]), g.mul(e[6 + r], me[6 + c]));
                if (!noShift) {
                    IExpr extra = g.sum(g.neg(g.mul(hp[r], x.r[c])), g.neg(g.mul(x.r[r], hp[c])),
                            g.neg(g.mul(in.m, g.mul(x.r[r], x.r[c]))));
                    if (r == c) {
                        extra = g.add(extra, g.add(g.mul(g.integer(2), rh), g.mul(in.m, rr)));
                    }
                    v = g.add(v, extra);
                }
                ia[3 * r + c] = v;
                ia[3 * c + r] = v;
            }
        }
        IExpr[] h = noShift ? hp : new IExpr[] {g.add(hp[0], g.mul(in.m, x.r[0])),
            g.add(hp[1], g.mul(in.m, x.r[1])), g.add(hp[2], g.mul(in.m, x.r[2]))};
        return new Inertia(in.m, h, ia);
    }

    /**
     * Xᵀ M X for a symmetric 6 x 6 M (row-major; an articulated inertia in B coordinates expressed in A). X is the
     * rotation diag(E, E) after the translation [1 0; -R 1], R = r×: the rotation gives the blocks Eᵀ A E, Eᵀ B E,
     * Eᵀ C E of M = [A B; Bᵀ C], and the translation A' = A + P + Pᵀ - Q R, B' = B + Q, C' = C with P = R Bᵀ,
     * Q = R C. The result's mirrored entries are the same expression.
     */
    IExpr[] congruence(Transform x, IExpr[] m) {
        IExpr[] e = x.e;
        IExpr[] a = rotateBlock(e, m, 0, 0, true);
        IExpr[] b = rotateBlock(e, m, 0, 3, false);
        IExpr[] c = rotateBlock(e, m, 3, 3, true);
        if (!(x.r[0].isZero() && x.r[1].isZero() && x.r[2].isZero())) {
            IExpr[] rx = skew(x.r);
            IExpr[] p = new IExpr[9];
            IExpr[] q = new IExpr[9];
            for (int r = 0; r < 3; r++) {
                for (int col = 0; col < 3; col++) {
                    p[3 * r + col] = g.sum(g.mul(rx[3 * r], b[3 * col]), g.mul(rx[3 * r + 1], b[3 * col + 1]),
                            g.mul(rx[3 * r + 2], b[3 * col + 2]));
                    q[3 * r + col] = g.sum(g.mul(rx[3 * r], c[col]), g.mul(rx[3 * r + 1], c[3 + col]),
                            g.mul(rx[3 * r + 2], c[6 + col]));
                }
            }
            IExpr[] a2 = new IExpr[9];
            for (int r = 0; r < 3; r++) {
                for (int col = r; col < 3; col++) {
                    IExpr qr = g.sum(g.mul(q[3 * r], rx[col]), g.mul(q[3 * r + 1], rx[3 + col]),
                            g.mul(q[3 * r + 2], rx[6 + col]));
                    a2[3 * r + col] = g.sub(g.sum(a[3 * r + col], p[3 * r + col], p[3 * col + r]), qr);
                    a2[3 * col + r] = a2[3 * r + col];
                }
            }
            for (int k = 0; k < 9; k++) {
                b[k] = g.add(b[k], q[k]);
            }
            a = a2;
        }
        IExpr[] out = new IExpr[36];
        for (int r = 0; r < 3; r++) {
            for (int col = 0; col < 3; col++) {
                out[6 * r + col] = a[3 * r + col];
                out[6 * r + col + 3] = b[3 * r + col];
                out[6 * (col + 3) + r] = b[3 * r + col];
                out[6 * (r + 3) + col + 3] = c[3 * r + col];
            }
        }
        return out;
    }

    /**
     * Xᵀ M X for a symmetric 6 x 6 M and X = diag(E, E) the rotation by an angle about the coordinate axis k
     * (E_aa = E_bb = c, E_ab = s, E_ba = -s for (a, b) = (k + 1, k + 2) mod 3, E_kk = 1: a revolute joint about
     * ±e_k, s carrying the sign). The symmetric blocks take the double-angle form, with C₂ = c² - s², S₂ = 2 c s:
     * N'_aa = p + t, N'_bb = p - t, N'_ab = d S₂ + N_ab C₂ (p, d the half sum and half difference of N_aa and N_bb,
     * t = d C₂ - N_ab S₂), N'_ak = c N_ak - s N_bk, N'_bk = s N_ak + c N_bk, N'_kk = N_kk: about half the operations
     * of {@link #congruence} on the same matrix.
     */
    IExpr[] congruenceAboutAxis(int k, IExpr s, IExpr c, IExpr[] m) {
        int a = (k + 1) % 3;
        int b = (k + 2) % 3;
        IExpr c2 = g.sub(g.mul(c, c), g.mul(s, s));
        IExpr s2 = g.mul(g.integer(2), g.mul(c, s));
        IExpr[] out = new IExpr[36];
        for (int block = 0; block < 6; block += 3) {
            IExpr[] n = new IExpr[9];
            for (int r = 0; r < 3; r++) {
                for (int col = 0; col < 3; col++) {
                    n[3 * r + col] = m[6 * (block + r) + block + col];
                }
            }
            IExpr half = F.QQ(1, 2);
            IExpr p = g.mul(half, g.add(n[4 * a], n[4 * b]));
            IExpr d = g.mul(half, g.sub(n[4 * a], n[4 * b]));
            IExpr nab = n[3 * a + b];
            IExpr t = g.sub(g.mul(d, c2), g.mul(nab, s2));
            IExpr[] r = new IExpr[9];
            r[4 * a] = g.add(p, t);
            r[4 * b] = g.sub(p, t);
            r[3 * a + b] = g.add(g.mul(d, s2), g.mul(nab, c2));
            r[3 * b + a] = r[3 * a + b];
            r[3 * a + k] = g.sub(g.mul(c, n[3 * a + k]), g.mul(s, n[3 * b + k]));
            r[3 * b + k] = g.add(g.mul(s, n[3 * a + k]), g.mul(c, n[3 * b + k]));
            r[3 * k + a] = r[3 * a + k];
            r[3 * k + b] = r[3 * b + k];
            r[4 * k] = n[4 * k];
            for (int row = 0; row < 3; row++) {
                for (int col = 0; col < 3; col++) {
                    out[6 * (block + row) + block + col] = r[3 * row + col];
                }
            }
        }
        // The off-diagonal block: B E (columns a, b turned), then Eᵀ (rows a, b turned).
        IExpr[] bt = new IExpr[9];
        for (int r = 0; r < 3; r++) {
            IExpr ba = m[6 * r + 3 + a];
            IExpr bb = m[6 * r + 3 + b];
            bt[3 * r + a] = g.sub(g.mul(c, ba), g.mul(s, bb));
            bt[3 * r + b] = g.add(g.mul(s, ba), g.mul(c, bb));
            bt[3 * r + k] = m[6 * r + 3 + k];
        }
        for (int col = 0; col < 3; col++) {
            IExpr ta = bt[3 * a + col];
            IExpr tb = bt[3 * b + col];
            IExpr[] rows = new IExpr[3];
            rows[a] = g.sub(g.mul(c, ta), g.mul(s, tb));
            rows[b] = g.add(g.mul(s, ta), g.mul(c, tb));
            rows[k] = bt[3 * k + col];
            for (int r = 0; r < 3; r++) {
                out[6 * r + 3 + col] = rows[r];
                out[6 * (3 + col) + r] = rows[r];
            }
        }
        return out;
    }

    /** Eᵀ N E for the 3 x 3 block N of M at (row, col); symmetric N gives a symmetric result computed once. */
    private IExpr[] rotateBlock(IExpr[] e, IExpr[] m, int row, int col, boolean symmetric) {
        IExpr[] t = new IExpr[9];
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                int o = 6 * (row + r) + col;
                t[3 * r + c] = g.sum(g.mul(m[o], e[c]), g.mul(m[o + 1], e[3 + c]), g.mul(m[o + 2], e[6 + c]));
            }
        }
        IExpr[] out = new IExpr[9];
        for (int r = 0; r < 3; r++) {
            for (int c = symmetric ? r : 0; c < 3; c++) {
                out[3 * r + c] = g.sum(g.mul(e[r], t[c]), g.mul(e[3 + r], t[3 + c]), g.mul(e[6 + r], t[6 + c]));
                if (symmetric) {
                    out[3 * c + r] = out[3 * r + c];
                }
            }
        }
        return out;
    }

    Inertia add(Inertia a, Inertia b) {
        IExpr[] i = new IExpr[9];
        for (int r = 0; r < 3; r++) {
            for (int c = r; c < 3; c++) {
                i[3 * r + c] = g.add(a.i[3 * r + c], b.i[3 * r + c]);
                i[3 * c + r] = i[3 * r + c];
            }
        }
        return new Inertia(g.add(a.m, b.m), add3(a.h, b.h), i);
    }

    /** X_CA = X_CB X_BA: E = E_CB E_BA, r = r_BA + E_BAᵀ r_CB. */
    Transform compose(Transform bc, Transform ab) {
        IExpr[] e = new IExpr[9];
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                e[3 * r + c] = g.sum(g.mul(bc.e[3 * r], ab.e[c]), g.mul(bc.e[3 * r + 1], ab.e[3 + c]),
                        g.mul(bc.e[3 * r + 2], ab.e[6 + c]));
            }
        }
        return new Transform(e, add3(ab.r, rotateTranspose(ab.e, bc.r)));
    }
}
