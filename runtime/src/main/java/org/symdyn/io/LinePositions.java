package org.symdyn.io;

import java.util.ArrayList;
import java.util.List;

/**
 * Line and column of the characters of a document, counted as the XML parser counts them: lines end at LF, CR LF or
 * a lone CR, and both numbers start at 1.
 */
final class LinePositions {
    private final String text;
    private final int[] lineStarts;

    /** Finds where each line of {@code text} starts. */
    LinePositions(String text) {
        this.text = text;
        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == '\n' || (ch == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n'))) {
                starts.add(i + 1);
            }
        }
        lineStarts = starts.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The (line, column) of the {@code <} of the tag that ends just before (line, column); else the input. SAX
     * reports the position just after the {@code >} of a start tag; the tag begins at the nearest {@code <} before
     * it, because {@code <} cannot occur inside a tag (not even in attribute values).
     */
    int[] startOfTag(int line, int column) {
        int[] fallback = {line, column};
        if (line < 1 || line > lineStarts.length || column < 2) {
            return fallback;
        }
        int gt = lineStarts[line - 1] + column - 2;
        if (gt >= text.length() || text.charAt(gt) != '>') {
            return fallback; // positions inside entity text, or a decoding that differs from the parser's
        }
        int lt = text.lastIndexOf('<', gt);
        if (lt < 0) {
            return fallback;
        }
        int l = lineOf(lt);
        return new int[] {l + 1, lt - lineStarts[l] + 1};
    }

    /** The 1-based line and column of a character offset. */
    int[] of(int offset) {
        int l = lineOf(offset);
        return new int[] {l + 1, offset - lineStarts[l] + 1};
    }

    private int lineOf(int offset) {
        int lo = 0;
        int hi = lineStarts.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (lineStarts[mid] <= offset) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }
}
