package org.symdyn.io.sdf;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SDFormat version a file declares in {@code <sdf version="1.x">}. Versions 1.6 to 1.11 are read; the rules
 * that differ between them are asked here:
 * <ul>
 * <li>1.7: {@code <pose relative_to>}, {@code <frame attached_to>} and {@code <axis><xyz expressed_in>} (1.6 has
 * {@code <axis><use_parent_model_frame>} instead, and its {@code <pose frame>} was never given a meaning).</li>
 * <li>1.8: frames of nested models named {@code model::frame} in {@code relative_to} and joint parents and
 * children, {@code <model canonical_link>}.</li>
 * <li>1.9: {@code <pose degrees>} and {@code rotation_format}, the {@code <capsule>} and {@code <ellipsoid>}
 * shapes.</li>
 * </ul>
 *
 * @param minor the x of 1.x
 */
record SdfVersion(int minor) {
    /** The oldest version read. */
    static final int MIN_MINOR = 6;
    /** The newest version read. */
    static final int MAX_MINOR = 11;

    private static final Pattern TEXT = Pattern.compile("1\\.(\\d{1,3})");

    /** The version a {@code version} attribute names, or null when it is not of the form 1.x. */
    static SdfVersion parse(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = TEXT.matcher(text.trim());
        return m.matches() ? new SdfVersion(Integer.parseInt(m.group(1))) : null;
    }

    /** True for 1.6 to 1.11. */
    boolean isRead() {
        return minor >= MIN_MINOR && minor <= MAX_MINOR;
    }

    /** {@code relative_to}, {@code attached_to} and {@code expressed_in} exist (1.7 and later). */
    boolean hasFrameSemantics() {
        return minor >= 7;
    }

    /** {@code <pose degrees rotation_format>} and capsules (1.9 and later). */
    boolean hasPoseFormats() {
        return minor >= 9;
    }

    @Override
    public String toString() {
        return "1." + minor;
    }
}
