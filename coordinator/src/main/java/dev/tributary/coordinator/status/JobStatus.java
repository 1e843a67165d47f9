package dev.tributary.coordinator.status;

import java.util.List;

/**
 * A registered tiering job.
 *
 * @param jobId the job id
 * @param group its group
 * @param parallelism the readers it runs, as it registered; 0 when it did not say
 * @param lastHeartbeatMillis wall time of its last heartbeat
 * @param tables ids of the tables it is tiering, in assignment order
 */
public record JobStatus(
        String jobId, String group, int parallelism, long lastHeartbeatMillis, List<Long> tables) {
    public JobStatus {
        tables = List.copyOf(tables);
    }
}
