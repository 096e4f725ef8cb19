package org.symdyn.spark;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.symdyn.rollout.FinalState;
import org.symdyn.rollout.RolloutFailure;
import org.symdyn.rollout.RolloutResult;
import org.symdyn.rollout.RolloutSpec;
import scala.collection.immutable.ArraySeq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The two tables of a Spark batch and the exact conversions between their rows and {@link RolloutSpec} /
 * {@link RolloutResult}: every number is carried as the same {@code double} (or {@code long}) it was, never through
 * text, so a specification read back from a row, or from Parquet, is {@link RolloutSpec#equals equal} to the one
 * written, NaN and −0.0 included.
 *
 * <p><b>Specifications</b> ({@link #SPEC_SCHEMA}; other columns of an input are ignored):
 * <table>
 * <caption>Specification columns</caption>
 * <tr><th>column</th><th>type</th><th>meaning</th></tr>
 * <tr><td>index</td><td>long</td><td>the rollout's key, copied to its result (unique by convention)</td></tr>
 * <tr><td>q0</td><td>array&lt;double&gt;</td><td>initial configuration (nq)</td></tr>
 * <tr><td>v0</td><td>array&lt;double&gt;</td><td>initial velocity (nv)</td></tr>
 * <tr><td>parameters</td><td>map&lt;string,double&gt;</td><td>parameter values by name
 * ({@link org.symdyn.rollout.RolloutParameters})</td></tr>
 * <tr><td>seed</td><td>long</td><td>the sensors' noise seed</td></tr>
 * <tr><td>duration</td><td>double</td><td>simulated time, s</td></tr>
 * <tr><td>timeStep</td><td>double</td><td>the step h, s</td></tr>
 * </table>
 *
 * <p><b>Results</b> ({@link #RESULT_SCHEMA}), one row per specification row:
 * <table>
 * <caption>Result columns</caption>
 * <tr><th>column</th><th>type</th><th>meaning</th></tr>
 * <tr><td>index</td><td>long</td><td>the specification's index</td></tr>
 * <tr><td>failed</td><td>boolean</td><td>whether the rollout stopped early</td></tr>
 * <tr><td>failureKind</td><td>string</td><td>{@link RolloutFailure.Kind}'s name, or null</td></tr>
 * <tr><td>failureMessage</td><td>string</td><td>what went wrong ({@link RolloutFailure#message()}), or null</td></tr>
 * <tr><td>steps</td><td>long</td><td>steps taken (before the failure, for a failed rollout)</td></tr>
 * <tr><td>time</td><td>double</td><td>the final time, s; for a failed rollout the time at the start of the step
 * that failed (NaN when it could not start)</td></tr>
 * <tr><td>q</td><td>array&lt;double&gt;</td><td>final configuration, null when failed</td></tr>
 * <tr><td>v</td><td>array&lt;double&gt;</td><td>final velocity, null when failed</td></tr>
 * </table>
 */
public final class RolloutRows {
    private static final DataType DOUBLES = DataTypes.createArrayType(DataTypes.DoubleType, false);

    /** The specification table's columns, in this order. */
    public static final StructType SPEC_SCHEMA = new StructType(new StructField[] {
            DataTypes.createStructField("index", DataTypes.LongType, false),
            DataTypes.createStructField("q0", DOUBLES, false),
            DataTypes.createStructField("v0", DOUBLES, false),
            DataTypes.createStructField("parameters",
                    DataTypes.createMapType(DataTypes.StringType, DataTypes.DoubleType, false), false),
            DataTypes.createStructField("seed", DataTypes.LongType, false),
            DataTypes.createStructField("duration", DataTypes.DoubleType, false),
            DataTypes.createStructField("timeStep", DataTypes.DoubleType, false)});

    /** The result table's columns, in this order. */
    public static final StructType RESULT_SCHEMA = new StructType(new StructField[] {
            DataTypes.createStructField("index", DataTypes.LongType, false),
            DataTypes.createStructField("failed", DataTypes.BooleanType, false),
            DataTypes.createStructField("failureKind", DataTypes.StringType, true),
            DataTypes.createStructField("failureMessage", DataTypes.StringType, true),
            DataTypes.createStructField("steps", DataTypes.LongType, false),
            DataTypes.createStructField("time", DataTypes.DoubleType, false),
            DataTypes.createStructField("q", DOUBLES, true),
            DataTypes.createStructField("v", DOUBLES, true)});

    private static final int INDEX = 0;
    private static final int Q0 = 1;
    private static final int V0 = 2;
    private static final int PARAMETERS = 3;
    private static final int SEED = 4;
    private static final int DURATION = 5;
    private static final int TIME_STEP = 6;

    private static final int FAILED = 1;
    private static final int FAILURE_KIND = 2;
    private static final int FAILURE_MESSAGE = 3;
    private static final int STEPS = 4;
    private static final int TIME = 5;
    private static final int Q = 6;
    private static final int V = 7;

    private RolloutRows() {
    }

    /** The row of {@code spec} with key {@code index} ({@link #SPEC_SCHEMA}'s columns). */
    public static Row specRow(long index, RolloutSpec spec) {
        return RowFactory.create(index, seq(spec.q0()), seq(spec.v0()),
                CollectionConverters.asScala(new TreeMap<>(spec.parameters())), spec.seed(), spec.duration(),
                spec.timeStep());
    }

    /** The key of a specification or result row. */
    public static long index(Row row) {
        if (row.isNullAt(INDEX)) {
            throw new IllegalArgumentException("a rollout row without an index (its result could not be keyed:"
                    + " filter rows whose index is null before SparkRollouts.run)");
        }
        return row.getLong(INDEX);
    }

    /**
     * The specification of a row with {@link #SPEC_SCHEMA}'s columns in that order.
     *
     * @throws IllegalArgumentException naming the column, if one is null (a rollout that cannot run)
     */
    public static RolloutSpec spec(Row row) {
        for (int i = 0; i < SPEC_SCHEMA.size(); i++) {
            if (row.isNullAt(i)) {
                throw new IllegalArgumentException("column " + SPEC_SCHEMA.fields()[i].name() + " is null");
            }
        }
        Map<String, Double> parameters = new TreeMap<>();
        for (Map.Entry<Object, Object> e : javaMap(row.get(PARAMETERS)).entrySet()) {
            if (e.getValue() == null) {
                throw new IllegalArgumentException("parameter " + e.getKey() + " is null");
            }
            parameters.put((String) e.getKey(), (Double) e.getValue());
        }
        return new RolloutSpec(doubles(row.get(Q0), "q0"), doubles(row.get(V0), "v0"), new TreeMap<>(parameters),
                row.getLong(SEED), row.getDouble(DURATION), row.getDouble(TIME_STEP));
    }

    /** The result row of the rollout of key {@code index} ({@link #RESULT_SCHEMA}'s columns). */
    public static Row resultRow(long index, RolloutResult<FinalState> result) {
        RolloutFailure f = result.failure();
        if (f != null) {
            return RowFactory.create(index, true, f.kind().name(), f.message(), result.steps(), f.time(), null, null);
        }
        FinalState s = result.outcome();
        return RowFactory.create(index, false, null, null, result.steps(), s.time(), seq(s.q()), seq(s.v()));
    }

    /** The result row of a specification row that is no {@link RolloutSpec} (a null column). */
    static Row invalidRow(long index, String message) {
        return RowFactory.create(index, true, RolloutFailure.Kind.INVALID_SPEC.name(), message, 0L, Double.NaN, null,
                null);
    }

    /** Whether a result row is of a failed rollout. */
    public static boolean failed(Row result) {
        return result.getBoolean(FAILED);
    }

    /** The failure's kind of a result row, or null when the rollout completed. */
    public static RolloutFailure.Kind failureKind(Row result) {
        return result.isNullAt(FAILURE_KIND) ? null : RolloutFailure.Kind.valueOf(result.getString(FAILURE_KIND));
    }

    /** The failure's message of a result row, or null when the rollout completed. */
    public static String failureMessage(Row result) {
        return result.isNullAt(FAILURE_MESSAGE) ? null : result.getString(FAILURE_MESSAGE);
    }

    /** The steps a result row's rollout took. */
    public static long steps(Row result) {
        return result.getLong(STEPS);
    }

    /** The final state of a result row ({@link #RESULT_SCHEMA}), or null when the rollout failed. */
    public static FinalState finalState(Row result) {
        if (failed(result)) {
            return null;
        }
        return new FinalState(result.getDouble(TIME), doubles(result.get(Q), "q"), doubles(result.get(V), "v"));
    }

    /**
     * An array column's numbers: Spark gives a Scala sequence (or, in a row made in Java, a {@code double[]} or a
     * {@link List}), each element the boxed double itself.
     */
    static double[] doubles(Object column, String name) {
        if (column instanceof double[] a) {
            return a.clone();
        }
        Iterator<?> it;
        int size;
        if (column instanceof scala.collection.Seq<?> s) {
            it = CollectionConverters.asJava(s.iterator());
            size = s.size();
        } else if (column instanceof List<?> l) {
            it = l.iterator();
            size = l.size();
        } else {
            throw new IllegalArgumentException("column " + name + " is no array of doubles: "
                    + (column == null ? "null" : column.getClass().getName()));
        }
        double[] out = new double[size];
        for (int i = 0; i < size; i++) {
            Object x = it.next();
            if (!(x instanceof Double d)) {
                throw new IllegalArgumentException("column " + name + " has " + (x == null ? "a null" : "a "
                        + x.getClass().getSimpleName()) + " at " + i + "; it holds doubles");
            }
            out[i] = d;
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<Object, Object> javaMap(Object column) {
        if (column instanceof scala.collection.Map<?, ?> m) {
            return CollectionConverters.asJava((scala.collection.Map<Object, Object>) m);
        }
        if (column instanceof Map<?, ?> m) {
            return (Map<Object, Object>) m;
        }
        throw new IllegalArgumentException("column parameters is no map: " + column.getClass().getName());
    }

    /** A Scala sequence over the array (not copied), the external type of an array column. */
    private static ArraySeq<Object> seq(double[] a) {
        return ArraySeq.unsafeWrapArray(a);
    }

    /** The names of {@link #SPEC_SCHEMA}'s columns. */
    static List<String> specColumns() {
        List<String> names = new ArrayList<>();
        for (StructField f : SPEC_SCHEMA.fields()) {
            names.add(f.name());
        }
        return names;
    }
}
