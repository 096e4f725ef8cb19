package org.symdyn.io.mjcf;

import java.util.Set;
import org.symdyn.io.Messages;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;

/**
 * The {@code <compiler>} settings that change how the rest of the file is read. Several {@code <compiler>}
 * elements may appear; as in MuJoCo, each attribute keeps the last value written.
 *
 * @param degrees         {@code angle}: true (MuJoCo's default, {@code "degree"}) when angles in {@code euler},
 *                        {@code axisangle}, hinge {@code range}, {@code ref} and {@code springref} are in degrees;
 *                        false for {@code "radian"}. Quaternions, {@code xyaxes} and {@code zaxis} have no unit.
 * @param eulerseq        {@code eulerseq} (default {@code "xyz"}): three of x, y, z, X, Y, Z; a lower-case letter
 *                        rotates about the axis of the frame turned by the rotations before it (intrinsic), an
 *                        upper-case letter about the fixed parent axis (extrinsic)
 * @param autolimits      {@code autolimits} (default true): a joint whose {@code limited} is {@code auto} is limited
 *                        exactly when it has a {@code range}
 * @param meshdir         {@code meshdir} (null when absent): the directory of mesh files, relative to the model file
 * @param inertiaFromGeom {@code inertiafromgeom}: {@code "auto"} (default: a body without {@code <inertial>} takes
 *                        its inertia from its geoms), {@code "true"} (always from the geoms) or {@code "false"}
 *                        (never)
 * @param inertiaGroups   {@code inertiagrouprange} (default 0 5): the geom groups, first and last, whose geoms give
 *                        a body's inertia; geoms of other groups have none
 */
record CompilerSettings(boolean degrees, String eulerseq, boolean autolimits, String meshdir,
        String inertiaFromGeom, int[] inertiaGroups) {

    /** MuJoCo's defaults. */
    static final CompilerSettings DEFAULT = new CompilerSettings(true, "xyz", true, null, "auto", new int[] {0, 5});

    /**
     * Compiler attributes that would change masses or inertias by rules this reader does not apply; present, they
     * are errors (a model computed without them would be silently wrong).
     */
    private static final Set<String> UNSUPPORTED = Set.of("boundmass", "boundinertia", "balanceinertia",
            "settotalmass", "alignfree");
    /** Attributes read here or harmless to the dynamics. */
    private static final Set<String> READ = Set.of("angle", "eulerseq", "autolimits", "meshdir", "assetdir",
            "texturedir", "inertiafromgeom", "inertiagrouprange", "discardvisual", "strippath", "convexhull",
            "usethread", "exactmeshinertia", "saveinertial", "fitaabb", "lengthrange", "fusestatic", "coordinate");

    /** The settings of every {@code <compiler>} in {@code compilers}, in order. */
    static CompilerSettings read(MjcfSource source, Iterable<XmlElement> compilers) {
        boolean degrees = DEFAULT.degrees;
        String eulerseq = DEFAULT.eulerseq;
        boolean autolimits = DEFAULT.autolimits;
        String meshdir = null;
        String inertia = DEFAULT.inertiaFromGeom;
        int[] groups = DEFAULT.inertiaGroups;
        for (XmlElement c : compilers) {
            ValueReader v = source.values(c);
            String angle = c.attribute("angle");
            if (angle != null) {
                switch (angle.trim()) {
                    case "degree" -> degrees = true;
                    case "radian" -> degrees = false;
                    default -> v.error(c, "compiler angle '" + Messages.cut(angle) + "' is not degree or radian");
                }
            }
            String seq = c.attribute("eulerseq");
            if (seq != null) {
                if (seq.trim().matches("[xyzXYZ]{3}")) {
                    eulerseq = seq.trim();
                } else {
                    v.error(c, "compiler eulerseq '" + Messages.cut(seq) + "' is not three of x, y, z, X, Y, Z");
                }
            }
            autolimits = v.bool(c, "autolimits", autolimits, "compiler autolimits");
            if (c.attribute("meshdir") != null) {
                meshdir = c.attribute("meshdir");
            } else if (c.attribute("assetdir") != null && meshdir == null) {
                meshdir = c.attribute("assetdir");
            }
            String fromGeom = c.attribute("inertiafromgeom");
            if (fromGeom != null) {
                switch (fromGeom.trim()) {
                    case "true", "false", "auto" -> inertia = fromGeom.trim();
                    default -> v.error(c, "compiler inertiafromgeom '" + Messages.cut(fromGeom)
                            + "' is not true, false or auto");
                }
            }
            for (String a : UNSUPPORTED) {
                if (c.has(a)) {
                    v.error(c, "compiler " + a + " is not supported: it changes the model's inertias or frames by"
                            + " a rule this reader does not apply (remove it, and write the numbers it would give)");
                }
            }
            if (c.has("coordinate") && !"local".equals(c.attribute("coordinate").trim())) {
                v.error(c, "compiler coordinate '" + Messages.cut(c.attribute("coordinate")) + "' is not supported:"
                        + " frames are read as local (MuJoCo 3 reads nothing else)");
            }
            if (c.has("inertiagrouprange")) {
                double[] range = v.vector(c, "inertiagrouprange", 2, null, "compiler inertiagrouprange");
                if (range[0] != Math.rint(range[0]) || range[1] != Math.rint(range[1])
                        || Math.abs(range[0]) > Integer.MAX_VALUE || Math.abs(range[1]) > Integer.MAX_VALUE) {
                    v.error(c, "compiler inertiagrouprange must be two whole numbers (the first and last group)");
                } else {
                    groups = new int[] {(int) range[0], (int) range[1]};
                }
            }
            if (c.has("exactmeshinertia")) {
                v.warning(c, "compiler exactmeshinertia is not read: this reader takes no inertia from meshes");
            }
        }
        return new CompilerSettings(degrees, eulerseq, autolimits, meshdir, inertia, groups);
    }

    /** True if geoms of {@code group} give their body's inertia ({@code inertiagrouprange}). */
    boolean inertiaGroup(int group) {
        return group >= inertiaGroups[0] && group <= inertiaGroups[1];
    }

    /** An angle of the file in radians. */
    double radians(double angle) {
        return degrees ? angle * (Math.PI / 180) : angle;
    }

    /** True for the attributes this class knows (read or harmless). */
    static boolean known(String attribute) {
        return READ.contains(attribute) || UNSUPPORTED.contains(attribute);
    }
}
