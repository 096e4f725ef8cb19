package org.symdyn.samples;

import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.contract.ModelParameters;
import org.symdyn.model.Body;
import org.symdyn.model.Joint;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.samples.generated.Arm7Dynamics;
import org.symdyn.samples.generated.BoxStackDynamics;
import org.symdyn.samples.generated.DoublePendulumDynamics;
import org.symdyn.samples.generated.EdgeRollerDynamics;
import org.symdyn.samples.generated.FourbarDynamics;
import org.symdyn.samples.generated.QuadrupedDynamics;
import org.symdyn.samples.generated.RampBoxDynamics;
import org.symdyn.samples.generated.SliderCrankDynamics;

/**
 * Every model of {@code src/main/symdyn} with its generated class, and the random states the regression tests use.
 * A model file added to the folder must be added here too: {@link GeneratedMetadataTest} fails until it is.
 */
final class SampleCases {
    /** A model file and a factory of its generated class. */
    record Case(String file, Supplier<Object> generated) {
        /** The model name (file name without .urdf). */
        String name() {
            return file.substring(0, file.length() - ".urdf".length());
        }

        @Override
        public String toString() {
            return file;
        }
    }

    static final List<Case> ALL = List.of(
            new Case("arm7.urdf", Arm7Dynamics::new),
            new Case("box_stack.urdf", BoxStackDynamics::new),
            new Case("double_pendulum.urdf", DoublePendulumDynamics::new),
            new Case("edge_roller.urdf", EdgeRollerDynamics::new),
            new Case("fourbar.urdf", FourbarDynamics::new),
            new Case("quadruped.urdf", QuadrupedDynamics::new),
            new Case("ramp_box.urdf", RampBoxDynamics::new),
            new Case("slider_crank.urdf", SliderCrankDynamics::new));

    private SampleCases() {
    }

    /**
     * The interfaces every generated class implements (checked, not assumed, by the casts): the whole contract
     * and its parameters.
     */
    record Generated(ModelFunctions functions, ModelParameters parameters) {
        static Generated of(Object o) {
            return new Generated((ModelFunctions) o, (ModelParameters) o);
        }
    }

    /** n numbers uniform in [-range, range]. */
    static double[] uniform(Random rnd, int n, double range) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = (2 * rnd.nextDouble() - 1) * range;
        }
        return x;
    }

    /**
     * A random configuration: a 1-dof joint uniform within its URDF limits where lower &lt; upper, else in ±π
     * (revolute, continuous) or ±0.5 m (prismatic); a unit quaternion uniform on the sphere (normalised Gaussian)
     * for floating and ball joints; a floating base's position and a planar joint's x, y in ±1 m, its angle in ±π.
     */
    static double[] randomConfiguration(Model model, Random rnd) {
        double[] q = new double[model.nq()];
        for (Body b : model.bodies()) {
            Joint j = b.joint();
            int k = j.qIndex();
            switch (j.type()) {
                case FLOATING -> {
                    for (int i = 0; i < 3; i++) {
                        q[k + i] = 2 * rnd.nextDouble() - 1;
                    }
                    unitQuaternion(rnd, q, j.quaternionIndex());
                }
                case BALL -> unitQuaternion(rnd, q, j.quaternionIndex());
                case PLANAR -> {
                    q[k] = 2 * rnd.nextDouble() - 1;
                    q[k + 1] = 2 * rnd.nextDouble() - 1;
                    q[k + 2] = (2 * rnd.nextDouble() - 1) * Math.PI;
                }
                default -> {
                    boolean limited = j.hasLimits() && j.lower() < j.upper();
                    double half = j.type() == JointType.PRISMATIC ? 0.5 : Math.PI;
                    double lo = limited ? j.lower() : -half;
                    double hi = limited ? j.upper() : half;
                    q[k] = lo + rnd.nextDouble() * (hi - lo);
                }
            }
        }
        return q;
    }

    private static void unitQuaternion(Random rnd, double[] q, int at) {
        double n = 0;
        for (int i = 0; i < 4; i++) {
            q[at + i] = rnd.nextGaussian();
            n += q[at + i] * q[at + i];
        }
        n = Math.sqrt(n);
        for (int i = 0; i < 4; i++) {
            q[at + i] /= n;
        }
    }
}
