package dev.tributary.coordinator.tiering;

import dev.tributary.coordinator.runtime.TimerService;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.RoundPlan;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;

/**
 * Jobs whose table request found nothing pending and asked to wait (long poll): the first table
 * that becomes pending in their group is pushed to the longest waiter at once, so an idle reader
 * gets work without a poll interval (T3); compaction work that becomes available goes the same way
 * to waiters that accept it (T38). Event-loop thread only.
 */
final class TableWaiters {
    private final TimerService timers;
    private final Map<String, ArrayDeque<Waiter>> byGroup = new HashMap<>();
    private final Map<String, Waiter> byJob = new HashMap<>();

    TableWaiters(TimerService timers) {
        this.timers = timers;
    }

    /** What a woken waiter gets: a round, or a compaction grant. */
    record Work(RoundPlan plan, dev.tributary.tiering.api.MaintenanceGrant grant) {}

    private static final class Waiter {
        final JobInfo job;
        final HeartbeatResult answer;
        final boolean acceptMaintenance;
        final CompletableFuture<HeartbeatResult> future = new CompletableFuture<>();
        TimerService.Timer timer;

        Waiter(JobInfo job, HeartbeatResult answer, boolean acceptMaintenance) {
            this.job = job;
            this.answer = answer;
            this.acceptMaintenance = acceptMaintenance;
        }
    }

    /**
     * Parks a request whose answer so far is {@code answer}; it is answered with a plan added when
     * one appears, else as it is after {@code waitMillis}.
     */
    CompletableFuture<HeartbeatResult> park(
            JobInfo job, HeartbeatResult answer, long waitMillis, boolean acceptMaintenance) {
        release(job.jobId);
        Waiter w = new Waiter(job, answer, acceptMaintenance);
        byJob.put(job.jobId, w);
        byGroup.computeIfAbsent(job.group, g -> new ArrayDeque<>()).add(w);
        w.timer =
                timers.schedule(
                        waitMillis,
                        () -> {
                            if (byJob.remove(w.job.jobId, w)) {
                                byGroup.get(w.job.group).remove(w);
                                w.future.complete(w.answer);
                            }
                        });
        return w.future;
    }

    /** Answers a job's parked request without a plan (it sent a newer request). */
    void release(String jobId) {
        Waiter w = byJob.remove(jobId);
        if (w != null) {
            w.timer.cancel();
            byGroup.get(w.job.group).remove(w);
            w.future.complete(w.answer);
        }
    }

    /**
     * Hands work of {@code group} to its waiters, longest waiting first: {@code assign} gets the
     * job and whether it accepts compaction, and answers with work or {@code null}.
     */
    void wake(String group, BiFunction<JobInfo, Boolean, Work> assign) {
        ArrayDeque<Waiter> q = byGroup.get(group);
        if (q == null) {
            return;
        }
        for (Waiter w : List.copyOf(q)) {
            Work work = assign.apply(w.job, w.acceptMaintenance);
            if (work == null) {
                continue;
            }
            q.remove(w);
            byJob.remove(w.job.jobId, w);
            w.timer.cancel();
            w.job.pushedPlans++;
            w.future.complete(
                    work.plan() != null
                            ? w.answer.withPlan(work.plan())
                            : w.answer.withMaintenance(work.grant()));
        }
    }

    int size() {
        return byJob.size();
    }

    boolean isWaiting(String jobId) {
        return byJob.containsKey(jobId);
    }

    /** Answers every parked request without a plan (the coordinator is closing). */
    void releaseAll() {
        for (String jobId : List.copyOf(byJob.keySet())) {
            release(jobId);
        }
    }
}
