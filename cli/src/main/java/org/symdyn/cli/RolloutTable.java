package org.symdyn.cli;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonWriter;
import org.symdyn.model.Model;
import org.symdyn.rollout.FinalState;
import org.symdyn.rollout.RolloutFailure;
import org.symdyn.rollout.RolloutResult;

/**
 * The results of {@code symdyn rollouts}, one line per rollout in index order, as CSV or JSON lines. Every double is
 * written so that parsing it gives back the same double ({@link Double#toString} in CSV, {@link
 * JsonWriter#formatNumber} in JSON), so a results file holds the rollouts' final states bit for bit.
 *
 * <p>CSV (RFC 4180; a field with a comma, a quote or a line break in double quotes, quotes doubled): the header
 * {@code index, COLUMN..., failed, failure, steps, t, q.NAME..., v.NAME...} (the swept columns, then the model's
 * coordinate names as {@code simulate}'s {@code q_names} and {@code v_names}); a rollout's columns are empty where it
 * does not set them; a failed rollout has {@code failed} {@code true}, its failure ({@code KIND at step k (t = T s):
 * message}) and the steps it took, and empty t, q and v.
 *
 * <p>JSON lines: one compact object per line, {@code {"index", "seed", "swept": {COLUMN: value}, "failed", "failure":
 * null | {"kind", "step", "time", "message"}, "steps", "t", "q", "v"}} (t, q and v null for a failed rollout; a
 * failure's step and time null when it could not start).
 */
final class RolloutTable {
    static final String CSV = "csv";
    static final String JSONL = "jsonl";

    private static final JsonWriter COMPACT = new JsonWriter(JsonWriter.Style.COMPACT, true);

    private RolloutTable() {
    }

    /** The format a file's name implies: {@value #JSONL} for .jsonl (and .ndjson), else {@value #CSV}. */
    static String formatOf(String file) {
        String lower = file.toLowerCase(java.util.Locale.ROOT);
        return lower.endsWith(".jsonl") || lower.endsWith(".ndjson") ? JSONL : CSV;
    }

    /**
     * Writes the results to {@code out} in {@code format} ({@value #CSV} or {@value #JSONL}), each line ended by
     * LF, a line at a time (a large batch is never one string).
     */
    static void write(String format, Model model, RolloutBatchReader.Batch batch,
            List<RolloutResult<FinalState>> results, Appendable out) throws IOException {
        StringBuilder sb = new StringBuilder(64 * (8 + model.nq() + model.nv()));
        if (format.equals(CSV)) {
            List<String> header = new ArrayList<>(List.of("index"));
            header.addAll(batch.columns());
            header.addAll(List.of("failed", "failure", "steps", "t"));
            model.qNames().forEach(n -> header.add("q." + n));
            model.vNames().forEach(n -> header.add("v." + n));
            csvLine(sb, header);
            out.append(sb);
        }
        for (int i = 0; i < results.size(); i++) {
            RolloutResult<FinalState> r = results.get(i);
            double[] values = batch.values()[i];
            sb.setLength(0);
            if (format.equals(CSV)) {
                csvRow(sb, r, values, model.nq() + model.nv());
            } else {
                sb.append(COMPACT.write(json(r, batch.columns(), values))).append('\n');
            }
            out.append(sb);
        }
    }

    private static void csvRow(StringBuilder sb, RolloutResult<FinalState> r, double[] values, int stateSize) {
        List<String> row = new ArrayList<>();
        row.add(Integer.toString(r.index()));
        for (double v : values) {
            row.add(Double.isNaN(v) ? "" : Double.toString(v));
        }
        row.add(Boolean.toString(r.failed()));
        row.add(r.failed() ? r.failure().toString() : "");
        row.add(Long.toString(r.steps()));
        if (r.failed()) {
            for (int k = 0; k <= stateSize; k++) {
                row.add(""); // t, q and v: every row has every column
            }
        } else {
            FinalState f = r.outcome();
            row.add(Double.toString(f.time()));
            for (double x : f.q()) {
                row.add(Double.toString(x));
            }
            for (double x : f.v()) {
                row.add(Double.toString(x));
            }
        }
        csvLine(sb, row);
    }

    private static void csvLine(StringBuilder sb, List<String> fields) {
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            String f = fields.get(i);
            if (f.indexOf(',') >= 0 || f.indexOf('"') >= 0 || f.indexOf('\n') >= 0 || f.indexOf('\r') >= 0) {
                sb.append('"').append(f.replace("\"", "\"\"")).append('"');
            } else {
                sb.append(f);
            }
        }
        sb.append('\n');
    }

    private static JsonValue json(RolloutResult<FinalState> r, List<String> columns, double[] values) {
        JsonValue.ObjectBuilder swept = JsonValue.objectBuilder();
        for (int c = 0; c < columns.size(); c++) {
            if (!Double.isNaN(values[c])) {
                swept.put(columns.get(c), values[c]);
            }
        }
        JsonValue failure = JsonValue.nullValue();
        if (r.failed()) {
            RolloutFailure f = r.failure();
            failure = JsonValue.objectBuilder()
                    .put("kind", f.kind().name())
                    .put("step", f.step() < 0 ? JsonValue.nullValue() : JsonValue.of(f.step()))
                    .put("time", Double.isFinite(f.time()) ? JsonValue.of(f.time()) : JsonValue.nullValue())
                    .put("message", f.message())
                    .build();
        }
        JsonValue.ObjectBuilder o = JsonValue.objectBuilder()
                .put("index", r.index())
                .put("seed", JsonValue.of(Long.toString(r.spec().seed())))
                .put("swept", swept.build())
                .put("failed", JsonValue.of(r.failed()))
                .put("failure", failure)
                .put("steps", r.steps());
        if (r.failed()) {
            o.put("t", JsonValue.nullValue()).put("q", JsonValue.nullValue()).put("v", JsonValue.nullValue());
        } else {
            o.put("t", r.outcome().time()).put("q", JsonValue.array(r.outcome().q()))
                    .put("v", JsonValue.array(r.outcome().v()));
        }
        return o.build();
    }
}
