package org.symdyn.cli;

import org.symdyn.contract.DeviceSpec;
import org.symdyn.contract.SpringDamperSpec;
import org.symdyn.model.Body;
import org.symdyn.model.CollisionShapeModel;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;

/**
 * Whether a simulation lets a floating body fall for ever: the model has gravity and a body on a floating joint, and
 * nothing can stop it. Something could when the model has something fixed in the world to land on (a ground, or a
 * collision shape fixed in the world) and something on a moving body to land with (a contact candidate, or a
 * collision shape on a moving body), or when a constraint or a spring might hold it. A fixed-base arm without a
 * ground needs no such warning: its joints hold it.
 */
final class FreeFall {
    private FreeFall() {
    }

    /**
     * The warning, {@code path:[line,col] warning: ...} at the first floating body's joint, or null when the model
     * is not in free fall.
     */
    static String warning(Model model) {
        double[] g = model.gravity();
        if (g[0] == 0 && g[1] == 0 && g[2] == 0) {
            return null;
        }
        Body floating = null;
        for (Body b : model.bodies()) {
            if (b.joint().type() == JointType.FLOATING) {
                floating = b;
                break;
            }
        }
        if (floating == null || !model.constraints().isEmpty() || hasSpring(model)) {
            return null;
        }
        boolean fixedSurface = !model.grounds().isEmpty();
        boolean movingSurface = !model.contactCandidates().isEmpty();
        for (CollisionShapeModel shape : model.collisionShapes()) {
            if (shape.isStatic()) {
                fixedSurface = true;
            } else {
                movingSurface = true;
            }
        }
        if (fixedSurface && movingSurface) {
            return null;
        }
        String missing = fixedSurface
                ? "no contact point or collision shape on a moving link to land with"
                : "no ground (<symdyn:ground>, a plane) or collision shape fixed in the world to land on";
        return Diagnostic.warning(floating.joint().location(), "robot '" + model.name() + "' has a floating base ("
                + floating.name() + ") and gravity but " + missing + ": it falls for the whole simulation").toString();
    }

    private static boolean hasSpring(Model model) {
        for (DeviceSpec d : model.devices()) {
            if (d instanceof SpringDamperSpec) {
                return true;
            }
        }
        return false;
    }
}
