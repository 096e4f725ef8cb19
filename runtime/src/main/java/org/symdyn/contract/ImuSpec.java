package org.symdyn.contract;

/**
 * An inertial measurement unit fixed to a link ({@code <symdyn:imu>}): in the sensor frame S, the angular velocity
 * ω_S and the specific force f_S = R_WSᵀ (p̈ − g_W) (an accelerometer at rest reads +9.81 m/s² along the upward
 * vertical), optionally with constant biases and white noise drawn from a generator seeded with {@code seed}.
 *
 * @param link            the link's name as declared
 * @param body            the body it is fixed to (a fixed link's placement folded in)
 * @param rotation        R_body&lt;-sensor, 9 entries row-major
 * @param position        the sensor origin in body coordinates, m
 * @param gyroNoise       standard deviation of the angular-velocity noise ≥ 0 (rad/s; 0 for none)
 * @param accelNoise      standard deviation of the specific-force noise ≥ 0 (m/s²; 0 for none)
 * @param gyroBias        constant angular-velocity bias, 3 entries, sensor frame (rad/s)
 * @param accelBias       constant specific-force bias, 3 entries, sensor frame (m/s²)
 * @param seed            the noise generator's seed
 */
public record ImuSpec(String name, String link, int body, double[] rotation, double[] position, double gyroNoise,
        double accelNoise, double[] gyroBias, double[] accelBias, long seed) implements DeviceSpec {

    public ImuSpec {
        rotation = rotation.clone();
        position = position.clone();
        gyroBias = gyroBias.clone();
        accelBias = accelBias.clone();
    }

    @Override
    public double[] rotation() {
        return rotation.clone();
    }

    @Override
    public double[] position() {
        return position.clone();
    }

    @Override
    public double[] gyroBias() {
        return gyroBias.clone();
    }

    @Override
    public double[] accelBias() {
        return accelBias.clone();
    }
}
