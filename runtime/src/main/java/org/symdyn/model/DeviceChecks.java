package org.symdyn.model;

import java.util.ArrayList;
import java.util.List;
import org.symdyn.contract.DcMotorSpec;
import org.symdyn.contract.DeviceSpec;
import org.symdyn.contract.EncoderSpec;
import org.symdyn.contract.ImuSpec;
import org.symdyn.contract.ServoSpec;
import org.symdyn.contract.SpringDamperSpec;
import org.symdyn.contract.TorqueSourceSpec;

/**
 * The rules a declared actuator or sensor's numbers keep, shared by the model reader (which reports each at its
 * element) and {@link ModelBuilder#addDevice} (a model made in code): every number finite, except a torque limit
 * that may be {@link Double#POSITIVE_INFINITY} (none); gains, noise, resolution, stiffness, damping and rest length
 * ≥ 0; torque limits, resistance, torque constant, free speed and nominal voltage &gt; 0; a gear ratio ≠ 0. The
 * messages name the model file's attributes. Indices and names are checked against the model when the builder
 * builds ({@code DeviceAttachments}).
 */
public final class DeviceChecks {
    private DeviceChecks() {
    }

    /** The model-file element a device is declared with: servo, motor, torque_source, spring, imu or encoder. */
    public static String elementName(DeviceSpec device) {
        if (device instanceof ServoSpec) {
            return "servo";
        } else if (device instanceof DcMotorSpec) {
            return "motor";
        } else if (device instanceof TorqueSourceSpec) {
            return "torque_source";
        } else if (device instanceof SpringDamperSpec) {
            return "spring";
        } else if (device instanceof ImuSpec) {
            return "imu";
        }
        return "encoder";
    }

    /** Every rule the device's numbers break, one message each (without the device's name); empty if none. */
    public static List<String> problems(DeviceSpec device) {
        List<String> out = new ArrayList<>();
        if (device instanceof ServoSpec s) {
            nonNegative(out, "kp", s.kp(), "N·m/rad or N/m");
            nonNegative(out, "kd", s.kd(), "N·m·s/rad or N·s/m");
            finite(out, "target", s.target());
            limit(out, "max_torque", s.maxTorque());
        } else if (device instanceof DcMotorSpec m) {
            positive(out, "torque_constant", m.torqueConstant(), "N·m/A");
            positive(out, "resistance", m.resistance(), "Ω");
            positive(out, "free_speed", m.freeSpeed(), "rad/s");
            positive(out, "nominal_voltage", m.nominalVoltage(), "V");
            if (!Double.isFinite(m.gearRatio())) {
                out.add("gear_ratio " + m.gearRatio() + " is not finite");
            } else if (m.gearRatio() == 0) {
                out.add("gear_ratio must not be 0 (motor speed / joint speed)");
            }
            finite(out, "voltage", m.voltage());
        } else if (device instanceof TorqueSourceSpec t) {
            finite(out, "command", t.command());
            limit(out, "max_torque", t.maxTorque());
        } else if (device instanceof SpringDamperSpec s) {
            finite(out, "point1", s.point1(), 3);
            finite(out, "point2", s.point2(), 3);
            nonNegative(out, "stiffness", s.stiffness(), "N/m");
            nonNegative(out, "damping", s.damping(), "N·s/m");
            nonNegative(out, "rest_length", s.restLength(), "m");
        } else if (device instanceof ImuSpec i) {
            finite(out, "rotation", i.rotation(), 9);
            finite(out, "position", i.position(), 3);
            nonNegative(out, "gyro_noise", i.gyroNoise(), "rad/s");
            nonNegative(out, "accel_noise", i.accelNoise(), "m/s²");
            finite(out, "gyro_bias", i.gyroBias(), 3);
            finite(out, "accel_bias", i.accelBias(), 3);
        } else if (device instanceof EncoderSpec e) {
            nonNegative(out, "resolution", e.resolution(), "rad or m");
            finite(out, "offset", e.offset());
        }
        return out;
    }

    private static void finite(List<String> out, String what, double x) {
        if (!Double.isFinite(x)) {
            out.add(what + " " + x + " is not finite");
        }
    }

    private static void finite(List<String> out, String what, double[] x, int n) {
        if (x.length != n) {
            out.add(what + " needs " + n + " numbers, has " + x.length);
            return;
        }
        for (double v : x) {
            if (!Double.isFinite(v)) {
                out.add(what + " is not finite");
                return;
            }
        }
    }

    private static void nonNegative(List<String> out, String what, double x, String unit) {
        if (!Double.isFinite(x)) {
            out.add(what + " " + x + " is not finite");
        } else if (x < 0) {
            out.add(what + " " + x + " must be >= 0 (" + unit + ")");
        }
    }

    private static void positive(List<String> out, String what, double x, String unit) {
        if (!Double.isFinite(x)) {
            out.add(what + " " + x + " is not finite");
        } else if (!(x > 0)) {
            out.add(what + " " + x + " must be positive (" + unit + ")");
        }
    }

    /** A torque or force limit: positive, or +∞ for none. */
    private static void limit(List<String> out, String what, double x) {
        if (Double.isNaN(x) || x == Double.NEGATIVE_INFINITY) {
            out.add(what + " " + x + " is not a number or is negative infinity");
        } else if (!(x > 0)) {
            out.add(what + " " + x + " must be positive (N·m or N; leave it out for no limit)");
        }
    }
}
