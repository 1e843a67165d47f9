package dev.tributary.coordinator.tiering;

import java.time.Duration;

/**
 * The coordinator's answer to a job registration.
 *
 * @param jobId the job id
 * @param group the job's group
 * @param heartbeatInterval how often the job must heartbeat
 * @param heartbeatTimeout after how long without a heartbeat its tables are failed
 * @param commitOrder the coordinator's commit order (T25)
 */
public record JobRegistration(
        String jobId,
        String group,
        Duration heartbeatInterval,
        Duration heartbeatTimeout,
        CommitOrder commitOrder) {}
