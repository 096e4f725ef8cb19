package org.symdyn.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.junit.jupiter.api.Test;
import org.symdyn.rollout.FinalState;
import org.symdyn.rollout.RolloutFailure;
import org.symdyn.rollout.RolloutResult;
import org.symdyn.rollout.RolloutSpec;

/** The rows' conversions, without Spark: every number comes back with its bits. */
class RolloutRowsTest {
    private static final double[] AWKWARD = {-0.0, Double.MIN_VALUE, Double.MIN_NORMAL, 0.1 + 0.2, Double.NaN,
            Double.longBitsToDouble(0x7ff8_0000_dead_beefL), Double.MAX_VALUE, Double.NEGATIVE_INFINITY, Math.PI};

    @Test
    void aSpecificationComesBackFromItsRow() {
        TreeMap<String, Double> parameters = new TreeMap<>();
        parameters.put("kp.knee", 1.0 / 3);
        parameters.put("friction", -0.0);
        parameters.put("mass.base", Double.MIN_VALUE);
        RolloutSpec spec = new RolloutSpec(AWKWARD, AWKWARD.clone(), parameters, Long.MIN_VALUE, 0.1 + 0.2,
                Double.MIN_NORMAL);
        Row row = RolloutRows.specRow(-42, spec);
        assertEquals(RolloutRows.SPEC_SCHEMA.size(), row.length());
        assertEquals(-42, RolloutRows.index(row));
        RolloutSpec back = RolloutRows.spec(row);
        assertEquals(spec, back);
        assertBits(AWKWARD, back.q0());
        assertBits(AWKWARD, back.v0());
        for (String name : parameters.keySet()) {
            assertEquals(Double.doubleToRawLongBits(parameters.get(name)),
                    Double.doubleToRawLongBits(back.parameters().get(name)), name);
        }
        assertEquals(Double.doubleToRawLongBits(0.1 + 0.2), Double.doubleToRawLongBits(back.duration()));
    }

    @Test
    void aResultComesBackFromItsRow() {
        RolloutSpec spec = RolloutSpec.of(new double[2], new double[2], 1, 0.1);
        FinalState end = new FinalState(0.1 + 0.2, AWKWARD, new double[] {-0.0, 5e-324});
        Row row = RolloutRows.resultRow(7, new RolloutResult<>(0, spec, end, null, 10, null));
        assertEquals(RolloutRows.RESULT_SCHEMA.size(), row.length());
        assertTrue(end.sameBits(RolloutRows.finalState(row)));
        assertEquals(10, RolloutRows.steps(row));
        assertNull(RolloutRows.failureKind(row));

        RolloutFailure failure = new RolloutFailure(RolloutFailure.Kind.PAINLEVE, 3, 0.3, "no solution");
        Row failed = RolloutRows.resultRow(8, new RolloutResult<>(1, spec, null, failure, 3, null));
        assertTrue(RolloutRows.failed(failed));
        assertNull(RolloutRows.finalState(failed));
        assertEquals(RolloutFailure.Kind.PAINLEVE, RolloutRows.failureKind(failed));
        assertEquals("no solution", RolloutRows.failureMessage(failed));
        assertEquals(0.3, failed.getDouble(5));
    }

    @Test
    void aRowThatIsNoSpecificationNamesWhy() {
        Row nullSeed = RowFactory.create(1L, new double[] {1}, new double[] {1}, new TreeMap<String, Double>(), null,
                1.0, 0.1);
        assertEquals("column seed is null",
                assertThrows(IllegalArgumentException.class, () -> RolloutRows.spec(nullSeed)).getMessage());
        Row nullNumber = RowFactory.create(1L, java.util.Arrays.asList(1.0, null), new double[] {1},
                new TreeMap<String, Double>(), 0L, 1.0, 0.1);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RolloutRows.spec(nullNumber)).getMessage()
                .contains("column q0 has a null at 1"));
    }

    private static void assertBits(double[] expected, double[] actual) {
        assertEquals(expected.length, actual.length);
        for (int i = 0; i < expected.length; i++) {
            assertEquals(Double.doubleToRawLongBits(expected[i]), Double.doubleToRawLongBits(actual[i]), "at " + i);
        }
    }
}
