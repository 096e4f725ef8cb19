package org.symdyn.samples;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A small hand-written SVG line chart: a title, one legend row for all panels, and panels stacked vertically that
 * share the x axis range, each with a linear or logarithmic y axis, ticks, tick labels, axis labels and a frame.
 * Series are drawn as polylines clipped to their panel; long series are thinned to the first, smallest, largest and
 * last point of every pixel column, which keeps spikes and bands visible. Non-finite points are skipped (a gap);
 * on a log axis, values at or below the axis minimum are drawn at the minimum.
 *
 * <p>No dependencies: the output is plain SVG 1.1 text that browsers and rsvg render alike.
 */
public final class SvgPlot {
    /** One line: its legend label, stroke colour (CSS), dash pattern (null for solid), and the points. */
    public record Series(String label, String color, String dash, double[] x, double[] y) {
    }

    /**
     * One panel: its title, the y quantity and its unit (shown as "name (unit)", with a common power of ten of a
     * linear axis put in front of the unit), log or linear y, the lower end of a log axis ({@code yMinimum}, NaN:
     * from the data; ignored for a linear axis), and the series.
     */
    public record Panel(String title, String yName, String yUnit, boolean logY, double yMinimum,
            List<Series> series) {
    }

    private static final String FONT = "DejaVu Sans, Helvetica, Arial, sans-serif";
    private static final int WIDTH = 960;
    private static final int LEFT = 100;
    private static final int RIGHT = 30;
    private static final int HEADER_TOP = 72;
    private static final int LINE = 18;
    private static final int PANEL_TITLE = 34;
    private static final int PLOT_HEIGHT = 250;
    private static final int PANEL_BOTTOM = 62;
    private static final int FOOTER = 34;

    private final String title;
    private final String[] subtitle;
    private final String xLabel;
    private final String[] footnote;
    private final List<Panel> panels = new ArrayList<>();
    private final List<Series> legend = new ArrayList<>();

    /**
     * @param title    the figure's title
     * @param subtitle lines under it, separated by '\n' (may be null)
     * @param xLabel   the x axis label with its unit, shown under every panel
     * @param footnote lines at the bottom, separated by '\n' (may be null)
     */
    public SvgPlot(String title, String subtitle, String xLabel, String footnote) {
        this.title = title;
        this.subtitle = subtitle == null ? new String[0] : subtitle.split("\n");
        this.xLabel = xLabel;
        this.footnote = footnote == null ? new String[0] : footnote.split("\n");
    }

    /** Adds a panel below the previous ones; its series' labels join the legend (each label once). */
    public SvgPlot panel(Panel panel) {
        panels.add(panel);
        for (Series s : panel.series()) {
            if (legend.stream().noneMatch(l -> l.label().equals(s.label()))) {
                legend.add(s);
            }
        }
        return this;
    }

