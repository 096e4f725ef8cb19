package org.symdyn.rollout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.symdyn.contract.ModelFunctions;

/**
 * A batch of rollouts on all cores: each worker thread owns one model instance (a generated class or the
 * interpreter, from the batch's model supplier) and runs rollouts one after another ({@link RolloutWorker}), taking
 * the next index of the batch when it is done with one. Results come back in the batch's order.
 *
 * <pre>
 *   Rollouts rollouts = Rollouts.builder(QuadrupedDynamics::new, SystemFactory.of(model))
 *           .controller((spec, system) -&gt; myController)      // default: none
 *           .threads(4)                                       // default: every processor
 *           .build();
 *   List&lt;RolloutResult&lt;FinalState&gt;&gt; results = rollouts.run(specs, Outcomes.finalState());
 * </pre>
 *
 * <p><b>The same bits, whatever the thread count, the order and the machine.</b> A rollout's result is a function
 * of its specification alone ({@link RolloutWorker} builds it from nothing each time), no number is reduced across
 * threads, and a step's arithmetic is Java's, which since Java 17 rounds every operation as IEEE 754 says on every
 * processor; the few transcendental functions of a step are {@code StrictMath}'s or the fused-multiply-add sine and
 * cosine the generated classes inline ({@link org.symdyn.spatial.SinCos}, StrictMath's past 2¹⁹π), never {@code Math}'s, whose intrinsics
 * may differ in the last bit between x86-64 and AArch64. So 1 thread, N threads, another JVM (same major version)
 * and a Spark executor give the same bits. What breaks it: a controller or observer that reads a clock or shared
 * state, a generated class made with {@code --math-trig}, or the continuous-time system (not used here).
 *
 * <p>A failing rollout (an invalid specification, a non-finite or diverged state, a throwing controller, an
 * unconverged solve when {@link Builder#failOnUnconverged} asks for it) is reported in its result and the others
 * complete. {@link #run} is not to be called from two threads at once.
 */
public final class Rollouts {
    private final Supplier<? extends ModelFunctions> models;
    private final SystemFactory systems;
    private final Controller.Factory controllers;
    private final boolean failOnUnconverged;
    private final int threads;
    private final RolloutListener listener;
    private final RolloutWorker[] workers;

    private Rollouts(Builder b) {
        this.models = b.models;
        this.systems = b.systems;
        this.controllers = b.controllers;
        this.failOnUnconverged = b.failOnUnconverged;
        this.threads = b.threads;
        this.listener = b.listener;
        this.workers = new RolloutWorker[threads];
    }

    /**
     * A batch whose worker threads each get a model instance from {@code models} (called once per thread, e.g. a
     * generated class's constructor {@code QuadrupedDynamics::new}, or {@code () -> generic.copy()}), and whose
     * rollouts run on systems from {@code systems} ({@link SystemFactory#of} for a model file's own).
     */
    public static Builder builder(Supplier<? extends ModelFunctions> models, SystemFactory systems) {
        return new Builder(models, systems);
    }

    /** As {@link #builder(Supplier, SystemFactory)} with one {@code prototype.copy()} per thread. */
    public static Builder builder(ModelFunctions prototype, SystemFactory systems) {
        Objects.requireNonNull(prototype, "prototype");
        return new Builder(prototype::copy, systems);
    }

    /** The number of worker threads. */
    public int threads() {
        return threads;
    }

