package org.symdyn.systems;

import java.util.List;
import java.util.Objects;
import org.symdyn.contract.ImuSpec;
import org.symdyn.contract.Kinematics;
import org.symdyn.contract.ModelInfo;

/**
 * An inertial measurement unit fixed to a body, in its sensor frame S (rotation R_BS = R_body←sensor and origin p_S
 * in body coordinates), six channels:
 * <pre>
 *   name.wx, .wy, .wz:  ω_S = R_BSᵀ ω_B + b_ω + σ_ω n                     (rad/s; ω_B the body's angular velocity, body coordinates)
 *   name.fx, .fy, .fz:  f_S = R_WSᵀ (p̈_S − g_W) + b_f + σ_f n            (m/s²; specific force, R_WS = R_WB R_BS)
 * </pre>
 * p̈_S the world classical acceleration of the sensor origin ({@link Kinematics#pointAcceleration}, gravity
 * excluded) and g_W gravity in world coordinates, so that an accelerometer at rest reads +9.81 m/s² along its
 * upward vertical and one in free fall reads 0. b are constant biases (sensor frame), n independent standard normal
 * numbers drawn per reading and axis from a generator seeded with the seed (SplitMix64 and Box-Muller: the same
 * sequence on every JVM, no allocation); the three gyro numbers are drawn before the three accelerometer ones, and
 * nothing is drawn for a σ of 0. A body of −1 is the world: ω = 0, p̈ = 0.
 *
 * <p>p̈ needs v̇: a {@link TimeSteppingSystem} gives the step's mean (v⁺ − v)/h, which at an impact is the impulse
 * over h (a spike of one step), a {@link ContinuousTimeSystem} the dynamics' v̇.
 */
public final class Imu extends NamedSensor {
    private final Kinematics kinematics;
    private final int body;
    private final double[] rotation;
    private final double[] position;
    private final double[] gravity;
    private final double gyroNoise;
    private final double accelNoise;
    private final double[] gyroBias;
    private final double[] accelBias;
    private final GaussianNoise noise;

    private final double[] velocity = new double[6];
    private final double[] acceleration = new double[3];
    private final double[] bodyRotation = new double[9];
    private final double[] bodyOrigin = new double[3];

    /**
     * @param kinematics the model's kinematics
     * @param body       the body the sensor is fixed to (−1: the world)
     * @param rotation   R_body←sensor, 9 numbers row-major (a rotation; not re-orthogonalised)
     * @param position   the sensor origin in body coordinates (m)
     * @param gravity    g_W, world coordinates (m/s²): the model's (not part of the kinematics contract)
     * @param gyroNoise  σ_ω ≥ 0 (rad/s)
     * @param accelNoise σ_f ≥ 0 (m/s²)
     * @param gyroBias   b_ω, 3 numbers (rad/s, sensor frame)
     * @param accelBias  b_f, 3 numbers (m/s², sensor frame)
     * @param seed       the noise generator's seed
     */
    public Imu(String name, Kinematics kinematics, int body, double[] rotation, double[] position, double[] gravity,
            double gyroNoise, double accelNoise, double[] gyroBias, double[] accelBias, long seed) {
        super(Checks.name(name), List.of(name + ".wx", name + ".wy", name + ".wz", name + ".fx", name + ".fy",
                name + ".fz"));
        this.kinematics = Objects.requireNonNull(kinematics, "kinematics");
        this.body = Checks.body(name, kinematics, body);
        this.rotation = Checks.vector(name, "rotation", rotation, 9);
        this.position = Checks.vector(name, "position", position, 3);
        this.gravity = Checks.vector(name, "gravity", gravity, 3);
        this.gyroNoise = Checks.nonNegative(name, "gyroNoise", gyroNoise);
        this.accelNoise = Checks.nonNegative(name, "accelNoise", accelNoise);
        this.gyroBias = Checks.vector(name, "gyroBias", gyroBias, 3);
        this.accelBias = Checks.vector(name, "accelBias", accelBias, 3);
        this.noise = new GaussianNoise(seed);
    }

    /** An ideal IMU (no noise, no bias) with its frame the body's. */
    public static Imu ideal(String name, Kinematics kinematics, int body, double[] gravity) {
        return new Imu(name, kinematics, body, new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, new double[3], gravity, 0, 0,
                new double[3], new double[3], 0);
    }

    /** From a model file's declaration, with the model's gravity g_W. */
    public static Imu of(ImuSpec s, Kinematics kinematics, double[] gravity) {
        return new Imu(s.name(), kinematics, s.body(), s.rotation(), s.position(), gravity, s.gyroNoise(),
                s.accelNoise(), s.gyroBias(), s.accelBias(), s.seed());
    }

    /** Restarts the noise sequence from the seed. */
    public void resetNoise() {
        noise.reset();
    }

    /** Restarts the noise sequence from a new seed. */
    @Override
    public void seed(long seed) {
        noise.reseed(seed);
    }

    @Override
    public void read(double t, double[] q, double[] v, double[] vdot, double[] out) {
        double wx = 0, wy = 0, wz = 0;
        double ax = -gravity[0], ay = -gravity[1], az = -gravity[2];
        double[] rb = bodyRotation;
        if (body >= 0) {
            kinematics.bodyVelocity(q, v, body, velocity);
            wx = velocity[0];
            wy = velocity[1];
            wz = velocity[2];
            kinematics.pointAcceleration(q, v, vdot, body, position, acceleration);
            ax += acceleration[0];
            ay += acceleration[1];
            az += acceleration[2];
            kinematics.bodyPose(q, body, rb, bodyOrigin);
        } else {
            rb[0] = 1; rb[1] = 0; rb[2] = 0;
            rb[3] = 0; rb[4] = 1; rb[5] = 0;
            rb[6] = 0; rb[7] = 0; rb[8] = 1;
        }
        // the specific force in body coordinates: R_WBᵀ (p̈ − g)
        double bx = rb[0] * ax + rb[3] * ay + rb[6] * az;
        double by = rb[1] * ax + rb[4] * ay + rb[7] * az;
        double bz = rb[2] * ax + rb[5] * ay + rb[8] * az;
        double[] r = rotation; // R_BS: sensor frame = R_BSᵀ · body frame
        out[0] = r[0] * wx + r[3] * wy + r[6] * wz + gyroBias[0];
        out[1] = r[1] * wx + r[4] * wy + r[7] * wz + gyroBias[1];
        out[2] = r[2] * wx + r[5] * wy + r[8] * wz + gyroBias[2];
        out[3] = r[0] * bx + r[3] * by + r[6] * bz + accelBias[0];
        out[4] = r[1] * bx + r[4] * by + r[7] * bz + accelBias[1];
        out[5] = r[2] * bx + r[5] * by + r[8] * bz + accelBias[2];
        if (gyroNoise > 0) {
            out[0] += gyroNoise * noise.next();
            out[1] += gyroNoise * noise.next();
            out[2] += gyroNoise * noise.next();
        }
        if (accelNoise > 0) {
            out[3] += accelNoise * noise.next();
            out[4] += accelNoise * noise.next();
            out[5] += accelNoise * noise.next();
        }
    }

    @Override
    public void checkFits(ModelInfo model) {
        Checks.sameModel(name(), kinematics, model);
    }
}
