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
 * @param tableRequests table requests the job sent since it registered
 * @param pushedPlans tables handed to it while its request waited at the coordinator: the table
 *     became pending during the wait and went straight to the idle job (push, T3)
 * @param waitingForTable whether a request of the job waits at the coordinator now
 */
public record JobStatus(
        String jobId,
        String group,
        int parallelism,
        long lastHeartbeatMillis,
        List<Long> tables,
        long tableRequests,
        long pushedPlans,
        boolean waitingForTable) {
    public JobStatus {
        tables = List.copyOf(tables);
    }
}
