package dev.tributary.client.tiering;

import java.time.Duration;

/**
 * What the coordinator tells a job when it registers: the settings it owns and the job follows, so
 * a job on a remote Flink cluster can never disagree with the server.
 *
 * @param heartbeatInterval how often to heartbeat the in-flight attempts
 * @param heartbeatTimeout after how long without a heartbeat the coordinator fails an attempt
 * @param commitOrder COMPLETION or ASSIGNMENT (T25); enforced by the coordinator
 * @param commitTimeout how long a lake commit may run before the coordinator gives up on it; a
 *     commit call waits at least this long
 * @param maintenanceSlots how many readers may compact at the same time (T38); 0: ask for no
 *     compaction
 * @param maintenanceTimeout a compaction grant is given up this long after it was granted
 */
public record JobSettings(
        String jobId,
        Duration heartbeatInterval,
        Duration heartbeatTimeout,
        String commitOrder,
        Duration commitTimeout,
        int maintenanceSlots,
        Duration maintenanceTimeout) {

    /** Settings of a coordinator that hands out no compaction. */
    public JobSettings(
            String jobId,
            Duration heartbeatInterval,
            Duration heartbeatTimeout,
            String commitOrder,
            Duration commitTimeout) {
        this(
                jobId,
                heartbeatInterval,
                heartbeatTimeout,
                commitOrder,
                commitTimeout,
                0,
                commitTimeout);
    }
}
