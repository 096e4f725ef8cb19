/**
 * A batch of rollouts ({@link org.symdyn.rollout}) as an Apache Spark job, for batches past one machine: a table of
 * specifications in, a table of final states (or failures) out, one {@link org.symdyn.rollout.RolloutWorker} per
 * partition, the same bits as {@link org.symdyn.rollout.Rollouts} on threads. Spark is provided by the cluster;
 * nothing else in SymDyn depends on this module.
 */
package org.symdyn.spark;
