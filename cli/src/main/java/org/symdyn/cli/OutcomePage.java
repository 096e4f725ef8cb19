package org.symdyn.cli;

import java.util.List;
import org.symdyn.model.Model;
import org.symdyn.rollout.FinalState;
import org.symdyn.rollout.RolloutResult;

/**
 * The page of {@code symdyn rollouts --page}: one self-contained HTML file (inline CSS, JavaScript and SVG; no
 * library, no network) from the template {@code rollouts/outcome.html}, that plots an outcome of every rollout, the
 * final value of a state entry chosen in a list (each q, each v), against each swept column (a scatter plot per
 * column; against the rollout's index when nothing was swept). At first the entry is the one {@code view} plots
 * first ({@link MotionPage#defaultSignal}: a floating base's height, else the first coordinate). A failed rollout has
 * no final state: it is a red cross on the plot's bottom edge at its swept value, its failure in its tooltip.
 *
 * <p>Data (a JavaScript object literal): {@code columns} (names), {@code values} (per rollout, its value in each
 * column, null where it has none), {@code entries} ("q NAME", "v NAME"), {@code entry} (the first shown),
 * {@code index}, {@code failed}, {@code failures} (the failure's text or null) and {@code final} (per rollout the
 * final q then v, or null when it failed). Numbers have a float's precision: the page shows them, the results file
 * keeps them exactly. Like the view page, it marks its body with {@code data-drawn="1"} once drawn and records any
 * script error in {@code data-errors}.
 */
final class OutcomePage {
    /** Where the template's data goes. */
    static final String DATA_MARK = "/*SYMDYN_DATA*/null";
    /** Where the template's title goes. */
    static final String TITLE_MARK = "SYMDYN_TITLE";

    private OutcomePage() {
    }

    /** The page of a batch's results, in index order. */
    static String html(Model model, RolloutBatchReader.Batch batch, List<RolloutResult<FinalState>> results) {
        String template = MotionPage.text("rollouts/outcome.html");
        for (String mark : List.of(DATA_MARK, TITLE_MARK)) {
            if (!template.contains(mark)) {
                throw new IllegalStateException("the page template has no mark " + mark);
            }
        }
        template = template.replace(TITLE_MARK, MotionPage.htmlText("SymDyn rollouts: " + model.name()));
        int at = template.indexOf(DATA_MARK);
        return template.substring(0, at) + data(model, batch, results) + template.substring(at + DATA_MARK.length());
    }

    static String data(Model model, RolloutBatchReader.Batch batch, List<RolloutResult<FinalState>> results) {
        StringBuilder sb = new StringBuilder(1 << 14);
        sb.append("{\n\"columns\": [");
        for (int c = 0; c < batch.columns().size(); c++) {
            sb.append(c == 0 ? "" : ", ").append(MotionPage.jsString(batch.columns().get(c)));
        }
        sb.append("],\n\"entries\": [");
        boolean first = true;
        for (String name : model.qNames()) {
            sb.append(first ? "" : ", ").append(MotionPage.jsString("q " + name));
            first = false;
        }
        for (String name : model.vNames()) {
            sb.append(first ? "" : ", ").append(MotionPage.jsString("v " + name));
            first = false;
        }
        sb.append("],\n\"entry\": ").append(MotionPage.defaultSignal(model));
        StringBuilder index = new StringBuilder();
        StringBuilder failed = new StringBuilder();
        StringBuilder failures = new StringBuilder();
        StringBuilder values = new StringBuilder();
        StringBuilder finals = new StringBuilder();
        for (int i = 0; i < results.size(); i++) {
            RolloutResult<FinalState> r = results.get(i);
            String sep = i == 0 ? "" : ",";
            index.append(sep).append(r.index());
            failed.append(sep).append(r.failed());
            failures.append(sep).append(r.failed() ? MotionPage.jsString(r.failure().toString()) : "null");
            values.append(sep).append('\n').append('[');
            double[] row = batch.values()[i];
            for (int c = 0; c < row.length; c++) {
                values.append(c == 0 ? "" : ",").append(Double.isNaN(row[c]) ? "null" : MotionPage.number(row[c]));
            }
            values.append(']');
            finals.append(sep).append('\n');
            if (r.failed()) {
                finals.append("null");
            } else {
                double[] q = r.outcome().q();
                double[] v = r.outcome().v();
                double[] qv = new double[q.length + v.length];
                System.arraycopy(q, 0, qv, 0, q.length);
                System.arraycopy(v, 0, qv, q.length, v.length);
                MotionPage.numbers(finals, qv);
            }
        }
        sb.append(",\n\"index\": [").append(index).append("],\n\"failed\": [").append(failed)
                .append("],\n\"failures\": [").append(failures).append("],\n\"values\": [").append(values)
                .append("],\n\"final\": [").append(finals).append("]\n}");
        return sb.toString();
    }
}
