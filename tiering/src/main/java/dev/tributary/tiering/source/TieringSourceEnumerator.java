package dev.tributary.tiering.source;

import dev.tributary.common.concurrent.DaemonThreads;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.time.Clock;
import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.JobSettings;
import dev.tributary.tiering.api.MaintenanceAttempt;
import dev.tributary.tiering.api.MaintenanceCommit;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.enumerate.EnumeratorEffects;
import dev.tributary.tiering.enumerate.TieringScheduler;
import dev.tributary.tiering.event.CompactionEvent;
import dev.tributary.tiering.event.CompactionResultEvent;
import dev.tributary.tiering.event.RoundControlEvent;
import dev.tributary.tiering.event.SplitResultEvent;
import dev.tributary.tiering.job.TieringOptions;
import dev.tributary.tiering.service.TieringService;
import dev.tributary.tiering.service.TieringServiceFactory;
import dev.tributary.tiering.split.SplitPlanner;
import dev.tributary.tiering.split.TieringSplit;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flink glue around {@link TieringScheduler}: Flink callbacks and the periodic tick run the
 * scheduler on the coordinator thread; coordinator calls run on a small I/O pool (commits are
 * asynchronous calls, so commits of different tables overlap without a thread each, T24) and their
 * outcomes are handed back to the coordinator thread. Registration is retried until it succeeds: a
 * job outlives a server that is down or restarting.
 */
