package org.symdyn.systems;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The contact force of every candidate × ground pair of a {@link ContactForces} source, in the pair's contact frame:
 * three channels per pair, "name.pair.fn", "name.pair.ft1", "name.pair.ft2" (N; pair named "candidate@ground"),
 * zero for pairs not in contact; then, when the set has collision shapes, the world force on each shape summed over
 * its contacts, "name.shape.fx", "name.shape.fy", "name.shape.fz" ({@link ContactForces#shapeForces}). From a {@link ContinuousTimeSystem} the acceleration-level force at the state after
 * the step (impacts are impulses, not read here: {@link ContinuousTimeSystem#pairImpulse}). From a
 * {@link TimeSteppingSystem} the force is the step's impulse divided by h (the
 * mean force over the step; an impact shows as a large force for one step); from a {@link CompliantContact} the
 * force of its last evaluation.
 */
public final class ContactForceSensor extends NamedSensor {
    private final ContactForces source;
    private final int pairs;

    public ContactForceSensor(String name, ContactForces source) {
        super(Checks.name(name), channels(name, Objects.requireNonNull(source, "source")));
        this.source = source;
        this.pairs = source.contactSet().pairCount();
    }

    private static List<String> channels(String name, ContactForces source) {
        int pairs = source.contactSet().pairCount();
        List<String> c = new ArrayList<>(3 * pairs);
        for (int p = 0; p < pairs; p++) {
            String pn = name + "." + source.contactSet().pairName(p);
            c.add(pn + ".fn");
            c.add(pn + ".ft1");
            c.add(pn + ".ft2");
        }
        for (var shape : source.contactSet().shapes()) {
            String sn = name + "." + shape.name();
            c.add(sn + ".fx");
            c.add(sn + ".fy");
            c.add(sn + ".fz");
        }
        return c;
    }

    @Override
    public void read(double t, double[] q, double[] v, double[] vdot, double[] out) {
        for (int p = 0; p < pairs; p++) {
            out[3 * p] = source.pairForce(p, 0);
            out[3 * p + 1] = source.pairForce(p, 1);
            out[3 * p + 2] = source.pairForce(p, 2);
        }
        if (source.contactSet().shapeCount() > 0) {
            source.shapeForces(out, 3 * pairs);
        }
    }
}
