package org.symdyn.io.sdf;

import java.util.HashSet;
import java.util.Set;
import org.symdyn.contract.ImuSpec;
import org.symdyn.io.Messages;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;
import org.symdyn.model.Frame;
import org.symdyn.model.LidarModel;
import org.symdyn.model.ModelBuilder;
import org.symdyn.spatial.Pose;

/**
 * A link's {@code <sensor>}, placed by its {@code <pose>} in the link frame:
 * <ul>
 * <li>{@code type="imu"}: an {@link ImuSpec} (as {@code <symdyn:imu>}): the gyroscope's noise standard deviation
 * and bias from {@code <imu><angular_velocity><x|y|z><noise><stddev|bias_mean>}, the accelerometer's from
 * {@code <linear_acceleration>} (one standard deviation per sensor: the largest of the three axes', with a warning
 * when they differ), seed 0.</li>
 * <li>{@code type="ray"}, {@code "gpu_ray"}, {@code "lidar"}, {@code "gpu_lidar"}: a {@link LidarModel} from
 * {@code <ray>} or {@code <lidar>}: {@code <scan><horizontal>} samples, min_angle, max_angle (rays per row and their
 * azimuths, spaced as Gazebo spaces them), {@code <scan><vertical>} the rows and their elevations (one row at 0
 * without it; as in Gazebo, an axis of one sample points at angle 0 whatever its min and max angles),
 * {@code <range><min><max>}, {@code <noise><stddev>}. A scan {@code <resolution>} other than 1 is a
 * warning (the samples are read as the rays).</li>
 * </ul>
 * Other sensor types are warnings. A sensor's name is its scoped name ({@code model::sensor}), or
 * {@code link::sensor} when another sensor of the model has that name.
 */
final class SensorReader {
    private final SdfSource source;
    private final FrameGraph frames;
    private final ModelBuilder builder;
    private final Set<String> names = new HashSet<>();

    SensorReader(SdfSource source, FrameGraph frames, ModelBuilder builder) {
        this.source = source;
        this.frames = frames;
        this.builder = builder;
    }

    void read(ModelTree.LinkDecl link, XmlElement s, Pose linkFrame) {
        ValueReader values = source.values(s);
        String given = values.require(s, "name", "link '" + link.name() + "': <sensor> has no 'name' attribute");
        String type = values.require(s, "type", "link '" + link.name() + "': <sensor> has no 'type' attribute");
        if (given == null || type == null) {
            return;
        }
        String name = link.scope().resolve(given);
        if (!names.add(name)) {
            name = link.name() + "::" + given;
            names.add(name);
        }
        String label = "sensor '" + name + "'";
        Pose world = frames.pose(PoseElement.of(s, values, link.scope().version(), label), link.name(),
                link.scope(), s);
        Pose inLink = linkFrame.inverse().compose(world);
        switch (type.trim()) {
            case "imu" -> imu(s, values, name, label, link.name(), inLink);
            case "ray", "gpu_ray", "lidar", "gpu_lidar" -> lidar(s, values, name, label, link.name(), inLink);
            default -> values.warning(s, label + ": sensor type '" + Messages.cut(type) + "' is not read");
        }
    }

    private void imu(XmlElement s, ValueReader values, String name, String label, String link, Pose inLink) {
        XmlElement imu = SdfText.first(s, "imu");
        double[] gyroBias = new double[3];
        double[] accelBias = new double[3];
        double gyroNoise = noise(values, SdfText.first(imu, "angular_velocity"), gyroBias, label + ": angular"
                + " velocity");
        double accelNoise = noise(values, SdfText.first(imu, "linear_acceleration"), accelBias, label
                + ": linear acceleration");
        Frame f = builder.frame(link);
        if (f == null) {
            return;
        }
        Pose sensor = f.pose().compose(inLink);
        builder.addDevice(new ImuSpec(name, link, f.bodyIndex(), sensor.rotationArray(), sensor.translationArray(),
                gyroNoise, accelNoise, gyroBias, accelBias, 0), values.location(s));
    }

    /** The children SDFormat's {@code <noise>} may have. */
    private static final Set<String> NOISE = Set.of("type", "mean", "stddev", "bias_mean", "bias_stddev",
            "dynamic_bias_stddev", "dynamic_bias_correlation_time", "precision");

    /**
     * Warns about a child of {@code <noise>} that SDFormat does not have (libsdformat ignores it with a warning too):
     * a misspelt {@code <stdev>} gave a noiseless sensor without a word (a helper's probe).
     */
    private static void checkNoise(ValueReader values, XmlElement noise, String label) {
        for (XmlElement c : noise.children()) {
            if (!NOISE.contains(c.name())) {
                values.warning(c, label + ": unknown element <" + Messages.cut(c.name()) + "> in <noise>"
                        + org.symdyn.io.Spelling.suggestion(c.name(), NOISE) + "; ignored");
            }
        }
    }