    /**
     * Runs every rollout of {@code specs} and returns their results in the same order; each rollout's outcome is
     * what an observer from {@code observers} made of it.
     *
     * @throws IllegalStateException if a worker stopped (the cause says why: an {@link Error}, the model's supplier
     *                               threw or gave null, the listener threw), or this thread was interrupted while
     *                               waiting
     */
    public synchronized <R> List<RolloutResult<R>> run(List<RolloutSpec> specs,
            Supplier<? extends RolloutObserver<R>> observers) {
        Objects.requireNonNull(observers, "observers");
        RolloutSpec[] batch = specs.toArray(new RolloutSpec[0]);
        for (int i = 0; i < batch.length; i++) {
            Objects.requireNonNull(batch[i], () -> "null specification in the batch");
        }
        @SuppressWarnings("unchecked")
        RolloutResult<R>[] results = new RolloutResult[batch.length];
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicReference<Throwable> died = new AtomicReference<>();
        int n = Math.min(threads, Math.max(1, batch.length));
        List<Thread> running = new ArrayList<>(n);
        for (int w = 0; w < n; w++) {
            int slot = w;
            Thread t = new Thread(() -> {
                try {
                    RolloutWorker worker = worker(slot);
                    for (int i = next.getAndIncrement(); i < batch.length && died.get() == null;
                            i = next.getAndIncrement()) {
                        results[i] = worker.run(i, batch[i], observers);
                        int count = done.incrementAndGet();
                        if (listener != null) {
                            synchronized (listener) {
                                listener.finished(results[i], count, batch.length);
                            }
                        }
                    }
                } catch (Throwable e) {
                    died.compareAndSet(null, e);
                }
            }, "symdyn-rollout-" + w);
            t.setDaemon(true);
            running.add(t);
            t.start();
        }
        try {
            for (Thread t : running) {
                t.join();
            }
        } catch (InterruptedException e) {
            died.compareAndSet(null, e);
            running.forEach(Thread::interrupt);
            // A worker still in its rollout keeps its model instance until that ends: the next run must not share
            // it (a run right after an interrupted one reported "H is not positive definite" on a rollout that
            // passes), so those slots get new workers.
            synchronized (workers) {
                for (int w = 0; w < running.size(); w++) {
                    if (running.get(w).isAlive()) {
                        workers[w] = null;
                    }
                }
            }
            Thread.currentThread().interrupt();
        }
        if (died.get() != null) {
            throw new IllegalStateException("a rollout worker stopped: " + died.get(), died.get());
        }
        return Arrays.asList(results);
    }

    private RolloutWorker worker(int slot) {
        // made on the worker's own thread the first time, kept for the next batches (the model instance is its)
        synchronized (workers) {
            if (workers[slot] == null) {
                ModelFunctions model = Objects.requireNonNull(models.get(), "the model supplier gave null");
                workers[slot] = new RolloutWorker(model, systems, controllers, failOnUnconverged);
            }
            return workers[slot];
        }
    }

    /**
     * The noise seed of sensor {@code k} of a rollout with seed {@code seed}: SplitMix64's output function of
     * seed + (k + 1) γ (γ its odd constant), so that neighbouring seeds and neighbouring sensors draw unrelated
     * sequences.
     */
    public static long sensorSeed(long seed, int k) {
        return org.symdyn.systems.Sensor.streamSeed(seed, k);
    }

    /** Told of every finished rollout, one call at a time (from the worker threads, in completion order). */
    @FunctionalInterface
    public interface RolloutListener {
        /**
         * @param result the finished rollout's result
         * @param done   how many of the batch have finished, this one included
         * @param total  the batch's size
         */
        void finished(RolloutResult<?> result, int done, int total);
    }

    /** Configures a batch. */
    public static final class Builder {
        private final Supplier<? extends ModelFunctions> models;
        private final SystemFactory systems;
        private Controller.Factory controllers = (spec, system) -> Controller.NONE;
        private boolean failOnUnconverged;
        /** The most worker threads: each holds a model instance and a system (2^31 - 1 ran out of memory). */
        public static final int MAX_THREADS = 4096;

        private int threads = Runtime.getRuntime().availableProcessors();
        private RolloutListener listener;

        private Builder(Supplier<? extends ModelFunctions> models, SystemFactory systems) {
            this.models = Objects.requireNonNull(models, "models");
            this.systems = Objects.requireNonNull(systems, "systems");
        }

        /** Each rollout's controller (default: none, {@link Controller#NONE}). */
        public Builder controller(Controller.Factory factory) {
            this.controllers = Objects.requireNonNull(factory, "factory");
            return this;
        }

        /**
         * Whether a contact solve that did not converge fails its rollout ({@link RolloutFailure.Kind#UNCONVERGED});
         * default false: such solves are counted in the result's {@code solves}.
         */
        public Builder failOnUnconverged(boolean fail) {
            this.failOnUnconverged = fail;
            return this;
        }

        /**
         * The number of worker threads (1 to {@value #MAX_THREADS}; default: the processors the JVM sees).
         *
         * @throws IllegalArgumentException outside that range
         */
        public Builder threads(int n) {
            if (n < 1 || n > MAX_THREADS) {
                throw new IllegalArgumentException("threads must be 1 to " + MAX_THREADS + ", got " + n);
            }
            this.threads = n;
            return this;
        }

        /** Told of each finished rollout (progress output); default none. */
        public Builder listener(RolloutListener l) {
            this.listener = l;
            return this;
        }

        public Rollouts build() {
            return new Rollouts(this);
        }
    }
}
