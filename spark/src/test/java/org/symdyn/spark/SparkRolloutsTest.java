package org.symdyn.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.constraints.GenericModel;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.Model;
import org.symdyn.rollout.Controller;
import org.symdyn.rollout.FinalState;
import org.symdyn.rollout.Outcomes;
import org.symdyn.rollout.RolloutFailure;
import org.symdyn.rollout.RolloutResult;
import org.symdyn.rollout.RolloutSpec;
import org.symdyn.rollout.Rollouts;
import org.symdyn.rollout.SystemFactory;
import scala.collection.immutable.ArraySeq;

/**
 * The Spark job against {@link Rollouts} on threads, in Spark's local mode with two executor threads: the same
 * bits in every number of every final state, failures reported in their rows, and the tables through Parquet
 * unchanged.
 */
class SparkRolloutsTest {
    private static SparkSession spark;
    private static Model model;

    @BeforeAll
    static void start() throws Exception {
        spark = LocalSpark.session(SparkRolloutsTest.class);
        model = UrdfReader.parse(DroppedBox.URDF, DroppedBox.FILE_NAME, null);
    }

    @AfterAll
    static void stop() {
        if (spark != null) {
            spark.stop();
        }
    }

    private static List<RolloutResult<FinalState>> onThreads(List<RolloutSpec> specs, int threads,
            Controller.Factory controllers) {
        return Rollouts.builder(new GenericModel(model), SystemFactory.of(model)).threads(threads)
                .controller(controllers).build().run(specs, Outcomes.finalState());
    }

    private static List<Row> collectSorted(Dataset<Row> results) {
        List<Row> rows = new ArrayList<>(results.collectAsList());
        rows.sort(Comparator.comparingLong(RolloutRows::index));
        return rows;
    }

