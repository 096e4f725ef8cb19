package org.symdyn.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.symdyn.rollout.RolloutSpec;
import org.symdyn.rollout.RolloutWorker;
import org.symdyn.rollout.Rollouts;

/**
 * A batch of rollouts as a Spark job: each task of {@code mapPartitions} makes one {@link RolloutWorker} (one model
 * instance, the model file read once) and runs its partition's specification rows one after another with the final
 * state as outcome. A rollout's result is a function of its specification alone, so the table has the same bits as
 * {@link Rollouts} on any number of threads, whatever the partitioning, the executors and their order (tasks that
 * Spark retries or runs speculatively give the same rows again).
 *
 * <pre>
 *   Dataset&lt;Row&gt; specs = SparkRollouts.specs(spark, mySpecs, 64);         // or any table of RolloutRows.SPEC_SCHEMA
 *   Dataset&lt;Row&gt; results = SparkRollouts.run(specs, RolloutJob.modelFile("box.urdf", text));
 *   SparkRollouts.writeParquet(results, "hdfs:///runs/box");                // runs the job
 * </pre>
 *
 * The tables' columns are {@link RolloutRows}'. The result is lazy, as Spark's are: every action on it runs the
 * rollouts again (with the same bits), so {@code cache()} it, or write it and read the file, before several
 * actions.
 */
public final class SparkRollouts {
    private SparkRollouts() {
    }

    /**
     * A specification table of {@code specs}, the key of each its position in the list, in {@code partitions}
     * partitions (Spark's tasks: a few per executor core evens out rollouts of different lengths).
     */
    public static Dataset<Row> specs(SparkSession spark, List<RolloutSpec> specs, int partitions) {
        Objects.requireNonNull(spark, "spark");
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
        }
        List<Row> rows = new ArrayList<>(specs.size());
        for (int i = 0; i < specs.size(); i++) {
            rows.add(RolloutRows.specRow(i, Objects.requireNonNull(specs.get(i), "null specification")));
        }
        JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
        return spark.createDataFrame(context.parallelize(rows, partitions), RolloutRows.SPEC_SCHEMA);
    }

    /**
     * The results of every specification row of {@code specs} ({@link RolloutRows#RESULT_SCHEMA}, one row per
     * specification, in the same partitions), computed when an action asks for them.
     *
     * @param specs a table with {@link RolloutRows#SPEC_SCHEMA}'s columns (by name; others are ignored)
     * @param job   the model, systems and controller every task uses
     * @throws IllegalArgumentException naming the column, if one is missing or of another type; or saying what is
     *                                  wrong with the job ({@link RolloutJob#check})
     */
    public static Dataset<Row> run(Dataset<Row> specs, RolloutJob job) {
        Objects.requireNonNull(specs, "specs");
        Objects.requireNonNull(job, "job");
        List<String> have = List.of(specs.columns());
        for (String name : RolloutRows.specColumns()) {
            if (!have.contains(name)) {
                throw new IllegalArgumentException("the specification table has no column " + name + "; its columns"
                        + " are " + RolloutRows.SPEC_SCHEMA.simpleString() + " (it has " + have + ")");
            }
        }
        Dataset<Row> columns = specs.select(RolloutRows.specColumns().stream().map(functions::col)
                .toArray(Column[]::new));
        checkTypes(columns.schema());
        job.check();
        return columns.mapPartitions(new PartitionRollouts(job), Encoders.row(RolloutRows.RESULT_SCHEMA));
    }

    /**
     * Runs the job of {@code results} and writes its table as Parquet to {@code path} (a folder of part files, one
     * per partition; Spark refuses a path that exists).
     */
    public static void writeParquet(Dataset<Row> results, String path) {
        Objects.requireNonNull(path, "path");
        results.write().parquet(path);
    }

    /** The result table written by {@link #writeParquet}. */
    public static Dataset<Row> readParquet(SparkSession spark, String path) {
        return spark.read().schema(RolloutRows.RESULT_SCHEMA).parquet(path);
    }

    private static void checkTypes(StructType schema) {
        for (StructField want : RolloutRows.SPEC_SCHEMA.fields()) {
            DataType have = schema.apply(want.name()).dataType();
            if (!sameType(have, want.dataType())) {
                throw new IllegalArgumentException("column " + want.name() + " is " + have.simpleString()
                        + "; a rollout specification's is " + want.dataType().simpleString()
                        + " (doubles are carried as doubles, not cast)");
            }
        }
    }

    /** Equal types, nullability of elements and values aside (a table read from a file has nullable ones). */
    private static boolean sameType(DataType have, DataType want) {
        if (have instanceof ArrayType a && want instanceof ArrayType b) {
            return sameType(a.elementType(), b.elementType());
        }
        if (have instanceof MapType a && want instanceof MapType b) {
            return sameType(a.keyType(), b.keyType()) && sameType(a.valueType(), b.valueType());
        }
        return have.equals(want);
    }
}
