package dev.tributary.tiering.api;

import java.time.Duration;

/**
 * The coordinator's answer to a job registration: the settings a job must follow, which the
 * coordinator owns (one owner per setting, so a job on a remote Flink cluster can never disagree
 * with the server).
 *
 * @param jobId the job id
 * @param group the job's group (T26); {@code null} for the default group
 * @param heartbeatInterval how often the job must heartbeat its in-flight attempts
 * @param heartbeatTimeout after how long without a heartbeat its tables are failed
 * @param commitOrder the coordinator's commit order (T25); the coordinator enforces it
 * @param commitTimeout how long a lake commit may take before its outcome is reconciled instead of
 *     waited for; a job's commit call waits at least this long
 * @param maintenanceSlots how many of the job's readers may compact at once (T38; 0: no compaction)
 * @param maintenanceTimeout a compaction grant is given up this long after it was granted
 */
public record JobSettings(
        String jobId,
        String group,
        Duration heartbeatInterval,
        Duration heartbeatTimeout,
        CommitOrder commitOrder,
        Duration commitTimeout,
        int maintenanceSlots,
        Duration maintenanceTimeout) {}
