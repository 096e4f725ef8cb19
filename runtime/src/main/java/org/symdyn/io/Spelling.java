package org.symdyn.io;

import java.util.Collection;
import java.util.Locale;
import java.util.TreeSet;

/** The name a misspelt one probably meant, for "did you mean" in the readers' messages. */
public final class Spelling {
    /** Edit distance up to which a name is said to be a misspelling of another. */
    public static final int DISTANCE = 2;

    private Spelling() {
    }

    /**
     * The name of {@code known} nearest to {@code name} (case-insensitive Levenshtein distance) within
     * {@link #DISTANCE} edits, or null; a tie names the first in sorted order, so the message is the same every run.
     */
    public static String nearest(String name, Collection<String> known) {
        String best = null;
        int bestDistance = DISTANCE + 1;
        String lower = name.toLowerCase(Locale.ROOT);
        for (String k : new TreeSet<>(known)) {
            int d = distance(lower, k.toLowerCase(Locale.ROOT), bestDistance);
            if (d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return best;
    }

    /** " (did you mean 'x'?)" for the nearest known name, or "". */
    public static String suggestion(String name, Collection<String> known) {
        String near = nearest(name, known);
        return near == null ? "" : "; did you mean '" + Messages.cut(near) + "'?";
    }

    /** Levenshtein distance of a and b, or any value ≥ limit once it is certain to reach it. */
    private static int distance(String a, String b, int limit) {
        if (Math.abs(a.length() - b.length()) >= limit || a.length() > 64 || b.length() > 64) {
            return limit;
        }
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            int rowMin = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
                rowMin = Math.min(rowMin, current[j]);
            }
            if (rowMin >= limit) {
                return limit;
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
    }
}
