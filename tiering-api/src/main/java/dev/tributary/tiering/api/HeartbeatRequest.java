package dev.tributary.tiering.api;

import dev.tributary.common.exception.InvalidInputException;
import java.util.List;
import java.util.Objects;

/**
 * A tiering job's periodic call (every {@link JobSettings#heartbeatInterval()}, and at once
 * whenever a reader is idle and no split is queued).
 *
 * @param jobId the job's id (stable for the job's lifetime; a restarted job uses a new id or
 *     registers again)
 * @param group the job's tiering group (T26); {@code null} means the default group
 * @param inFlight every round the job is still working on, to keep them alive (T18)
 * @param reports rounds that ended without a commit
 * @param requestTable whether the job wants one more table
 * @param waitForTableMillis with {@code requestTable}: if no table is pending, hold the answer up
 *     to this long (capped at the heartbeat interval) and answer as soon as one becomes pending (a
 *     long poll, so idle readers get work at once, T3); 0 answers at once
 * @param maintenanceInFlight compaction grants the job is still working on (T38)
 * @param maintenanceReports compaction grants that failed in the job
 * @param acceptMaintenance with {@code requestTable}: when no table is pending, a compaction grant
 *     may be the answer (the job has a free maintenance slot)
 */
public record HeartbeatRequest(
        String jobId,
        String group,
        List<Attempt> inFlight,
        List<RoundReport> reports,
        boolean requestTable,
        long waitForTableMillis,
        List<MaintenanceAttempt> maintenanceInFlight,
        List<MaintenanceReport> maintenanceReports,
        boolean acceptMaintenance) {

    /** A request of a job that takes no compaction work. */
    public HeartbeatRequest(
            String jobId,
            String group,
            List<Attempt> inFlight,
            List<RoundReport> reports,
            boolean requestTable,
            long waitForTableMillis) {
        this(
                jobId,
                group,
                inFlight,
                reports,
                requestTable,
                waitForTableMillis,
                List.of(),
                List.of(),
                false);
    }

    /** A request that is answered at once. */
    public HeartbeatRequest(
            String jobId,
            String group,
            List<Attempt> inFlight,
            List<RoundReport> reports,
            boolean requestTable) {
        this(jobId, group, inFlight, reports, requestTable, 0);
    }

    public HeartbeatRequest {
        if (jobId == null || jobId.isBlank()) {
            throw new InvalidInputException("a heartbeat needs a non-empty job id");
        }
        inFlight = List.copyOf(Objects.requireNonNull(inFlight, "inFlight"));
        reports = List.copyOf(Objects.requireNonNull(reports, "reports"));
        maintenanceInFlight = List.copyOf(maintenanceInFlight);
        maintenanceReports = List.copyOf(maintenanceReports);
        if (waitForTableMillis < 0) {
            throw new InvalidInputException("waitForTableMillis must be >= 0");
        }
    }
}
