package dev.tributary.coordinator.tiering;

import dev.tributary.common.time.Clock;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The tiering jobs the coordinator knows: created by their registration or first heartbeat, touched
 * by every call, forgotten once idle for long. Event-loop thread only.
 */
final class JobRegistry {
    private final Clock clock;
    private final Map<String, JobInfo> jobs = new HashMap<>();

    JobRegistry(Clock clock) {
        this.clock = clock;
    }

    /** The job, created if new; either way in {@code group} now and touched. */
    JobInfo seen(String jobId, String group) {
        JobInfo job = jobs.computeIfAbsent(jobId, id -> new JobInfo(id, group));
        job.group = group;
        job.lastHeartbeatNanos = clock.nanoTime();
        job.lastHeartbeatMillis = clock.currentTimeMillis();
        return job;
    }

    /** The job, or {@code null} if unknown. */
    JobInfo get(String jobId) {
        return jobId == null ? null : jobs.get(jobId);
    }

    /** Forgets jobs that hold no table and have been silent for {@code silentNanos}. */
    void forgetIdle(long silentNanos) {
        long now = clock.nanoTime();
        jobs.values()
                .removeIf(j -> j.tables.isEmpty() && now - j.lastHeartbeatNanos >= silentNanos);
    }

    Collection<JobInfo> all() {
        return jobs.values();
    }
}
