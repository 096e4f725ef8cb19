package org.symdyn.systems;

import java.util.ArrayList;
import java.util.List;
import org.symdyn.contract.ModelInfo;

/**
 * The whole state: [q; v] (nq + nv numbers), channels named "name.q." + the model's q names and "name.v." + its v
 * names.
 */
public final class FullStateSensor implements Sensor {
    private final String name;
    private final int nq;
    private final int nv;
    private final List<String> channels;

    public FullStateSensor(String name, ModelInfo model) {
        this.name = Checks.name(name);
        this.nq = model.nq();
        this.nv = model.nv();
        List<String> c = new ArrayList<>(nq + nv);
        for (String s : model.qNames()) {
            c.add(name + ".q." + s);
        }
        for (String s : model.vNames()) {
            c.add(name + ".v." + s);
        }
        this.channels = List.copyOf(c);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public List<String> channels() {
        return channels;
    }

    @Override
    public void read(double t, double[] q, double[] v, double[] vdot, double[] out) {
        System.arraycopy(q, 0, out, 0, nq);
        System.arraycopy(v, 0, out, nq, nv);
    }
}
