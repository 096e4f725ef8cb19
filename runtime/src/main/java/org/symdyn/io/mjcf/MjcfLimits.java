package org.symdyn.io.mjcf;

/**
 * MuJoCo's rule for whether a range limits: a {@code <prefix>limited} attribute that is {@code true}, {@code false}
 * or {@code auto} (the default), and {@code auto} limits when the range is given and its lower bound is below its
 * upper bound ({@code range="0 0"}, the schema's default, limits nothing), under the compiler's {@code autolimits};
 * with {@code autolimits="false"} a range other than "0 0" under {@code auto} is refused, as MuJoCo refuses it. Joints' {@code range}
 * and {@code actuatorfrcrange}, and actuators' {@code ctrlrange} and {@code forcerange}, all follow it.
 */
final class MjcfLimits {
    private MjcfLimits() {
    }

    /**
     * The two numbers of {@code rangeAttribute} when the element is limited, else null (also after an error, which is
     * reported). Under {@code auto}, a range with its lower bound above its upper one is a warning (MuJoCo reads it as
     * unlimited, and so does this).
     */
    static double[] range(ResolvedElement r, String limitedAttribute, String rangeAttribute,
            CompilerSettings compiler, String label) {
        String limited = r.keyword(limitedAttribute, "auto", label + ": " + limitedAttribute, "true", "false", "auto");
        switch (limited) {
            case "false":
                return null;
            case "true":
                if (!r.has(rangeAttribute)) {
                    r.error(label + ": " + limitedAttribute + " is true but no " + rangeAttribute + " is given");
                    return null;
                }
                return r.vector(rangeAttribute, 2, null, label + ": " + rangeAttribute);
            default:
                if (!r.has(rangeAttribute)) {
                    return null;
                }
                double[] range = r.vector(rangeAttribute, 2, null, label + ": " + rangeAttribute);
                if (!compiler.autolimits()) {
                    // MuJoCo's own rule: "0 0" is no range at all
                    if (range[0] != 0 || range[1] != 0) {
                        r.error(label + ": has a " + rangeAttribute + ", " + limitedAttribute + " is auto and the"
                                + " compiler's autolimits is false; say " + limitedAttribute + "=\"true\" or"
                                + " \"false\" (MuJoCo refuses it too)");
                    }
                    return null;
                }
                if (range[0] > range[1]) {
                    r.warning(label + ": " + rangeAttribute + " " + range[0] + " " + range[1] + " has its lower bound"
                            + " above its upper bound, so under " + limitedAttribute + "=\"auto\" it limits nothing"
                            + " (as in MuJoCo)");
                }
                return range[0] < range[1] ? range : null;
        }
    }
}
