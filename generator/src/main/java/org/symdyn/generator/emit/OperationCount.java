package org.symdyn.generator.emit;

/**
 * Floating-point operations of a generated method: multiplications (divisions included), additions (subtractions
 * included) and trigonometric calls (each sin or cos of a joint angle, computed once per method).
 */
public record OperationCount(int mul, int add, int trig) {
    public static final OperationCount ZERO = new OperationCount(0, 0, 0);

    public OperationCount plus(OperationCount o) {
        return new OperationCount(mul + o.mul, add + o.add, trig + o.trig);
    }

    /** Multiplications plus additions. */
    public int flops() {
        return mul + add;
    }

    @Override
    public String toString() {
        return mul + " mul, " + add + " add, " + trig + " trig";
    }
}
