package dev.tributary.coordinator.tiering;

import java.util.LinkedHashSet;

/** A registered tiering job. Event-loop thread only. */
final class JobInfo {
    final String jobId;
    String group;

    /** Readers the job runs (its parallelism) as it registered, 0 when it did not say. */
    int parallelism;

    long lastHeartbeatNanos;
    long lastHeartbeatMillis;

    /** Table requests the job sent, and how many of them got a table pushed while waiting (T3). */
    long tableRequests;

    long pushedPlans;

    /** Tables assigned to this job and not yet resolved, in assignment order (T25, T26). */
    final LinkedHashSet<Long> tables = new LinkedHashSet<>();

    JobInfo(String jobId, String group) {
        this.jobId = jobId;
        this.group = group;
    }
}
