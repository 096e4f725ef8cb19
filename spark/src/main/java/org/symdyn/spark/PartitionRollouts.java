package org.symdyn.spark;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Supplier;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Row;
import org.symdyn.rollout.FinalState;
import org.symdyn.rollout.Outcomes;
import org.symdyn.rollout.RolloutObserver;
import org.symdyn.rollout.RolloutResult;
import org.symdyn.rollout.RolloutSpec;
import org.symdyn.rollout.RolloutWorker;

/**
 * One Spark task's rollouts: a {@link RolloutWorker} made for the partition (the model file read once, one model
 * instance) runs each specification row in turn as the result iterator is read, so a partition's results stream
 * out instead of being held. A row that is no specification (a null column) gives a failed result row, like any
 * other invalid specification; only a job that cannot make its worker (a bad model file or class) and a row without
 * an index, whose result could not be keyed, fail the task.
 */
final class PartitionRollouts implements MapPartitionsFunction<Row, Row> {
    private static final long serialVersionUID = 1L;

    private final RolloutJob job;

    PartitionRollouts(RolloutJob job) {
        this.job = job;
    }

    @Override
    public Iterator<Row> call(Iterator<Row> specs) {
        if (!specs.hasNext()) {
            return specs; // an empty partition makes no worker
        }
        RolloutWorker worker = job.newWorker();
        Supplier<? extends RolloutObserver<FinalState>> observers = Outcomes.finalState();
        return new Iterator<>() {
            private int n;

            @Override
            public boolean hasNext() {
                return specs.hasNext();
            }

            @Override
            public Row next() {
                if (!specs.hasNext()) {
                    throw new NoSuchElementException();
                }
                Row row = specs.next();
                long index = RolloutRows.index(row);
                RolloutSpec spec;
                try {
                    spec = RolloutRows.spec(row);
                } catch (IllegalArgumentException e) {
                    return RolloutRows.invalidRow(index, e.getMessage());
                }
                // the worker's index is only copied into its result; the row's own key is what the table keeps
                RolloutResult<FinalState> result = worker.run(n++, spec, observers);
                return RolloutRows.resultRow(index, result);
            }
        };
    }
}
