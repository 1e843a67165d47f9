package dev.tributary.tiering.enumerate;

import dev.tributary.tiering.commit.CommitOrder;
import java.time.Duration;

/**
 * The enumerator's tunables, read from {@link dev.tributary.tiering.job.TieringOptions}.
 *
 * @param minRequestInterval least time between the starts of two table requests that came back
 *     empty, so a coordinator that answers at once is not polled in a busy loop
 */
public record SchedulerSettings(
        Duration heartbeatInterval,
        Duration minRequestInterval,
        long maxRecordsPerSplit,
        CommitOrder commitOrder) {}
