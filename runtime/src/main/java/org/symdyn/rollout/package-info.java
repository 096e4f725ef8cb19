/**
 * Many simulations at once: a batch of rollout specifications (initial state, parameters, noise seed, duration and
 * step) run on every core against one model (a generated class or the interpreter) with a controller per rollout,
 * each giving its outcome (final state, trajectory, cost, or the caller's own reduction) or its failure, with the
 * same bits whatever the thread count, the order and the machine ({@link org.symdyn.rollout.Rollouts}). The same
 * {@link org.symdyn.rollout.RolloutWorker} runs a Spark partition's rollouts in the {@code spark} module.
 */
package org.symdyn.rollout;
