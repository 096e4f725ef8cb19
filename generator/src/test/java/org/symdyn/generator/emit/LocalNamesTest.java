package org.symdyn.generator.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LocalNamesTest {

    @Test
    void temporariesAreNumberedFromZeroInEachMethodInOrderOfFirstUse() {
        String source = """
                public final class A {
                    private static final double[] T = {1.0};

                    public void first(double[] q, double[] out) {
                        final double t907 = q[0] * 2.0;
                        final double t12 = t907 + t907;
                        out[0] = t12 - t907;
                    }

                    private void second$3(double[] q, double[] v, double[] tau,
                            double[] out) {
                        final double t12 = q[1];
                        final double k$t5 = t12;
                        final double t3 = tau[0] + k$t5 + t12;
                        out[1] = t3;
                    }
                }
                """;
        String expected = """
                public final class A {
                    private static final double[] T = {1.0};

                    public void first(double[] q, double[] out) {
                        final double t0 = q[0] * 2.0;
                        final double t1 = t0 + t0;
                        out[0] = t1 - t0;
                    }

                    private void second$3(double[] q, double[] v, double[] tau,
                            double[] out) {
                        final double t0 = q[1];
                        final double k$t5 = t0;
                        final double t1 = tau[0] + k$t5 + t0;
                        out[1] = t1;
                    }
                }
                """;
        assertEquals(expected, LocalNames.perMethod(source));
    }

    @Test
    void aSourceWithoutTemporariesIsUnchanged() {
        String source = "class B {\n    int f(int t) {\n        return t + 1;\n    }\n}\n";
        assertEquals(source, LocalNames.perMethod(source));
    }
}
