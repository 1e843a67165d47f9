package dev.tributary.server.status;

import dev.tributary.server.plan.TieringPlanService;
import java.util.List;

/**
 * Everything one refresh of the web console shows (T43), taken at one instant so that its parts
 * cannot disagree: the summary, the tables, the jobs and the queues come from one coordinator
 * status, and the lag history stops at that status's time.
 *
 * @param timeMillis server time of the status
 * @param plan the tiering planner's verdict per table (T44), computed at most {@link
 *     TieringPlanService#VERDICT_MAX_AGE_MILLIS} before; {@code null} when not available
 * @param tables the lake tables (all of them without their round history, or the one asked for with
 *     it)
 * @param queues each group's pending tables in the order jobs will get them
 * @param history the lag samples after the {@code since} the page gave, up to {@code timeMillis}
 */
public record ConsoleSnapshot(
        long timeMillis,
        TieringPlanService.Verdicts plan,
        Summary summary,
        List<TableStatusView> tables,
        List<Job> jobs,
        List<Queue> queues,
        History history) {

    /**
     * @param tables lake tables
     * @param failing tables whose last round failed
     * @param liveJobs jobs that heartbeated within the heartbeat timeout
     */
    public record Summary(
            int tables, int tiering, int pending, int failing, int liveJobs, int jobs) {}

    /**
     * @param live whether it heartbeated within the heartbeat timeout
     * @param tables the tables it is tiering, by name, in assignment order
     */
    public record Job(
            String jobId,
            String group,
            long lastHeartbeatMillis,
            boolean live,
            List<String> tables) {}

    /** One group's pending tables, first to be handed out first. */
    public record Queue(String group, List<String> tables) {}

    /**
     * @param lastSampleMillis the newest sample in {@code series}, or {@code since} when none is
     *     newer: the {@code since} of the page's next request
     * @param since the exclusive lower bound the page asked for ({@code -1}: everything kept)
     * @param series one per lake table (with no samples when nothing new)
     */
    public record History(
            long intervalMillis,
            long retentionMillis,
            long lastSampleMillis,
            long since,
            List<LagHistoryView.Series> series) {}
}
