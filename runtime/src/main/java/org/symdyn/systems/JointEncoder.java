package org.symdyn.systems;

import java.util.List;
import org.symdyn.contract.EncoderSpec;
import org.symdyn.contract.ModelInfo;

/**
 * A joint encoder on a single-coordinate joint: two channels, "name.q" = offset + resolution · round(q /
 * resolution) (a resolution of 0 reads q exactly, as does one below an ulp of q's count, 2⁻⁵² |q|; ties round to
 * even, {@link Math#rint}) and "name.v" = q̇,
 * unquantised (the rate an encoder's driver would estimate, without its filter).
 */
public final class JointEncoder extends NamedSensor {
    private final int qIndex;
    private final int vIndex;
    private final double resolution;
    private final double offset;
    private static final double TWO_52 = 0x1p52;

    /**
     * @param resolution one count ≥ 0 (rad or m)
     * @param offset     added to the position reading (rad or m)
     */
    public JointEncoder(String name, int qIndex, int vIndex, double resolution, double offset) {
        super(Checks.name(name), List.of(name + ".q", name + ".v"));
        this.qIndex = Checks.qIndex(name, null, qIndex);
        this.vIndex = Checks.vIndex(name, null, vIndex);
        this.resolution = Checks.nonNegative(name, "resolution", resolution);
        this.offset = Checks.finite(name, "offset", offset);
    }

    /** From a model file's declaration. */
    public static JointEncoder of(EncoderSpec s) {
        return new JointEncoder(s.name(), s.qIndex(), s.vIndex(), s.resolution(), s.offset());
    }

    @Override
    public void read(double t, double[] q, double[] v, double[] vdot, double[] out) {
        double x = q[qIndex];
        double counts = x / resolution;
        // Past 2^52 counts every double is whole, so rounding changes nothing: read x (a resolution of 1e-310 turned
        // q = 0.5 into Infinity counts and an infinite reading)
        out[0] = offset + (resolution == 0 || !(Math.abs(counts) < TWO_52) ? x : resolution * Math.rint(counts));
        out[1] = v[vIndex];
    }

    @Override
    public void checkFits(ModelInfo model) {
        Checks.qIndex(name(), model, qIndex);
        Checks.vIndex(name(), model, vIndex);
    }
}
