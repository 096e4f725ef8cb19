package org.symdyn.systems;

import java.util.ArrayList;
import java.util.List;
import org.symdyn.contract.ModelInfo;

/**
 * The whole state: [q; v] (nq + nv numbers), channels named "name.q." + the model's q names and "name.v." + its v
 * names.
 */
public final class FullStateSensor extends NamedSensor {
    private final int nq;
    private final int nv;

    public FullStateSensor(String name, ModelInfo model) {
        super(Checks.name(name), channels(name, model));
        this.nq = model.nq();
        this.nv = model.nv();
    }

    private static List<String> channels(String name, ModelInfo model) {
        List<String> c = new ArrayList<>(model.nq() + model.nv());
        for (String s : model.qNames()) {
            c.add(name + ".q." + s);
        }
        for (String s : model.vNames()) {
            c.add(name + ".v." + s);
        }
        return c;
    }

    @Override
    public void read(double t, double[] q, double[] v, double[] vdot, double[] out) {
        System.arraycopy(q, 0, out, 0, nq);
        System.arraycopy(v, 0, out, nq, nv);
    }

    @Override
    public void checkFits(ModelInfo model) {
        if (nq != model.nq() || nv != model.nv()) {
            throw new IllegalArgumentException(name() + ": made for nq " + nq + ", nv " + nv + ", not the system's "
                    + model.modelName() + " (nq " + model.nq() + ", nv " + model.nv() + ")");
        }
    }
}
