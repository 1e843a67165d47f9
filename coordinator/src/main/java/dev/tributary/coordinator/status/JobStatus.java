package dev.tributary.coordinator.status;

import java.util.List;

/**
 * A registered tiering job.
 *
 * @param jobId the job id
 * @param group its group
 * @param lastHeartbeatMillis wall time of its last heartbeat
 * @param tables ids of the tables it is tiering, in assignment order
 */
public record JobStatus(String jobId, String group, long lastHeartbeatMillis, List<Long> tables) {
    public JobStatus {
        tables = List.copyOf(tables);
    }
}
