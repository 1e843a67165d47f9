package dev.tributary.coordinator.tiering;

import dev.tributary.common.exception.InvalidInputException;
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

    /**
     * The largest parallelism a job may report: Flink's own upper bound of a job's maximum
     * parallelism. The planner simulates one reader per unit, so the number must be bounded.
     */
    static final int MAX_PARALLELISM = 32_768;

    /**
     * Rejects a registration the coordinator cannot keep: no job id, or a parallelism below 0 or
     * above {@value #MAX_PARALLELISM}. Checked before a re-registration fails the job's rounds, so
     * a bad call changes nothing.
     */
    static void checkRegistration(String jobId, int parallelism) {
        if (jobId == null || jobId.isBlank()) {
            throw new InvalidInputException("a tiering job needs a non-empty id");
        }
        if (parallelism < 0 || parallelism > MAX_PARALLELISM) {
            throw new InvalidInputException(
                    "job "
                            + jobId
                            + ": parallelism must be 0 (unknown) to "
                            + MAX_PARALLELISM
                            + ", got "
                            + parallelism);
        }
    }

    /**
     * A job that registers: {@link #seen} and the readers it runs, as it says ({@code 0}: not
     * known). The parallelism changes nothing in scheduling; status reports it and the planner
     * simulates it (T44).
     */
    JobInfo registered(String jobId, String group, int parallelism) {
        JobInfo job = seen(jobId, group);
        job.parallelism = parallelism;
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
