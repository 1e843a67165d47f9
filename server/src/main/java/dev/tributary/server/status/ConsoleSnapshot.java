package dev.tributary.server.status;

import dev.tributary.server.plan.TieringPlanService;
import java.util.List;
import java.util.Map;

/**
 * Everything one refresh of the web console shows (T43), taken at one instant so that its parts
 * cannot disagree: the summary, the tables, the jobs and the queues come from one coordinator
 * status, and the lag history stops at that status's time.
 *
 * @param timeMillis server time of the status
 * @param plan the tiering planner's verdict per table in {@code tables} (T44), computed at most
 *     {@link TieringPlanService#VERDICT_MAX_AGE_MILLIS} before; {@code null} when not available
 * @param page which of the lake tables (ordered by name) the overview shows; the table page shows
 *     one table and {@code page} is the first
 * @param tables the overview's page of tables as {@link TableRow}s (no round history), or the one
 *     table asked for as its full {@link TableStatusView}
 * @param queues each group's pending tables in the order jobs will get them (the first {@link
 *     #NAMES_SHOWN})
 * @param history the lag samples after the {@code since} the page gave, up to {@code timeMillis},
 *     of the tables in {@code tables}
 * @param cluster on the overview, the servers registered in the cluster metadata and which one
 *     coordinates (T49), in the JSON shape of {@code /api/cluster}; {@code null} on a table's page
 *     or when not available
 * @param replicas on a table's page, each bucket's leader, leader epoch, replicas and in-sync
 *     replicas (T50, {@link ReplicaRows}; a partitioned table's first partitions by name); {@code
 *     null} on the overview
 */
public record ConsoleSnapshot(
        long timeMillis,
        TieringPlanService.Verdicts plan,
        Summary summary,
        Page page,
        List<?> tables,
        List<Job> jobs,
        List<Queue> queues,
        History history,
        Map<String, Object> cluster,
        List<Map<String, Object>> replicas) {

    /** Table names a queue or a job lists at most; the counts are complete. */
    public static final int NAMES_SHOWN = 20;

    /**
     * @param offset tables before this page
     * @param limit tables per page
     * @param total lake tables in all
     */
    public record Page(int offset, int limit, int total) {}

    /**
     * @param tables lake tables
     * @param failing tables whose last round failed
     * @param liveJobs jobs that heartbeated within the heartbeat timeout
     */
    public record Summary(
            int tables,
            int tiering,
            int pending,
            int failing,
            int liveJobs,
            int jobs,
            LakeLocation lake) {}

    /**
     * @param live whether it heartbeated within the heartbeat timeout
     * @param tableCount the tables it is tiering
     * @param tables the first {@link #NAMES_SHOWN} of them, by name, in assignment order
     */
    public record Job(
            String jobId,
            String group,
            long lastHeartbeatMillis,
            boolean live,
            int tableCount,
            List<String> tables) {}

    /**
     * One group's pending tables, first to be handed out first.
     *
     * @param size tables waiting in the group
     * @param tables the first {@link #NAMES_SHOWN} of them
     */
    public record Queue(String group, int size, List<String> tables) {}

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