    /** The largest noise standard deviation of the three axes; their bias means into {@code bias}. */
    private static double noise(ValueReader values, XmlElement quantity, double[] bias, String label) {
        if (quantity == null) {
            return 0;
        }
        String[] axes = {"x", "y", "z"};
        double[] stddev = new double[3];
        for (int i = 0; i < 3; i++) {
            XmlElement noise = SdfText.first(SdfText.first(quantity, axes[i]), "noise");
            if (noise != null) {
                checkNoise(values, noise, label);
                stddev[i] = SdfText.number(values, noise, "stddev", 0, label + " " + axes[i] + " noise stddev");
                bias[i] = SdfText.number(values, noise, "bias_mean", 0, label + " " + axes[i] + " bias_mean");
            }
        }
        double max = Math.max(stddev[0], Math.max(stddev[1], stddev[2]));
        if (stddev[0] != stddev[1] || stddev[1] != stddev[2]) {
            values.warning(quantity, label + ": noise standard deviations differ between axes; the largest, " + max
                    + ", is used for all three");
        }
        return max;
    }

    private void lidar(XmlElement s, ValueReader values, String name, String label, String link, Pose inLink) {
        XmlElement ray = SdfText.first(s, "ray");
        if (ray == null) {
            ray = SdfText.first(s, "lidar");
        }
        if (ray == null) {
            values.error(s, label + " has no <ray> or <lidar>");
            return;
        }
        int before = values.errorCount();
        XmlElement scan = SdfText.first(ray, "scan");
        XmlElement horizontal = SdfText.first(scan, "horizontal");
        XmlElement vertical = SdfText.first(scan, "vertical");
        if (horizontal == null) {
            values.error(scan == null ? ray : scan, label + " has no <scan><horizontal>");
            return;
        }
        int samples = SdfText.count(values, horizontal, "samples", 640, label + ": horizontal samples");
        double minAngle = SdfText.number(values, horizontal, "min_angle", 0, label + ": horizontal min_angle");
        double maxAngle = SdfText.number(values, horizontal, "max_angle", 0, label + ": horizontal max_angle");
        resolution(values, horizontal, label);
        int rows = 1;
        double minElevation = 0;
        double maxElevation = 0;
        if (vertical != null) {
            rows = SdfText.count(values, vertical, "samples", 1, label + ": vertical samples");
            minElevation = SdfText.number(values, vertical, "min_angle", 0, label + ": vertical min_angle");
            maxElevation = SdfText.number(values, vertical, "max_angle", 0, label + ": vertical max_angle");
            resolution(values, vertical, label);
        }
        XmlElement range = SdfText.first(ray, "range");
        if (range == null) {
            values.error(ray, label + " has no <range>");
            return;
        }
        double min = SdfText.number(values, range, "min", 0, label + ": range min");
        double max = SdfText.number(values, range, "max", Double.NaN, label + ": range max");
        if (SdfText.first(range, "max") == null) {
            values.error(range, label + ": <range> has no <max>");
        }
        if (SdfText.first(ray, "noise") != null) {
            checkNoise(values, SdfText.first(ray, "noise"), label);
        }
        double noise = SdfText.number(values, SdfText.first(ray, "noise"), "stddev", 0, label + ": noise stddev");
        if (values.errorCount() > before) {
            return;
        }
        if (!(maxAngle >= minAngle) || !(maxElevation >= minElevation) || !(min >= 0) || !(max > min)
                || !(noise >= 0)) {
            values.error(ray, label + ": needs max_angle >= min_angle, range 0 <= min < max and noise stddev >= 0");
            return;
        }
        // Gazebo's ray sensor points a single sample of an axis straight ahead, whatever that axis's angles say
        // (a 2-D laser's <vertical><samples>1 with a min_angle of its own is level there)
        if (samples == 1) {
            minAngle = 0;
            maxAngle = 0;
        }
        if (rows == 1) {
            minElevation = 0;
            maxElevation = 0;
        }
        builder.addLidar(new LidarModel(name, link, -1, inLink, samples, minAngle, maxAngle, rows, minElevation,
                maxElevation, min, max, noise, values.location(s)));
    }

    private static void resolution(ValueReader values, XmlElement scanAxis, String label) {
        XmlElement r = SdfText.first(scanAxis, "resolution");
        if (r != null && SdfText.number(values, scanAxis, "resolution", 1, label + ": resolution") != 1) {
            values.warning(r, label + ": a scan resolution other than 1 is not read (the samples are the rays)");
        }
    }
}
