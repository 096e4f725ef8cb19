package org.symdyn.rollout;

import java.util.Arrays;
import java.util.function.Supplier;
import org.symdyn.contact.ContactReport;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * The outcomes most batches want, as observer factories for {@link Rollouts#run}: the final state, a decimated
 * trajectory, the time of the first contact, a running cost. Each observer preallocates in {@code start} and
 * allocates nothing per step.
 */
public final class Outcomes {
    private Outcomes() {
    }

    /** The final time, q and v. */
    public static Supplier<RolloutObserver<FinalState>> finalState() {
        return () -> new RolloutObserver<>() {
            @Override
            public void afterStep(long step, TimeSteppingSystem system, ContactReport report) {
            }

            @Override
            public FinalState finish(TimeSteppingSystem system) {
                return new FinalState(system.time(), system.q(), system.v());
            }
        };
    }

    /**
     * The initial state, the state after every {@code every}-th step, and the final state (once, if the last step
     * is not itself a multiple of {@code every}).
     *
     * @throws IllegalArgumentException if {@code every} &lt; 1
     */
    public static Supplier<RolloutObserver<Trajectory>> trajectory(int every) {
        if (every < 1) {
            throw new IllegalArgumentException("a trajectory records every k-th step, k >= 1; got " + every);
        }
        return () -> new TrajectoryObserver(every);
    }

    /**
     * The time (s, at the end of the step) of the first step whose contact solve had a contact (a ground, a shape
     * pair, a joint limit does not count), or NaN when none had.
     */
    public static Supplier<RolloutObserver<Double>> firstContactTime() {
        return () -> new RolloutObserver<>() {
            private double first = Double.NaN;

            @Override
            public void afterStep(long step, TimeSteppingSystem system, ContactReport report) {
                if (Double.isNaN(first) && system.stepper().contactCount() > 0) {
                    first = system.time();
                }
            }

            @Override
            public Double finish(TimeSteppingSystem system) {
                return first;
            }
        };
    }

    /** A cost rate of the state: ℓ(t, q, v) (per second). Must not allocate. */
    @FunctionalInterface
    public interface CostRate {
        double rate(double t, double[] q, double[] v);
    }

    /**
     * The running cost Σ_k ℓ(t_k, q_k, v_k) h_k over the steps, each step's state taken at its end (a right
     * Riemann sum of ∫ ℓ dt).
     */
    public static Supplier<RolloutObserver<Double>> runningCost(CostRate cost) {
        java.util.Objects.requireNonNull(cost, "cost");
        return () -> new RolloutObserver<>() {
            private double sum;

            @Override
            public void afterStep(long step, TimeSteppingSystem system, ContactReport report) {
                sum += cost.rate(system.time(), system.q(), system.v()) * system.lastStepSize();
            }

            @Override
            public Double finish(TimeSteppingSystem system) {
                return sum;
            }
        };
    }

    private static final class TrajectoryObserver implements RolloutObserver<Trajectory> {
        private final int every;
        private double[] time;
        private double[][] q;
        private double[][] v;
        private int n;

        TrajectoryObserver(int every) {
            this.every = every;
        }

        @Override
        public void start(RolloutSpec spec, TimeSteppingSystem system) {
            long steps = spec.stepCount();
            long samples = 2 + steps / every;
            if (samples > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("a trajectory of " + samples + " samples is too long; record fewer "
                        + "(every = " + every + ")");
            }
            int size = (int) samples;
            int nq = system.q().length;
            int nv = system.v().length;
            time = new double[size];
            q = new double[size][nq];
            v = new double[size][nv];
            record(system);
        }

        @Override
        public void afterStep(long step, TimeSteppingSystem system, ContactReport report) {
            if ((step + 1) % every == 0) {
                record(system);
            }
        }

        private void record(TimeSteppingSystem system) {
            time[n] = system.time();
            System.arraycopy(system.q(), 0, q[n], 0, q[n].length);
            System.arraycopy(system.v(), 0, v[n], 0, v[n].length);
            n++;
        }

        @Override
        public Trajectory finish(TimeSteppingSystem system) {
            if (n == 0 || Double.doubleToRawLongBits(time[n - 1]) != Double.doubleToRawLongBits(system.time())) {
                record(system);
            }
            return new Trajectory(Arrays.copyOf(time, n), Arrays.copyOf(q, n), Arrays.copyOf(v, n));
        }
    }
}
