package org.symdyn.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.symdyn.rollout.FinalState;
import org.symdyn.rollout.Outcomes;
import org.symdyn.rollout.RolloutResult;
import org.symdyn.rollout.RolloutSpec;
import org.symdyn.rollout.Rollouts;
import org.symdyn.samples.QuadrupedRollouts;
import org.symdyn.samples.generated.QuadrupedDynamics;

/**
 * The samples' 1,000 quadruped drops ({@link QuadrupedRollouts}: random height, attitude and friction, 1 s each,
 * on the generated {@link QuadrupedDynamics} loaded by its name in every task) through Spark's local mode: as many
 * stand as on threads, and every final state has the threads' bits.
 */
class QuadrupedDropOnSparkTest {
    private static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = LocalSpark.session(QuadrupedDropOnSparkTest.class);
    }

    @AfterAll
    static void stop() {
        if (spark != null) {
            spark.stop();
        }
    }

    @Test
    void aThousandDropsStandOnSparkAsOnThreads() {
        List<RolloutSpec> specs = QuadrupedRollouts.dropSpecs(1000, 2026);
        List<RolloutResult<FinalState>> threads = Rollouts.builder(QuadrupedDynamics::new,
                QuadrupedRollouts.systems()).threads(2).build().run(specs, Outcomes.finalState());
        RolloutJob job = RolloutJob.generated(QuadrupedDynamics.class.getName(), model -> QuadrupedRollouts.systems());
        List<Row> rows = new ArrayList<>(SparkRollouts.run(SparkRollouts.specs(spark, specs, 16), job)
                .collectAsList());
        rows.sort(Comparator.comparingLong(RolloutRows::index));

        assertEquals(specs.size(), rows.size());
        int standingOnThreads = 0;
        int standingOnSpark = 0;
        for (int i = 0; i < rows.size(); i++) {
            RolloutResult<FinalState> t = threads.get(i);
            Row row = rows.get(i);
            assertEquals(i, RolloutRows.index(row));
            assertFalse(t.failed(), () -> t.index() + ": " + t.failure());
            assertFalse(RolloutRows.failed(row), () -> "on Spark: " + row);
            FinalState onSpark = RolloutRows.finalState(row);
            assertTrue(t.outcome().sameBits(onSpark), "rollout " + i);
            standingOnThreads += QuadrupedRollouts.standing(t.outcome()) ? 1 : 0;
            standingOnSpark += QuadrupedRollouts.standing(onSpark) ? 1 : 0;
        }
        assertEquals(standingOnThreads, standingOnSpark);
        // some stand and some fall: the comparison covers both kinds of ending
        assertTrue(standingOnSpark > 100 && standingOnSpark < 900, "standing " + standingOnSpark + " of 1000");
        System.out.println("QuadrupedDropOnSparkTest: " + standingOnSpark + " of 1000 stand, on Spark and on threads");
    }
}