    /** The SVG document. */
    public String render() {
        if (panels.isEmpty()) {
            throw new IllegalStateException("no panel");
        }
        double xMin = Double.POSITIVE_INFINITY;
        double xMax = Double.NEGATIVE_INFINITY;
        for (Panel p : panels) {
            for (Series s : p.series()) {
                for (double x : s.x()) {
                    if (Double.isFinite(x)) {
                        xMin = Math.min(xMin, x);
                        xMax = Math.max(xMax, x);
                    }
                }
            }
        }
        if (!(xMax > xMin)) {
            xMin = Double.isFinite(xMin) ? xMin - 0.5 : 0;
            xMax = xMin + 1;
        }
        Axis xAxis = Axis.linear(xMin, xMax, 10, false);
        int panelHeight = PANEL_TITLE + PLOT_HEIGHT + PANEL_BOTTOM;
        int header = HEADER_TOP + LINE * subtitle.length;
        int height = header + panels.size() * panelHeight + FOOTER + 15 * Math.max(0, footnote.length - 1);
        int plotWidth = WIDTH - LEFT - RIGHT;

        StringBuilder svg = new StringBuilder(200_000);
        svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
                + "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"%s\">%n", WIDTH, height, WIDTH,
                height, FONT));
        svg.append("<title>").append(escape(title)).append("</title>\n");
        svg.append(String.format(Locale.ROOT, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>%n",
                WIDTH, height));
        text(svg, WIDTH / 2.0, 30, "middle", 20, "bold", title, 0);
        for (int i = 0; i < subtitle.length; i++) {
            text(svg, WIDTH / 2.0, 54 + LINE * i, "middle", 13, "normal", subtitle[i], 0);
        }
        legend(svg, header - 12);

        for (int k = 0; k < panels.size(); k++) {
            Panel p = panels.get(k);
            double top = header + k * panelHeight + PANEL_TITLE;
            double bottom = top + PLOT_HEIGHT;
            Axis yAxis = yAxis(p);
            text(svg, LEFT, top - 10, "start", 15, "bold", p.title(), 0);
            // Grid and ticks.
            svg.append("<g stroke=\"#e3e3e3\" stroke-width=\"1\">\n");
            for (double t : xAxis.ticks) {
                double x = LEFT + xAxis.fraction(t) * plotWidth;
                svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>%n", x,
                        top, x, bottom));
            }
            for (double t : yAxis.ticks) {
                double y = bottom - yAxis.fraction(t) * PLOT_HEIGHT;
                svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>%n", LEFT,
                        y, LEFT + plotWidth, y));
            }
            svg.append("</g>\n");
            for (int i = 0; i < xAxis.ticks.size(); i++) {
                double x = LEFT + xAxis.fraction(xAxis.ticks.get(i)) * plotWidth;
                line(svg, x, bottom, x, bottom + 5, "#333");
                text(svg, x, bottom + 20, "middle", 12, "normal", xAxis.labels.get(i), 0);
            }
            for (int i = 0; i < yAxis.ticks.size(); i++) {
                double y = bottom - yAxis.fraction(yAxis.ticks.get(i)) * PLOT_HEIGHT;
                line(svg, LEFT - 5, y, LEFT, y, "#333");
                text(svg, LEFT - 8, y + 4, "end", 12, "normal", yAxis.labels.get(i), 0);
            }
            // Axis labels.
            text(svg, LEFT + plotWidth / 2.0, bottom + 44, "middle", 13, "normal", xLabel, 0);
            String unit = yAxis.scaleLabel.isEmpty() ? p.yUnit() : yAxis.scaleLabel + " " + p.yUnit();
            String yLabel = p.yName() + " (" + unit + ")";
            text(svg, 22, (top + bottom) / 2, "middle", 13, "normal", yLabel, -90);
            // Series, clipped to the plot area.
            String clip = "plot" + k;
            svg.append(String.format(Locale.ROOT, "<clipPath id=\"%s\"><rect x=\"%d\" y=\"%.1f\" width=\"%d\" "
                    + "height=\"%d\"/></clipPath>%n", clip, LEFT, top, plotWidth, PLOT_HEIGHT));
            svg.append("<g clip-path=\"url(#").append(clip).append(")\" fill=\"none\" stroke-width=\"1.6\" ")
                    .append("stroke-linejoin=\"round\">\n");
            for (Series s : p.series()) {
                polyline(svg, s, xAxis, yAxis, LEFT, bottom, plotWidth);
            }
            svg.append("</g>\n");
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\" "
                    + "fill=\"none\" stroke=\"#333\" stroke-width=\"1\"/>%n", LEFT, top, plotWidth, PLOT_HEIGHT));
        }
        for (int i = 0; i < footnote.length; i++) {
            text(svg, LEFT, height - 14 - 15 * (footnote.length - 1 - i), "start", 11, "normal", footnote[i], 0);
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private void legend(StringBuilder svg, double y) {
        // Width estimate: ~7 px per character at 13 px, 40 px for the line sample and gap.
        double[] widths = new double[legend.size()];
        double total = 0;
        for (int i = 0; i < legend.size(); i++) {
            widths[i] = 36 + 7.0 * legend.get(i).label().length() + (i > 0 ? 30 : 0);
            total += widths[i];
        }
        double x = Math.max(LEFT, (WIDTH - total) / 2);
        for (int i = 0; i < legend.size(); i++) {
            Series s = legend.get(i);
            if (i > 0) {
                x += 30;
            }
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                    + "stroke=\"%s\" stroke-width=\"2.5\"%s/>%n", x, y - 4, x + 28, y - 4, s.color(),
                    dash(s.dash())));
            text(svg, x + 36, y, "start", 13, "normal", s.label(), 0);
            x += widths[i] - (i > 0 ? 30 : 0);
        }
    }

    private static Axis yAxis(Panel p) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (Series s : p.series()) {
            for (double y : s.y()) {
                if (Double.isFinite(y) && (!p.logY() || y > 0)) {
                    lo = Math.min(lo, y);
                    hi = Math.max(hi, y);
                }
            }
        }
        if (p.logY()) {
            if (!Double.isNaN(p.yMinimum())) {
                lo = p.yMinimum();
            }
            if (!(hi > 0)) {
                hi = 1;
            }
            if (!(lo > 0) || lo >= hi) {
                lo = hi / 10;
            }
            return Axis.log(lo, hi);
        }
        if (!Double.isFinite(lo)) {
            lo = 0;
            hi = 1;
        }
        return Axis.linear(lo, hi, 6, true);
    }

    private static void polyline(StringBuilder svg, Series s, Axis xAxis, Axis yAxis, int left, double bottom,
            int plotWidth) {
        // Thin to pixel columns: per column the first, min, max and last points, in their order.
        List<double[]> pts = new ArrayList<>();
        int n = Math.min(s.x().length, s.y().length);
        int column = Integer.MIN_VALUE;
        int first = -1;
        int min = -1;
        int max = -1;
        int last = -1;
        StringBuilder out = new StringBuilder();
        for (int i = 0; i <= n; i++) {
            boolean end = i == n;
            double px = 0;
            double py = 0;
            boolean valid = false;
            if (!end) {
                double yv = s.y()[i];
                if (yAxis.log && Double.isFinite(yv)) {
                    yv = Math.max(yv, yAxis.min);
                }
                valid = Double.isFinite(s.x()[i]) && Double.isFinite(yv);
                if (valid) {
                    px = left + xAxis.fraction(s.x()[i]) * plotWidth;
                    py = bottom - yAxis.fraction(yv) * PLOT_HEIGHT;
                }
            }
            int col = valid ? (int) Math.floor(px) : Integer.MIN_VALUE;
            if (end || !valid || col != column) {
                if (first >= 0) {
                    int[] order = {first, min, max, last};
                    java.util.Arrays.sort(order);
                    int prev = -1;
                    for (int idx : order) {
                        if (idx != prev) {
                            pts.add(new double[] {px(idx, s, xAxis, left, plotWidth), py(idx, s, yAxis, bottom)});
                            prev = idx;
                        }
                    }
                }
                first = min = max = last = -1;
                if (!valid) {
                    flush(out, pts, s);
                    column = Integer.MIN_VALUE;
                    continue;
                }
                column = col;
                first = min = max = last = i;
            } else {
                last = i;
                if (py > py(min, s, yAxis, bottom)) {
                    min = i;
                }
                if (py < py(max, s, yAxis, bottom)) {
                    max = i;
                }
            }
        }
        flush(out, pts, s);
        svg.append(out);
    }

    private static double px(int i, Series s, Axis xAxis, int left, int plotWidth) {
        return left + xAxis.fraction(s.x()[i]) * plotWidth;
    }

    private static double py(int i, Series s, Axis yAxis, double bottom) {
        double yv = s.y()[i];
        if (yAxis.log) {
            yv = Math.max(yv, yAxis.min);
        }
        return bottom - yAxis.fraction(yv) * PLOT_HEIGHT;
    }

    private static void flush(StringBuilder out, List<double[]> pts, Series s) {
        if (pts.isEmpty()) {
            return;
        }
        out.append("<polyline stroke=\"").append(s.color()).append('"').append(dash(s.dash())).append(" points=\"");
        for (int i = 0; i < pts.size(); i++) {
            // Keep coordinates within a sane range: clipping does the rest.
            double x = Math.max(-1e5, Math.min(1e5, pts.get(i)[0]));
            double y = Math.max(-1e5, Math.min(1e5, pts.get(i)[1]));
            out.append(String.format(Locale.ROOT, "%s%.2f,%.2f", i == 0 ? "" : " ", x, y));
        }
        out.append("\"/>\n");
        pts.clear();
    }

    private static String dash(String dash) {
        return dash == null ? "" : " stroke-dasharray=\"" + dash + "\"";
    }

    private static void line(StringBuilder svg, double x1, double y1, double x2, double y2, String color) {
        svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                + "stroke-width=\"1\"/>%n", x1, y1, x2, y2, color));
    }

    private static void text(StringBuilder svg, double x, double y, String anchor, int size, String weight,
            String content, int rotate) {
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\"%s%s "
                + "fill=\"#111\">%s</text>%n", x, y, anchor, size,
                "normal".equals(weight) ? "" : " font-weight=\"" + weight + "\"",
                rotate == 0 ? "" : String.format(Locale.ROOT, " transform=\"rotate(%d %.1f %.1f)\"", rotate, x, y),
                escape(content)));
    }

    /** XML-escapes text content and attribute values. */
    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    /** An axis: range, ticks and their labels, and for a linear axis a common power of ten (in the axis label). */
    static final class Axis {
        final boolean log;
        final double min;
        final double max;
        final List<Double> ticks = new ArrayList<>();
        final List<String> labels = new ArrayList<>();
        String scaleLabel = "";

        private Axis(boolean log, double min, double max) {
            this.log = log;
            this.min = min;
            this.max = max;
        }

        double fraction(double value) {
            if (log) {
                return (Math.log10(value) - Math.log10(min)) / (Math.log10(max) - Math.log10(min));
            }
            return (value - min) / (max - min);
        }

        /**
         * A linear axis over at least [lo, hi] with about {@code target} ticks at 1, 2 or 5 times a power of ten;
         * {@code pad} widens the range to the outer ticks (for data), else the range is kept (for time).
         */
        static Axis linear(double lo, double hi, int target, boolean pad) {
            if (!(hi > lo)) {
                double half = Math.max(Math.abs(lo) * 1e-3, 1e-12);
                lo -= half;
                hi += half;
            }
            double raw = (hi - lo) / target;
            double mag = Math.pow(10, Math.floor(Math.log10(raw)));
            double step = mag;
            for (double m : new double[] {1, 2, 2.5, 5, 10}) {
                if (m * mag >= raw) {
                    step = m * mag;
                    break;
                }
            }
            double first = Math.floor(lo / step + 1e-9) * step;
            double last = Math.ceil(hi / step - 1e-9) * step;
            Axis a = pad ? new Axis(false, first, last) : new Axis(false, lo, hi);
            double biggest = Math.max(Math.abs(first), Math.abs(last));
            int power = 0;
            if (biggest >= 1e5 || biggest < 1e-2) {
                power = (int) Math.floor(Math.log10(biggest));
            }
            double unit = Math.pow(10, power);
            int decimals = Math.max(0, -(int) Math.floor(Math.log10(step / unit) + 1e-9));
            if (Math.abs(step / unit / Math.pow(10, -decimals) - 2.5) < 1e-9) {
                decimals++;
            }
            for (int i = 0; ; i++) {
                double t = first + i * step;
                if (t > last + step * 1e-6) {
                    break;
                }
                if (t < a.min - step * 1e-6 || t > a.max + step * 1e-6) {
                    continue;
                }
                a.ticks.add(t);
                double shown = t / unit;
                if (Math.abs(shown) < step / unit * 1e-9) {
                    shown = 0; // no "-0"
                }
                a.labels.add(String.format(Locale.ROOT, "%." + decimals + "f", shown).replace('-', '\u2212'));
            }
            if (power != 0) {
                a.scaleLabel = "10" + superscript(power);
            }
            return a;
        }

        /** A log axis from the decade at or below lo to the decade at or above hi, labelled 10ⁿ. */
        static Axis log(double lo, double hi) {
            int d0 = (int) Math.floor(Math.log10(lo) + 1e-9);
            int d1 = (int) Math.ceil(Math.log10(hi) - 1e-9);
            if (d1 <= d0) {
                d1 = d0 + 1;
            }
            Axis a = new Axis(true, Math.pow(10, d0), Math.pow(10, d1));
            int every = (d1 - d0 + 7) / 8; // at most about 8 labelled decades
            for (int d = d0; d <= d1; d++) {
                if ((d - d0) % every == 0) {
                    a.ticks.add(Math.pow(10, d));
                    a.labels.add(d == 0 ? "1" : "10" + superscript(d));
                }
            }
            return a;
        }
    }

    /** An integer in Unicode superscript digits (with superscript minus). */
    static String superscript(int n) {
        String digits = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079";
        StringBuilder sb = new StringBuilder();
        for (char c : Integer.toString(n).toCharArray()) {
            sb.append(c == '-' ? '\u207b' : digits.charAt(c - '0'));
        }
        return sb.toString();
    }
}
