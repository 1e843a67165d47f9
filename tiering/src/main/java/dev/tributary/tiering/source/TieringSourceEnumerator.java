package dev.tributary.tiering.source;

import dev.tributary.common.concurrent.DaemonThreads;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.time.Clock;
import dev.tributary.tiering.commit.Attempt;
import dev.tributary.tiering.enumerate.EnumeratorEffects;
import dev.tributary.tiering.enumerate.TieringScheduler;
import dev.tributary.tiering.event.RoundControlEvent;
import dev.tributary.tiering.event.SplitResultEvent;
import dev.tributary.tiering.job.TieringOptions;
import dev.tributary.tiering.service.CommitOutcome;
import dev.tributary.tiering.service.CommitRequest;
import dev.tributary.tiering.service.HeartbeatResponse;
import dev.tributary.tiering.service.InFlightTable;
import dev.tributary.tiering.service.RoundPlan;
import dev.tributary.tiering.service.TieringService;
import dev.tributary.tiering.service.TieringServiceFactory;
import dev.tributary.tiering.split.SplitPlanner;
import dev.tributary.tiering.split.TieringSplit;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
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
 * scheduler on the coordinator thread; coordinator calls run on two small thread pools (one for
 * heartbeats and table requests, one for commits, so commits of different tables overlap, T24) and
 * their outcomes are handed back to the coordinator thread.
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
    private final ExecutorService commits;
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
        this.commits =
                Executors.newFixedThreadPool(
                        config.get(TieringOptions.COMMIT_THREADS),
                        DaemonThreads.named("tiering-commit"));
    }

    @Override
    public void start() {
        io.execute(this::register);
        long tick = config.get(TieringOptions.TICK_INTERVAL).toMillis();
        context.callAsync(() -> null, (v, t) -> scheduler.onTick(), tick, tick);
    }

    private void register() {
        try {
            service = services.create();
            service.register(jobId, group);
            onCoordinatorThread(scheduler::onRegistered);
        } catch (RuntimeException e) {
            // without registration the job cannot work; let Flink restart the enumerator
            LOG.error("tiering job {} could not register with the coordinator", jobId, e);
            onCoordinatorThread(
                    () -> {
                        throw new IllegalStateException(
                                "tiering job " + jobId + " could not register: " + e.getMessage(),
                                e);
                    });
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
            for (InFlightTable t : scheduler.inFlight()) {
                try {
                    s.reportFailed(jobId, t.tableId(), t.epoch(), "tiering job stopped");
                } catch (RuntimeException e) {
                    LOG.debug("could not report {} as failed on close", t, e);
                }
            }
        }
        io.shutdownNow();
        commits.shutdownNow();
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
    public void requestTable() {
        offThread(
                io,
                () -> {
                    try {
                        Optional<RoundPlan> plan = service.requestTable(jobId, requestMaxWait);
                        onCoordinatorThread(
                                () ->
                                        plan.ifPresentOrElse(
                                                scheduler::onTableGranted, scheduler::onNoTable));
                    } catch (RuntimeException e) {
                        onCoordinatorThread(() -> scheduler.onRequestFailed(e));
                    }
                });
    }

    @Override
    public void heartbeat(List<InFlightTable> inFlight) {
        offThread(
                io,
                () -> {
                    try {
                        HeartbeatResponse r = service.heartbeat(jobId, inFlight);
                        onCoordinatorThread(() -> scheduler.onHeartbeatDone(r));
                    } catch (RuntimeException e) {
                        onCoordinatorThread(() -> scheduler.onHeartbeatFailed(e));
                    }
                });
    }

    @Override
    public void commit(Attempt attempt, CommitRequest request) {
        offThread(
                commits,
                () -> {
                    CommitOutcome outcome = null;
                    Throwable error = null;
                    try {
                        outcome = service.commit(jobId, request);
                    } catch (RuntimeException e) {
                        error = e;
                    }
                    CommitOutcome o = outcome;
                    Throwable err = error;
                    onCoordinatorThread(() -> scheduler.onCommitDone(attempt, o, err));
                });
    }

    @Override
    public void reportFailed(Attempt attempt, String reason) {
        offThread(
                io,
                () -> {
                    try {
                        service.reportFailed(jobId, attempt.tableId(), attempt.epoch(), reason);
                    } catch (RuntimeException e) {
                        // the coordinator also detects the lost attempt by heartbeat timeout
                        LOG.warn("could not report {} as failed", attempt, e);
                    }
                });
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
