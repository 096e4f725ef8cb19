package org.symdyn.systems;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.symdyn.contract.ImuSpec;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;
import org.symdyn.simulation.DormandPrince45;

/** The IMU's two readings against closed forms; its noise against its seed and σ. */
class ImuTest {
    private static final double[] IDENTITY = {1, 0, 0, 0, 1, 0, 0, 0, 1};

    /** At rest on a link tilted by 0.7 rad about x, a sensor turned by 0.3 rad about z reads R_WSᵀ (−g_W). */
    @Test
    void atRestOnATiltedLinkReadsMinusGravityInTheSensorFrame() {
        Model m = SystemModels.tiltLink();
        GenericDynamics d = new GenericDynamics(m);
        double[] rbs = SystemModels.rotZ(0.3);
        double[] bias = {0.01, -0.02, 0.03};
        Imu imu = Imu.of(new ImuSpec("imu", "link", 0, rbs, new double[] {0.1, 0.4, -0.05}, 0, 0, bias,
                new double[3], 1), d, m.gravity());
        double tilt = 0.7;
        double[] out = new double[6];
        imu.read(0, new double[] {tilt}, new double[1], new double[1], out);
        double[] rws = SystemModels.multiply(SystemModels.rotX(tilt), rbs);
        double[] expected = SystemModels.transposeTimes(rws, new double[] {0, 0, SystemModels.G});
        for (int i = 0; i < 3; i++) {
            assertEquals(bias[i], out[i], 1e-15, "gyro reads its bias at rest");
            assertEquals(expected[i], out[3 + i], 1e-12, "specific force " + i);
        }
        assertEquals(SystemModels.G, Math.sqrt(out[3] * out[3] + out[4] * out[4] + out[5] * out[5]), 1e-12);
    }

    /**
     * On a disc spinning at ω = 3 rad/s about the vertical z, a sensor at r = 0.4 m on the body x axis reads
     * ω_S = (0, 0, 3) and f_S = (−ω² r, 0, +g) (centripetal inwards, the support upwards); the same after a second
     * of free spinning integrated by Dormand-Prince (v̇ = 0 from the dynamics).
     */
    @Test
    void onASpinningDiscReadsTheCentripetalAcceleration() {
        Model m = SystemModels.spinner();
        GenericDynamics d = new GenericDynamics(m);
        ImuSpec spec = new ImuSpec("imu", "disc", 0, IDENTITY, new double[] {0.4, 0, 0}, 0, 0, new double[3],
                new double[3], 0);
        double w = 3, r = 0.4;
        double[] out = new double[6];
        Imu.of(spec, d, m.gravity()).read(0, new double[] {0.5}, new double[] {w}, new double[1], out);
        double[] expected = {0, 0, w, -w * w * r, 0, SystemModels.G};
        assertArrayEquals(expected, out, 1e-12);

        ContinuousTimeSystem sys = ContinuousTimeSystem.builder(d).integrator(DormandPrince45.factory(1e-10, 1e-10))
                .devices(Devices.of(List.of(spec), d, m.gravity())).build();
        sys.setState(0, new double[] {0}, new double[] {w});
        sys.run(1, 0.1);
        assertEquals(w, sys.v()[0], 1e-12);
        assertArrayEquals(expected, sys.reading("imu"), 1e-9);
    }

    /** Same seed, same numbers; another seed, others; reset replays; sample σ and mean as specified. */
    /**
     * Two IMUs bound from declarations that share a seed (a URDF's default 0; MJCF has no seed) draw their own noise:
     * they read the same numbers, perfectly correlated, before. The first keeps its seed's sequence.
     */
    @Test
    void imusSharingASeedDrawTheirOwnNoise() {
        Model m = SystemModels.spinner();
        GenericDynamics d = new GenericDynamics(m);
        ImuSpec one = new ImuSpec("one", "disc", 0, IDENTITY, new double[3], 0.1, 0.1, new double[3], new double[3], 0);
        ImuSpec two = new ImuSpec("two", "disc", 0, IDENTITY, new double[3], 0.1, 0.1, new double[3], new double[3], 0);
        Devices devices = Devices.of(List.of(one, two), d, m.gravity());
        Imu alone = Imu.of(one, d, m.gravity());
        double[] q = {0}, v = {0}, vdot = {0};
        double[] ra = new double[6], rb = new double[6], rAlone = new double[6];
        double product = 0, squares = 0;
        int n = 20000;
        for (int i = 0; i < n; i++) {
            devices.sensor("one").read(0, q, v, vdot, ra);
            devices.sensor("two").read(0, q, v, vdot, rb);
            alone.read(0, q, v, vdot, rAlone);
            assertArrayEquals(rAlone, ra, 0, "the first keeps its seed's sequence");
            product += ra[0] * rb[0];
            squares += ra[0] * ra[0];
        }
        double correlation = product / squares;
        assertTrue(Math.abs(correlation) < 4 / Math.sqrt(n), "correlation of the two gyros' x noise " + correlation);
    }

    @Test
    void noiseIsReproducibleFromItsSeed() {
        Model m = SystemModels.spinner();
        GenericDynamics d = new GenericDynamics(m);
        double sg = 0.01, sa = 0.2;
        double[] ab = {0.5, 0, 0};
        ImuSpec spec = new ImuSpec("imu", "disc", 0, IDENTITY, new double[3], sg, sa, new double[3], ab, 42);
        Imu a = Imu.of(spec, d, m.gravity());
        Imu b = Imu.of(spec, d, m.gravity());
        Imu c = Imu.of(new ImuSpec("imu", "disc", 0, IDENTITY, new double[3], sg, sa, new double[3], ab, 43), d,
                m.gravity());
        double[] q = {0}, v = {0}, vdot = {0};
        int n = 20000;
        double[] ra = new double[6], rb = new double[6], rc = new double[6];
        double[] first = new double[6];
        double sum = 0, sumSq = 0, gyroSq = 0;
        boolean differs = false;
        for (int i = 0; i < n; i++) {
            a.read(0, q, v, vdot, ra);
            b.read(0, q, v, vdot, rb);
            c.read(0, q, v, vdot, rc);
            if (i == 0) {
                first = ra.clone();
            }
            assertArrayEquals(ra, rb, 0, "same seed, same numbers");
            differs |= ra[3] != rc[3];
            double e = ra[3] - ab[0];
            sum += e;
            sumSq += e * e;
            gyroSq += ra[0] * ra[0];
        }
        assertTrue(differs, "another seed, other numbers");
        double mean = sum / n, sigma = Math.sqrt(sumSq / n - mean * mean);
        System.out.println("# IMU noise: accel sample sigma " + sigma + " (0.2), mean " + mean + ", gyro sigma "
                + Math.sqrt(gyroSq / n) + " (0.01)");
        assertEquals(0, mean, 4 * sa / Math.sqrt(n), "zero-mean noise about the bias");
        assertEquals(sa, sigma, 0.03 * sa);
        assertEquals(sg, Math.sqrt(gyroSq / n), 0.03 * sg);
        a.resetNoise();
        a.read(0, q, v, vdot, ra);
        assertArrayEquals(first, ra, 0, "reset replays the sequence");
    }
}
