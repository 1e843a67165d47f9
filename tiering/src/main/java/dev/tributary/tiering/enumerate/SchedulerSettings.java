package dev.tributary.tiering.enumerate;

import dev.tributary.tiering.commit.CommitOrder;
import java.time.Duration;

/**
 * The enumerator's tunables, read from {@link dev.tributary.tiering.job.TieringOptions}.
 *
 * @param minRequestInterval least time between the starts of two table requests that came back
 *     empty, so a coordinator that answers at once is not polled in a busy loop
 * @param stuckAfter how long after a force-finish a log split may still be open before its round is
 *     failed as stuck; the table's freshness when that is longer
 */
public record SchedulerSettings(
        Duration heartbeatInterval,
        Duration minRequestInterval,
        long maxRecordsPerSplit,
        CommitOrder commitOrder,
        Duration stuckAfter) {}
