package org.symdyn.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.symdyn.cli.json.JsonException;
import org.symdyn.cli.json.JsonReader;
import org.symdyn.cli.json.JsonValue;

/**
 * Summarises a JMH result file ({@code -rf json -rff FILE}) by the <i>median</i> of its iteration scores, which on
 * a shared machine moves far less than JMH's mean: one line per benchmark and model (median, minimum, maximum of all
 * iterations of all forks, and {@code gc.alloc.rate.norm} when {@code -prof gc} ran), then, for every
 * {@code Generated*} benchmark that has a {@code Generic*} counterpart in the file, generic median / generated
 * median. Run: {@code java -cp benchmarks.jar org.symdyn.benchmarks.JmhSummary result.json}.
 */
public final class JmhSummary {
    private JmhSummary() {
    }

    /** One benchmark and parameter set: its iteration scores and allocation per operation (NaN if not profiled). */
    record Row(String implementation, String method, String params, double[] scores, double bytesPerOp) {
        double median() {
            double[] s = scores.clone();
            Arrays.sort(s);
            int n = s.length;
            return n % 2 == 1 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
        }

        double min() {
            return Arrays.stream(scores).min().orElse(Double.NaN);
        }

        double max() {
            return Arrays.stream(scores).max().orElse(Double.NaN);
        }
    }

    public static void main(String[] args) throws JsonException {
        if (args.length != 1) {
            System.err.println("usage: JmhSummary RESULT.json");
            System.exit(2);
        }
        List<Row> rows = read(JsonReader.read(Path.of(args[0])));
        System.out.printf("%-46s %-24s %10s %10s %10s %10s%n", "benchmark", "params", "median", "min", "max", "B/op");
        for (Row r : rows) {
            System.out.printf("%-46s %-24s %10.1f %10.1f %10.1f %10.3g%n", r.implementation + "." + r.method,
                    r.params, r.median(), r.min(), r.max(), r.bytesPerOp);
        }
        Map<String, Row> byKey = new LinkedHashMap<>();
        for (Row r : rows) {
            byKey.put(r.implementation + "|" + r.method + "|" + r.params, r);
        }
        System.out.println();
        for (Row r : rows) {
            if (r.implementation.startsWith("Generated")) {
                Row generic = byKey.get(r.implementation.replaceFirst("Generated", "Generic") + "|" + r.method + "|"
                        + r.params);
                if (generic != null) {
                    System.out.printf("%-26s %-20s generic / generated (medians) = %.2f%n", r.params, r.method,
                            generic.median() / r.median());
                }
            }
        }
    }

    static List<Row> read(JsonValue root) {
        List<Row> rows = new ArrayList<>();
        for (JsonValue b : ((JsonValue.ArrayValue) root).elements()) {
            JsonValue.ObjectValue o = (JsonValue.ObjectValue) b;
            String name = ((JsonValue.StringValue) o.get("benchmark")).value();
            String[] parts = name.split("\\.");
            StringBuilder params = new StringBuilder();
            if (o.get("params") instanceof JsonValue.ObjectValue p) {
                p.members().forEach((k, v) -> params.append(params.length() == 0 ? "" : ",")
                        .append(v instanceof JsonValue.StringValue s ? s.value() : v.toString()));
            }
            List<Double> scores = new ArrayList<>();
            JsonValue.ObjectValue primary = (JsonValue.ObjectValue) o.get("primaryMetric");
            for (JsonValue fork : ((JsonValue.ArrayValue) primary.get("rawData")).elements()) {
                for (JsonValue x : ((JsonValue.ArrayValue) fork).elements()) {
                    scores.add(((JsonValue.NumberValue) x).value());
                }
            }
            double bytes = Double.NaN;
            if (o.get("secondaryMetrics") instanceof JsonValue.ObjectValue sm
                    && sm.get("gc.alloc.rate.norm") instanceof JsonValue.ObjectValue norm
                    && norm.get("score") instanceof JsonValue.NumberValue score) {
                bytes = score.value();
            }
            rows.add(new Row(parts[parts.length - 2], parts[parts.length - 1], params.toString(),
                    scores.stream().mapToDouble(Double::doubleValue).toArray(), bytes));
        }
        return rows;
    }
}
