package dev.tributary.coordinator.simulation;

import dev.tributary.coordinator.tiering.QueuePolicy;
import java.time.Duration;

/**
 * Settings of a {@link TieringSimulator} run.
 *
 * @param policy the queue policy under test
 * @param readers the job's parallelism
 * @param readerRecordsPerSecond rated model: records one reader moves per second
 * @param splitOverhead rated model: fixed cost per split (open reader and writer, write files)
 * @param createdBefore tables are created this long before the job starts (time 0)
 * @param horizon how long the job runs
 * @param warmup lag and wait figures ignore the first part of the run
 * @param seed seeds split shuffling
 */
public record SimConfig(
        QueuePolicy policy,
        int readers,
        double readerRecordsPerSecond,
        Duration splitOverhead,
        Duration createdBefore,
        Duration horizon,
        Duration warmup,
        long seed) {

    public SimConfig withPolicy(QueuePolicy p) {
        return new SimConfig(
                p,
                readers,
                readerRecordsPerSecond,
                splitOverhead,
                createdBefore,
                horizon,
                warmup,
                seed);
    }
}
