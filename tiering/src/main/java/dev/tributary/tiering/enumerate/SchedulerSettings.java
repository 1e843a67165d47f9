package dev.tributary.tiering.enumerate;

import java.time.Duration;

/**
 * The enumerator's own tunables, read from {@link dev.tributary.tiering.job.TieringOptions}; the
 * settings the coordinator owns (heartbeat interval, commit order) come from the registration.
 *
 * @param minRequestInterval least time between the starts of two table requests that came back
 *     empty, so a coordinator that answers at once is not polled in a busy loop
 * @param stuckAfter how long after a force-finish a log split may still be open before its round is
 *     failed as stuck; the table's freshness when that is longer
 */
public record SchedulerSettings(
        Duration minRequestInterval, long maxRecordsPerSplit, Duration stuckAfter) {}
