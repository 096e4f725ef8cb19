package org.symdyn.io.urdf;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.symdyn.io.Messages;
import org.symdyn.io.ValueReader;
import org.symdyn.model.ModelBuilder;

/**
 * Warnings about the base: the floating-base option ignored because the file already floats its base, or applied
 * to a root link named {@code world} without an {@code <inertial>} (a world link: the option is for files without
 * one, and the robot fixed to it then floats with it), and a model that looks free-floating (a root link with mass
 * carrying four or more limbs: a legged robot without a world link) read with its root fixed to the world, which
 * drops the root's inertia.
 */
final class FloatingBaseWarnings {
    /**
     * Movable joints on the root's rigid group that make a robot look legged: four (quadrupeds, hexapods, humanoids
     * with legs and arms), not two (a dual-arm station on a fixed torso).
     */
    static final int MIN_LIMBS = 4;
    private FloatingBaseWarnings() {
    }

    static void report(boolean floatingOption, boolean floatRoot, LinkDeclaration root, JointDeclaration firstMovable,
            KinematicTree tree, Map<String, LinkDeclaration> links, ValueReader values) {
        if (floatingOption && !floatRoot && firstMovable != null) {
            values.warning(firstMovable.element(), "the floating-base option (--floating, floatingBase) is ignored:"
                    + " the first movable joint, " + firstMovable.label() + ", is already floating, so root link '"
                    + Messages.cut(root.name()) + "' is taken as the world");
            return;
        }
        if (floatingOption) {
            if (floatRoot && root.name().equalsIgnoreCase("world") && root.inertia() == null
                    && !root.inertialBroken()) {
                values.warning(root.element(), "the floating-base option (--floating, floatingBase) floats root"
                        + " link '" + Messages.cut(root.name()) + "', which looks like a world link (no <inertial>):"
                        + " the robot fixed to it floats as one body with it; leave the option out for a robot"
                        + " fixed to the world");
            }
            return;
        }
        // The links rigidly attached to the root, and the movable joints hanging from them (the limbs).
        Set<String> rigid = new HashSet<>();
        rigid.add(root.name());
        double mass = root.inertia() == null ? 0 : root.inertia().mass();
        int limbs = 0;
        for (JointDeclaration j : tree.depthFirst()) {
            if (!rigid.contains(j.parent())) {
                continue;
            }
            if (j.movable()) {
                limbs++;
            } else {
                rigid.add(j.child());
                LinkDeclaration child = links.get(j.child());
                if (child != null && child.inertia() != null) {
                    mass += child.inertia().mass();
                }
            }
        }
        if (limbs >= MIN_LIMBS && mass > ModelBuilder.DUMMY_MASS) {
            values.warning(root.element(), "root link '" + Messages.cut(root.name()) + "' carries " + mass
                    + " kg and " + limbs + " limbs but is fixed to the world (the file has no world link and no"
                    + " floating joint), so its mass is ignored; if the robot moves freely (a legged robot), read it"
                    + " with a floating base (--floating, floatingBase)");
        }
    }
}
