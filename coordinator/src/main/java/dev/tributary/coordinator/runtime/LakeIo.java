package dev.tributary.coordinator.runtime;

import java.util.concurrent.Executor;

/**
 * Where the coordinator's lake I/O runs (commits, reconciliation reads, orphan cleanup): off the
 * event loop, on a few threads. A task that overruns its deadline can be abandoned: it is
 * interrupted and, while it still runs, no longer counts against the pool's threads, so a few hung
 * lake calls cannot stall every other table's commits.
 */
public interface LakeIo extends Executor {

    /** Runs {@code task}; the handle abandons it. */
    Handle submit(Runnable task);

    /** A submitted task. */
    interface Handle {
        /**
         * Gives up on the task: if it has not started it never will; if it runs it is interrupted
         * and another thread takes its place until it returns.
         *
         * @return true if the task had not started (so it did nothing), false if it was running or
         *     already done
         */
        boolean abandon();
    }
}
