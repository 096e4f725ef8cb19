package org.symdyn.io.mjcf;

import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * Reads an {@code <inertial>}: {@code mass} (kg, required), {@code pos} (the centre of mass in the body frame,
 * required) and an orientation of the inertia frame ({@link Orientations}), with the inertia about the centre of mass
 * either {@code diaginertia="ixx iyy izz"} in the inertia frame or {@code fullinertia="ixx iyy izz ixy ixz iyz"} in
 * the body frame (MuJoCo refuses an orientation with it). The result is the inertia in the body frame,
 * R I Rᵀ about the centre of mass; MuJoCo stores the same tensor diagonalised (its principal axes as the inertia
 * frame), which changes nothing but rounding.
 */
final class InertialReader {
    private InertialReader() {
    }

    /** The body's inertia in its frame, or null after reporting a problem. */
    static RigidBodyInertia read(ResolvedElement e, CompilerSettings compiler, String label) {
        String what = label + ": inertial";
        int before = e.values().errorCount();
        double mass = e.has("mass") ? e.number("mass", 0, what + " mass") : Double.NaN;
        if (!e.has("mass")) {
            e.error(what + " has no mass");
        }
        double[] pos = e.vector("pos", 3, null, what + " pos");
        boolean full = e.has("fullinertia");
        if (full == e.has("diaginertia")) {
            e.error(what + " needs exactly one of diaginertia and fullinertia");
            return null;
        }
        double[] rotation = Orientations.rotation(e, compiler, what);
        if (e.values().errorCount() > before) {
            return null;
        }
        RigidBodyInertia inFrame;
        if (full) {
            for (String a : Orientations.ATTRIBUTES) {
                if (e.has(a)) {
                    e.error(what + ": fullinertia is given in the body frame; " + a + " cannot orient it");
                    return null;
                }
            }
            double[] f = e.vector("fullinertia", 6, null, what + " fullinertia");
            if (e.values().errorCount() > before) {
                return null;
            }
            inFrame = RigidBodyInertia.of(mass, new double[3], f[0], f[3], f[4], f[1], f[5], f[2]);
        } else {
            double[] d = e.vector("diaginertia", 3, null, what + " diaginertia");
            if (e.values().errorCount() > before) {
                return null;
            }
            inFrame = RigidBodyInertia.of(mass, new double[3], d[0], 0, 0, d[1], 0, d[2]);
        }
        if (e.values().errorCount() > before) {
            return null;
        }
        return inFrame.expressedIn(Pose.of(rotation, pos));
    }
}