final class TieringSourceEnumerator
        implements SplitEnumerator<TieringSplit, EnumeratorCheckpoint>, EnumeratorEffects {
    private static final Logger LOG = LoggerFactory.getLogger(TieringSourceEnumerator.class);

    private final SplitEnumeratorContext<TieringSplit> context;
    private final TieringServiceFactory services;
    private final Configuration config;
    private final String jobId;
    private final String group;
    private final Duration requestMaxWait;
    private final TieringScheduler scheduler;
    private final ExecutorService io;
    private volatile TieringService service;
    private volatile boolean closed;

    TieringSourceEnumerator(
            SplitEnumeratorContext<TieringSplit> context,
            TieringServiceFactory services,
            Configuration config,
            String jobId) {
        this.context = context;
        this.services = services;
        this.config = config;
        this.jobId = jobId;
        this.group = config.get(TieringOptions.JOB_GROUP);
        this.requestMaxWait = config.get(TieringOptions.REQUEST_MAX_WAIT);
        long seed =
                config.getOptional(TieringOptions.SHUFFLE_SEED)
                        .orElseGet(() -> new Random().nextLong());
        LOG.info("tiering job {} starts; split shuffle seed {}", jobId, seed);
        this.scheduler =
                new TieringScheduler(
                        Clock.system(),
                        TieringOptions.schedulerSettings(config),
                        new SplitPlanner(
                                config.get(TieringOptions.SPLIT_MAX_RECORDS), new Random(seed)),
                        this);
        this.io = Executors.newCachedThreadPool(DaemonThreads.named("tiering-enumerator-io"));
    }

    @Override
    public void start() {
        io.execute(this::register);
        long tick = config.get(TieringOptions.TICK_INTERVAL).toMillis();
        context.callAsync(() -> null, (v, t) -> scheduler.onTick(), tick, tick);
    }

    /** Registers, retrying with a growing pause while the coordinator cannot be reached. */
    private void register() {
        long pauseMillis = 500;
        while (!closed) {
            try {
                if (service == null) {
                    service = services.create();
                }
                JobSettings settings = service.register(jobId, group, context.currentParallelism());
                onCoordinatorThread(() -> scheduler.onRegistered(settings));
                return;
            } catch (RuntimeException e) {
                LOG.warn(
                        "tiering job {} could not register with the coordinator ({}); retrying in"
                                + " {} ms",
                        jobId,
                        e.getMessage(),
                        pauseMillis);
            }
            try {
                Thread.sleep(pauseMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            pauseMillis = Math.min(30_000, pauseMillis * 2);
        }
    }

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {
        scheduler.onSplitRequest(subtaskId);
    }

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent event) {
        if (event instanceof SplitResultEvent result) {
            scheduler.onSplitResult(subtaskId, result);
        } else if (event instanceof CompactionResultEvent result) {
            scheduler.onCompactionResult(subtaskId, result);
        } else {
            LOG.warn("ignoring unknown event {} from reader {}", event, subtaskId);
        }
    }

    @Override
    public void addSplitsBack(List<TieringSplit> splits, int subtaskId) {
        // no checkpoints: splits come back only when a reader failed; its rounds fail (T22)
        scheduler.onReaderLost(subtaskId);
    }

    @Override
    public void addReader(int subtaskId) {}

    @Override
    public EnumeratorCheckpoint snapshotState(long checkpointId) {
        return EnumeratorCheckpoint.EMPTY;
    }

    @Override
    public void close() {
        closed = true;
        TieringService s = service;
        if (s != null) {
            // hand our tables back at once instead of letting them wait for the heartbeat timeout
            for (Attempt t : scheduler.inFlight()) {
                try {
                    s.reportFailed(jobId, t, "tiering job stopped", List.of());
                } catch (RuntimeException e) {
                    LOG.debug("could not report {} as failed on close", t, e);
                }
            }
            scheduler
                    .compaction()
                    .ifPresent(
                            c -> {
                                try {
                                    s.reportCompactionFailed(
                                            jobId, c, "tiering job stopped", List.of());
                                } catch (RuntimeException e) {
                                    LOG.debug("could not report {} as failed on close", c, e);
                                }
                            });
        }
        io.shutdownNow();
        if (s != null) {
            s.close();
        }
    }

    // ---------------------------------------------------------------- EnumeratorEffects

    @Override
    public void assignSplit(int subtask, TieringSplit split) {
        context.assignSplit(split, subtask);
    }

    @Override
    public void sendToReader(int subtask, RoundControlEvent event) {
        context.sendEventToSourceReader(subtask, event);
    }

    @Override
    public void sendToReader(int subtask, CompactionEvent event) {
        context.sendEventToSourceReader(subtask, event);
    }

    @Override
    public void requestTable(boolean acceptCompaction) {
        offThread(
                io,
                () -> {
                    try {
                        HeartbeatResult r =
                                service.requestWork(jobId, requestMaxWait, acceptCompaction);
                        onCoordinatorThread(
                                () -> {
                                    if (r.roundPlan().isPresent()) {
                                        scheduler.onTableGranted(r.roundPlan().get());
                                    } else if (r.maintenanceGrant().isPresent()) {
                                        scheduler.onCompactionGranted(r.maintenanceGrant().get());
                                    } else {
                                        scheduler.onNoTable();
                                    }
                                });
                    } catch (RuntimeException e) {
                        onCoordinatorThread(() -> scheduler.onRequestFailed(e));
                    }
                });
    }

    @Override
    public void heartbeat(List<Attempt> inFlight, List<MaintenanceAttempt> compactions) {
        offThread(
                io,
                () -> {
                    try {
                        HeartbeatResult r = service.heartbeat(jobId, inFlight, compactions);
                        onCoordinatorThread(() -> scheduler.onHeartbeatDone(r));
                    } catch (RuntimeException e) {
                        onCoordinatorThread(() -> scheduler.onHeartbeatFailed(e));
                    }
                });
    }

    @Override
    public void commit(Attempt attempt, RoundCommit request) {
        offThread(
                io,
                () -> {
                    try {
                        service.commit(jobId, request)
                                .whenComplete(
                                        (outcome, error) ->
                                                onCoordinatorThread(
                                                        () ->
                                                                scheduler.onCommitDone(
                                                                        attempt,
                                                                        outcome,
                                                                        unwrap(error))));
                    } catch (RuntimeException e) {
                        onCoordinatorThread(() -> scheduler.onCommitDone(attempt, null, e));
                    }
                });
    }

    @Override
    public void commitCompaction(MaintenanceAttempt attempt, MaintenanceCommit commit) {
        offThread(
                io,
                () -> {
                    try {
                        service.commitCompaction(jobId, commit)
                                .whenComplete(
                                        (outcome, error) ->
                                                onCoordinatorThread(
                                                        () ->
                                                                scheduler.onCompactionCommitDone(
                                                                        attempt,
                                                                        outcome,
                                                                        unwrap(error))));
                    } catch (RuntimeException e) {
                        onCoordinatorThread(
                                () -> scheduler.onCompactionCommitDone(attempt, null, e));
                    }
                });
    }

    @Override
    public void reportCompactionFailed(
            MaintenanceAttempt attempt, String reason, List<byte[]> discarded) {
        offThread(
                io,
                () -> {
                    try {
                        service.reportCompactionFailed(jobId, attempt, reason, discarded);
                    } catch (RuntimeException e) {
                        // the coordinator also gives the grant up by heartbeat timeout
                        LOG.warn("could not report {} as failed", attempt, e);
                    }
                });
    }

    @Override
    public void reportFailed(Attempt attempt, String reason, List<byte[]> discarded) {
        offThread(
                io,
                () -> {
                    try {
                        service.reportFailed(jobId, attempt, reason, discarded);
                    } catch (RuntimeException e) {
                        // the coordinator also detects the lost attempt by heartbeat timeout
                        LOG.warn("could not report {} as failed", attempt, e);
                    }
                });
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof java.util.concurrent.CompletionException && t.getCause() != null
                ? t.getCause()
                : t;
    }

    /**
     * Runs {@code task} on {@code pool}; after {@link #close()} (a scheduler step queued before it
     * may still run) the task is dropped instead of failing on the shut-down pool.
     */
    private void offThread(ExecutorService pool, Runnable task) {
        if (closed) {
            return;
        }
        try {
            pool.execute(task);
        } catch (RejectedExecutionException e) {
            if (!closed) {
                throw e;
            }
        }
    }

    private void onCoordinatorThread(Runnable action) {
        if (!closed) {
            context.runInCoordinatorThread(action);
        }
    }
}
