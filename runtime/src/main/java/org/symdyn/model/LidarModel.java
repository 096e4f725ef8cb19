package org.symdyn.model;

import org.symdyn.spatial.Pose;

/**
 * A scanning range sensor ({@code <symdyn:lidar>}): rows of rays from the origin of its frame L. Ray k of a row
 * lies in the x-y plane of L at azimuth θ_k = minAngle + k (maxAngle − minAngle) / (samples − 1) from x towards y
 * (one ray at minAngle when samples = 1), as Gazebo spaces them; with rows &gt; 1, row r is tilted up out of that
 * plane by the elevation φ_r = minElevation + r (maxElevation − minElevation) / (rows − 1), so its direction is
 * (cos φ cos θ, cos φ sin θ, sin φ) in L. Each reading is the distance along its ray to the first collision shape
 * of the scene other than those of the sensor's own link, in [rangeMin, rangeMax]; rangeMax when nothing is hit.
 *
 * @param name         unique among the model's devices
 * @param link         the link it is mounted on
 * @param body         the body it moves with (−1: the root)
 * @param pose         L in the body's frame (body ← L)
 * @param samples      rays per row, ≥ 1
 * @param minAngle     azimuth of the first ray (rad)
 * @param maxAngle     azimuth of the last ray (rad), ≥ minAngle
 * @param rows         rows of rays, ≥ 1
 * @param minElevation elevation of the first row (rad)
 * @param maxElevation elevation of the last row (rad), ≥ minElevation
 * @param rangeMin     nearest distance reported (m), ≥ 0; hits nearer are ignored
 * @param rangeMax     farthest distance (m), &gt; rangeMin
 * @param noise        standard deviation of Gaussian noise added to each reading (m), ≥ 0
 * @param location     where it was declared
 */
public record LidarModel(String name, String link, int body, Pose pose, int samples, double minAngle,
        double maxAngle, int rows, double minElevation, double maxElevation, double rangeMin, double rangeMax,
        double noise, SourceLocation location) {

    /** samples × rows. */
    public int rayCount() {
        return samples * rows;
    }

    /** The azimuth θ_k of ray k of a row (rad). */
    public double azimuth(int k) {
        return samples == 1 ? minAngle : minAngle + k * (maxAngle - minAngle) / (samples - 1);
    }

    /** The elevation φ_r of row r (rad). */
    public double elevation(int r) {
        return rows == 1 ? minElevation : minElevation + r * (maxElevation - minElevation) / (rows - 1);
    }
}