    /** The Spark rows against the threads' results, index by index: same failure, steps and final-state bits. */
    private static void assertSameBits(List<RolloutResult<FinalState>> expected, List<Row> rows) {
        assertEquals(expected.size(), rows.size());
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            RolloutResult<FinalState> r = expected.get(i);
            assertEquals(i, RolloutRows.index(row));
            assertEquals(r.failed(), RolloutRows.failed(row), () -> "rollout " + row);
            assertEquals(r.steps(), RolloutRows.steps(row), "steps of rollout " + i);
            if (r.failed()) {
                assertEquals(r.failure().kind(), RolloutRows.failureKind(row));
                assertEquals(r.failure().message(), RolloutRows.failureMessage(row));
            } else {
                FinalState spark = RolloutRows.finalState(row);
                assertTrue(r.outcome().sameBits(spark), () -> "rollout " + row.getLong(0) + ": threads "
                        + r.outcome() + ", Spark " + spark);
            }
        }
    }

    @Test
    void aBatchOnSparkHasTheThreadsBits() {
        List<RolloutSpec> specs = DroppedBox.drops(240, 36);
        List<RolloutResult<FinalState>> one = onThreads(specs, 1, (s, sys) -> Controller.NONE);
        List<RolloutResult<FinalState>> two = onThreads(specs, 2, (s, sys) -> Controller.NONE);
        // 7 partitions over 2 executor threads: rollouts run in another grouping and order than on the threads
        Dataset<Row> results = SparkRollouts.run(SparkRollouts.specs(spark, specs, 7),
                RolloutJob.modelFile(DroppedBox.FILE_NAME, DroppedBox.URDF));
        List<Row> rows = collectSorted(results);
        assertSameBits(one, rows);
        assertSameBits(two, rows);

        // the batch is not trivial: the boxes fell and lie on the floor on one face or another, or still rock over
        // an edge (the centre 0.05 to 0.15 m up, a corner's distance from it), at various heights.
        // None is thrown off: before the runtime bounded ADMM's adaptive penalty (ProximalAdmm keeps ρ within
        // ρ₀ 5^±6), 3 of these 240 ended far off (one 119 m up) after a solve whose penalty had collapsed to 1e-14.
        int onTheFloor = 0;
        double minZ = Double.POSITIVE_INFINITY;
        double maxZ = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < rows.size(); i++) {
            assertFalse(RolloutRows.failed(rows.get(i)), "rollout " + i + " failed: " + rows.get(i));
            FinalState end = RolloutRows.finalState(rows.get(i));
            double z = end.q()[2];
            assertTrue(z < 0.5, "rollout " + i + " ends " + z + " m up");
            if (z > 0.045 && z < 0.151 && z < specs.get(i).q0()[2] - 0.05) {
                onTheFloor++;
                minZ = Math.min(minZ, z);
                maxZ = Math.max(maxZ, z);
            }
        }
        assertTrue(onTheFloor >= 0.95 * rows.size(), onTheFloor + " of " + rows.size() + " boxes on the floor");
        assertTrue(maxZ - minZ > 0.04, "boxes lie on various faces: heights " + minZ + " to " + maxZ);
    }

    @Test
    void aControllerTravelsWithTheJob() {
        List<RolloutSpec> specs = DroppedBox.drops(40, 7);
        // a push up and sideways that depends on the rollout (its seed's sign) and the time: the same on every
        // worker only if the factory and what it captures arrive intact
        double gain = 4.0;
        RolloutJob.Controllers push = (spec, system) -> {
            double sideways = spec.seed() < 0 ? -gain : gain;
            return s -> {
                s.input()[3] = sideways * s.time();
                s.input()[5] = gain;
            };
        };
        List<RolloutResult<FinalState>> threads = onThreads(specs, 2, push);
        List<RolloutResult<FinalState>> free = onThreads(specs, 1, (s, sys) -> Controller.NONE);
        List<Row> rows = collectSorted(SparkRollouts.run(SparkRollouts.specs(spark, specs, 3),
                RolloutJob.modelFile(DroppedBox.FILE_NAME, DroppedBox.URDF).withController(push)));
        assertSameBits(threads, rows);
        for (int i = 0; i < specs.size(); i++) {
            assertFalse(threads.get(i).outcome().sameBits(free.get(i).outcome()), "the push moved rollout " + i);
        }
    }

    @Test
    void aFailingSpecificationIsReportedInItsRowAndTheOthersComplete() {
        List<RolloutSpec> specs = new ArrayList<>(DroppedBox.drops(12, 5));
        double[] nanQ = specs.get(3).q0();
        nanQ[2] = Double.NaN;
        specs.set(3, new RolloutSpec(nanQ, specs.get(3).v0(), specs.get(3).parameters(), 1, DroppedBox.DURATION,
                DroppedBox.TIME_STEP));
        specs.set(7, specs.get(7).withParameter("stiffness", 1e4));
        specs.set(9, specs.get(9).withParameter("friction", -0.5));
        specs.set(10, new RolloutSpec(new double[3], new double[6], new TreeMap<>(), 0, 0.1, 1e-3));

        Dataset<Row> table = SparkRollouts.specs(spark, specs, 3);
        // and a row that is no specification at all: its q0 is null
        Row nullQ0 = RowFactory.create(12L, null, ArraySeq.unsafeWrapArray(new double[6]),
                scala.collection.immutable.Map$.MODULE$.empty(), 0L, 0.1, 1e-3);
        Dataset<Row> withNull = table.union(spark.createDataFrame(List.of(nullQ0), nullableSpecSchema()));
        List<Row> rows = collectSorted(SparkRollouts.run(withNull,
                RolloutJob.modelFile(DroppedBox.FILE_NAME, DroppedBox.URDF)));

        assertEquals(13, rows.size());
        assertSameBits(onThreads(specs, 2, (s, sys) -> Controller.NONE), rows.subList(0, 12));
        assertEquals(RolloutFailure.Kind.INVALID_SPEC, RolloutRows.failureKind(rows.get(3)));
        assertTrue(RolloutRows.failureMessage(rows.get(3)).contains("NaN"), RolloutRows.failureMessage(rows.get(3)));
        assertTrue(Double.isNaN(rows.get(3).getDouble(5)), "no time for a rollout that could not start");
        assertNull(rows.get(3).get(6));
        assertEquals(RolloutFailure.Kind.INVALID_SPEC, RolloutRows.failureKind(rows.get(7)));
        assertTrue(RolloutRows.failureMessage(rows.get(7)).contains("stiffness"),
                RolloutRows.failureMessage(rows.get(7)));
        assertEquals(RolloutFailure.Kind.INVALID_SPEC, RolloutRows.failureKind(rows.get(9)));
        assertTrue(RolloutRows.failureMessage(rows.get(9)).contains("friction"),
                RolloutRows.failureMessage(rows.get(9)));
        assertTrue(RolloutRows.failureMessage(rows.get(10)).contains("nq = 7"),
                RolloutRows.failureMessage(rows.get(10)));
        assertEquals(RolloutFailure.Kind.INVALID_SPEC, RolloutRows.failureKind(rows.get(12)));
        assertEquals("column q0 is null", RolloutRows.failureMessage(rows.get(12)));
        int completed = 0;
        for (int i = 0; i < 12; i++) {
            if (!RolloutRows.failed(rows.get(i))) {
                completed++;
                assertEquals(Math.round(DroppedBox.DURATION / DroppedBox.TIME_STEP), RolloutRows.steps(rows.get(i)));
            }
        }
        assertEquals(8, completed);
    }

    private static org.apache.spark.sql.types.StructType nullableSpecSchema() {
        org.apache.spark.sql.types.StructType s = new org.apache.spark.sql.types.StructType();
        for (var f : RolloutRows.SPEC_SCHEMA.fields()) {
            s = s.add(f.name(), f.dataType(), true);
        }
        return s;
    }

    @Test
    void tablesGoThroughParquetUnchanged(@TempDir Path folder) {
        List<RolloutSpec> specs = new ArrayList<>(DroppedBox.drops(30, 11));
        // the numbers a text round trip would change or lose: −0.0, NaN, a subnormal, the extremes
        specs.set(0, new RolloutSpec(new double[] {-0.0, Double.MIN_VALUE, 0.1 + 0.2, Double.NaN, 1, 0, 0},
                new double[] {Double.MAX_VALUE, -Double.MIN_NORMAL, 0, 0, 0, Math.PI}, new TreeMap<>(),
                Long.MIN_VALUE, DroppedBox.DURATION, DroppedBox.TIME_STEP).withParameter("friction", 1.0 / 3));
        Dataset<Row> specTable = SparkRollouts.specs(spark, specs, 2);
        String specPath = folder.resolve("specs").toString();
        specTable.write().parquet(specPath);
        List<Row> specRows = new ArrayList<>(spark.read().parquet(specPath).select(
                RolloutRows.specColumns().stream().map(org.apache.spark.sql.functions::col)
                        .toArray(org.apache.spark.sql.Column[]::new)).collectAsList());
        specRows.sort(Comparator.comparingLong(RolloutRows::index));
        assertEquals(specs.size(), specRows.size());
        for (int i = 0; i < specs.size(); i++) {
            RolloutSpec back = RolloutRows.spec(specRows.get(i));
            assertEquals(specs.get(i), back);
            assertBits(specs.get(i).q0(), back.q0());
            assertBits(specs.get(i).v0(), back.v0());
        }

        Dataset<Row> results = SparkRollouts.run(spark.read().parquet(specPath),
                RolloutJob.modelFile(DroppedBox.FILE_NAME, DroppedBox.URDF)).cache();
        String resultPath = folder.resolve("results").toString();
        SparkRollouts.writeParquet(results, resultPath);
        List<Row> written = collectSorted(results);
        List<Row> read = collectSorted(SparkRollouts.readParquet(spark, resultPath));
        assertEquals(RolloutRows.RESULT_SCHEMA.fieldNames().length, read.get(0).length());
        assertEquals(written.size(), read.size());
        assertTrue(RolloutRows.failed(read.get(0)), "the NaN specification fails");
        for (int i = 0; i < written.size(); i++) {
            Row w = written.get(i);
            Row r = read.get(i);
            assertEquals(RolloutRows.index(w), RolloutRows.index(r));
            assertEquals(RolloutRows.failed(w), RolloutRows.failed(r));
            assertEquals(RolloutRows.failureKind(w), RolloutRows.failureKind(r));
            assertEquals(RolloutRows.failureMessage(w), RolloutRows.failureMessage(r));
            assertEquals(RolloutRows.steps(w), RolloutRows.steps(r));
            assertEquals(Double.doubleToRawLongBits(w.getDouble(5)), Double.doubleToRawLongBits(r.getDouble(5)));
            if (!RolloutRows.failed(w)) {
                assertTrue(RolloutRows.finalState(w).sameBits(RolloutRows.finalState(r)), "row " + i);
            }
        }
        results.unpersist();
    }

    private static void assertBits(double[] expected, double[] actual) {
        assertEquals(expected.length, actual.length);
        for (int i = 0; i < expected.length; i++) {
            assertEquals(Double.doubleToRawLongBits(expected[i]), Double.doubleToRawLongBits(actual[i]),
                    "element " + i + ": " + Arrays.toString(actual));
        }
    }

    @Test
    void aTableOfOtherTypesIsRefusedNamingTheColumn() {
        Dataset<Row> specs = SparkRollouts.specs(spark, DroppedBox.drops(2, 1), 1);
        Dataset<Row> floats = specs.withColumn("duration", specs.col("duration").cast("float"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SparkRollouts.run(floats, RolloutJob.modelFile(DroppedBox.FILE_NAME, DroppedBox.URDF)));
        assertTrue(e.getMessage().contains("column duration is float"), e.getMessage());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> SparkRollouts.run(specs.drop("seed"), RolloutJob.modelFile(DroppedBox.FILE_NAME,
                        DroppedBox.URDF)));
        assertTrue(missing.getMessage().contains("seed"), missing.getMessage());
    }

    @Test
    void aBadJobFailsOnTheDriver() {
        Dataset<Row> specs = SparkRollouts.specs(spark, DroppedBox.drops(2, 1), 1);
        RolloutJob broken = RolloutJob.modelFile("models/broken.urdf", DroppedBox.URDF.replace("<mass value=\"1\"/>",
                "<mass value=\"heavy\"/>"));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> SparkRollouts.run(specs, broken));
        assertTrue(bad.getMessage().contains("broken.urdf") && bad.getMessage().contains("mass"), bad.getMessage());
        // located at the job's file name, not at the temporary copy the job reads it through
        assertTrue(bad.getMessage().contains("\nbroken.urdf:[") && !bad.getMessage().contains("symdyn-spark-model"),
                bad.getMessage());
        IllegalArgumentException noClass = assertThrows(IllegalArgumentException.class, () -> SparkRollouts.run(specs,
                RolloutJob.generated("org.example.NoSuchDynamics", DroppedBox.FILE_NAME, DroppedBox.URDF)));
        assertTrue(noClass.getMessage().contains("org.example.NoSuchDynamics is not on the class path"),
                noClass.getMessage());
        IllegalArgumentException notModel = assertThrows(IllegalArgumentException.class,
                () -> RolloutJob.generated(String.class.getName(), DroppedBox.FILE_NAME, DroppedBox.URDF).check());
        assertTrue(notModel.getMessage().contains("is not a org.symdyn.contract.ModelFunctions"),
                notModel.getMessage());
        // the generated class of another model: nq and nv do not match the file's
        IllegalArgumentException otherModel = assertThrows(IllegalArgumentException.class,
                () -> RolloutJob.generated(org.symdyn.samples.generated.Arm7Dynamics.class.getName(),
                        DroppedBox.FILE_NAME, DroppedBox.URDF).check());
        assertTrue(otherModel.getMessage().contains("nq = 7") && otherModel.getMessage().contains(
                "not the file it was generated from"), otherModel.getMessage());
        IllegalArgumentException noFile = assertThrows(IllegalArgumentException.class,
                () -> RolloutJob.generated(org.symdyn.samples.generated.Arm7Dynamics.class.getName(),
                        model -> SystemFactory.of(model)).check());
        assertTrue(noFile.getMessage().startsWith("the job's Systems threw java.lang.NullPointerException: model"),
                noFile.getMessage());
        // A helper's finding: a collision mesh was left out without a word, and the box fell through the terrain
        // on Spark where it landed locally. The job carries the file's text alone: refused, located
        String meshy = DroppedBox.URDF.replace("<joint name=\"box_free\"", "<link name=\"terrain\"><collision>"
                + "<geometry><mesh filename=\"terrain.obj\"/></geometry></collision></link>\n"
                + "<joint name=\"terrain_fixed\" type=\"fixed\"><parent link=\"world\"/><child link=\"terrain\"/>"
                + "</joint>\n<joint name=\"box_free\"");
        IllegalArgumentException meshes = assertThrows(IllegalArgumentException.class,
                () -> RolloutJob.modelFile("meshy.urdf", meshy).check());
        assertTrue(meshes.getMessage().startsWith("the job's model file meshy.urdf has 1 collision mesh (the first at"
                + " meshy.urdf:[") && meshes.getMessage().contains("run the rollouts locally"), meshes.getMessage());
        // ... unless the job leaves them out knowingly, which every later job of it keeps
        RolloutJob knowingly = RolloutJob.modelFile("meshy.urdf", meshy).withoutCollisionMeshes();
        assertTrue(knowingly.leavesOutCollisionMeshes());
        assertSame(knowingly, knowingly.check());
        assertTrue(knowingly.withFailOnUnconverged(true).withFloatingBase(false).leavesOutCollisionMeshes());
        assertFalse(RolloutJob.modelFile("meshy.urdf", meshy).leavesOutCollisionMeshes());
    }
}
