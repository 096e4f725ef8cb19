package org.symdyn.generator.emit;

import java.math.BigDecimal;
import java.math.MathContext;
import org.matheclipse.core.interfaces.IExpr;
import org.matheclipse.core.interfaces.IRational;
import org.symdyn.generator.symbolic.ExpressionGraph;

/**
 * Prints a temporary's definition (a small Symja expression over numbers and symbols) as Java source, and counts
 * its operations. The expression tree is walked here rather than printed by Symja: {@code toString()} inserts line
 * breaks and {@code JavaForm} prints rationals as integer divisions.
 */
final class JavaExpressions {
    private JavaExpressions() {
    }

    /** A rational as the nearest double, printed so that it reads back exactly. */
    static String literal(IExpr number) {
        return Double.toString(value(number));
    }

    static double value(IExpr number) {
        if (!(number instanceof IRational r)) {
            throw new IllegalStateException("not a rational number: " + number.fullFormString());
        }
        BigDecimal num = new BigDecimal(r.toBigNumerator());
        BigDecimal den = new BigDecimal(r.toBigDenominator());
        return num.divide(den, MathContext.DECIMAL128).doubleValue();
    }

    /** Java source of {@code e}; symbols print as their names. */
    static String java(IExpr e, int[] counts) {
        if (e.isNumber()) {
            String s = literal(e);
            return s.startsWith("-") ? "(" + s + ")" : s;
        }
        if (e.isSymbol()) {
            return ((org.matheclipse.core.interfaces.ISymbol) e).getSymbolName();
        }
        if (e.isPlus()) {
            // A positive term leads when there is one: "b - a" is one subtraction, "-a + b" a negation more.
            int lead = 1;
            while (lead < e.argSize() && isNegated(e.getAt(lead))) {
                lead++;
            }
            if (isNegated(e.getAt(lead))) {
                lead = 1;
            }
            StringBuilder b = new StringBuilder();
            for (int k = 0; k < e.argSize(); k++) {
                int i = k == 0 ? lead : (k < lead ? k : k + 1);
                IExpr term = e.getAt(i);
                boolean negative = isNegated(term);
                String t = negative ? java(negate(term), counts) : java(term, counts);
                if (k == 0) {
                    b.append(negative ? "-" + t : t);
                } else {
                    b.append(negative ? " - " : " + ").append(t);
                    counts[1]++;
                }
            }
            return "(" + b + ")";
        }
        if (e.isTimes()) {
            StringBuilder num = new StringBuilder();
            StringBuilder den = new StringBuilder();
            int factors = 0;
            boolean negate = false;
            for (int i = 1; i <= e.argSize(); i++) {
                IExpr f = e.getAt(i);
                if (f.isMinusOne()) {
                    negate = !negate;
                    continue;
                }
                if (f.isPower() && f.getAt(2).isNumber() && f.getAt(2).isNegative()) {
                    den.append(" / ").append(power(f.getAt(1), f.getAt(2).negate(), counts));
                    counts[0]++;
                    continue;
                }
                String s = java(f, counts);
                if (factors > 0) {
                    num.append(" * ");
                    counts[0]++;
                }
                num.append(s);
                factors++;
            }
            String body = factors == 0 ? "1.0" + den : num + den.toString();
            return negate ? "(-" + body + ")" : "(" + body + ")";
        }
        if (e.isPower() && e.getAt(2).isNumber()) {
            if (e.getAt(2).isNegative()) {
                counts[0]++;
                return "(1.0 / " + power(e.getAt(1), e.getAt(2).negate(), counts) + ")";
            }
            return power(e.getAt(1), e.getAt(2), counts);
        }
        if (e.head() == ExpressionGraph.EDGE_SENSE && e.argSize() == 2) {
            String a = java(e.getAt(1), counts);
            String b = java(e.getAt(2), counts);
            if (SinCosBlock.branchy()) { // the pre-issue-18 form, for A/B timing only (see SinCosBlock)
                return "(Math.abs(" + a + ") > Math.abs(" + b + ") ? (" + a + " >= 0 ? 1.0 : -1.0) : (" + b
                        + " >= 0 ? -1.0 : 1.0))";
            }
            // Selected by bit operations, not by ?: a branch on a state value that a profile saw go one way only is
            // compiled out, and the first contact on the other side would deoptimise the method (issue 18).
            return "org.symdyn.spatial.BranchFree.edgeSense(" + a + ", " + b + ")";
        }
        throw new IllegalStateException("cannot emit expression " + e.fullFormString());
    }

    /** base^exponent for a positive integer or half-integer exponent. */
    private static String power(IExpr base, IExpr exponent, int[] counts) {
        if (exponent.isInteger()) {
            return power(base, exponent.toIntDefault(), counts);
        }
        IExpr twice = exponent.times(org.matheclipse.core.expression.F.C2);
        if (!twice.isInteger()) {
            throw new IllegalStateException("cannot emit power " + exponent.fullFormString());
        }
        int n = twice.toIntDefault(); // odd: base^(n/2) = base^((n-1)/2) · √base
        counts[0]++;
        String root = "Math.sqrt(" + java(base, counts) + ")";
        if (n == 1) {
            return root;
        }
        counts[0]++;
        return "(" + power(base, (n - 1) / 2, counts) + " * " + root + ")";
    }

    private static String power(IExpr base, int n, int[] counts) {
        String b = java(base, counts);
        if (n == 1) {
            return b;
        }
        if (n > 4) {
            counts[0]++;
            return "Math.pow(" + b + ", " + n + ")";
        }
        StringBuilder s = new StringBuilder("(").append(b);
        for (int i = 1; i < n; i++) {
            s.append(" * ").append(b);
            counts[0]++;
        }
        return s.append(")").toString();
    }

    /** True for -1 · x, a negative number times x, or a negative number: printed with a minus sign. */
    private static boolean isNegated(IExpr term) {
        if (term.isNumber()) {
            return term.isNegative();
        }
        return term.isTimes() && term.getAt(1).isNumber() && term.getAt(1).isNegative();
    }

    private static IExpr negate(IExpr term) {
        if (term.isNumber()) {
            return term.negate();
        }
        IExpr c = term.getAt(1).negate();
        if (c.isOne()) {
            if (term.argSize() == 2) {
                return term.getAt(2);
            }
            return ((org.matheclipse.core.interfaces.IAST) term).removeAtCopy(1);
        }
        return ((org.matheclipse.core.interfaces.IAST) term).setAtCopy(1, c);
    }
}
