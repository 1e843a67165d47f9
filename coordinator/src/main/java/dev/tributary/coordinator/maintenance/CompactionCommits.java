package dev.tributary.coordinator.maintenance;

import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.runtime.LakeIoRunner;
import dev.tributary.coordinator.spi.LakeMaintenanceStep;
import dev.tributary.coordinator.status.MaintenanceRun;
import dev.tributary.lake.api.maintenance.MaintenanceCommitResult;
import dev.tributary.tiering.api.MaintenanceCommit;
import dev.tributary.tiering.api.MaintenanceOutcome;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit of a compaction grant (T38, T39), COMPACTING -> COMMITTING -> IDLE: on the maintenance
 * I/O threads, one step of the table at a time, never waiting for and never blocking a tiering
 * commit (the lake formats' optimistic commits run both safely). A compaction the lake refuses
 * because tiering changed its files gives way: its files are deleted and the bucket is planned
 * again at the next pass. Event-loop thread only.
 */
final class CompactionCommits {
    private static final Logger LOG = LoggerFactory.getLogger(CompactionCommits.class);

    private final MaintenanceConfig config;
    private final Clock clock;
    private final LakeIoRunner io;
    private final LakeMaintenanceStep lake;
    private final MaintenanceTables tables;
    private final MaintenanceGrants grants;
    private final MaintenancePasses passes;

    CompactionCommits(
            MaintenanceConfig config,
            Clock clock,
            LakeIoRunner io,
            LakeMaintenanceStep lake,
            MaintenanceTables tables,
            MaintenanceGrants grants,
            MaintenancePasses passes) {
        this.config = config;
        this.clock = clock;
        this.io = io;
        this.lake = lake;
        this.tables = tables;
        this.grants = grants;
        this.passes = passes;
    }

    /** See {@link MaintenanceManager#commit}. */
    CompletableFuture<MaintenanceOutcome> commit(MaintenanceCommit r) {
        TableMaintenance t = grants.current(r.attempt(), r.jobId());
        if (t == null || t.state != MaintenanceState.COMPACTING) {
            grants.abort(tables.get(r.attempt().tableId()), r.attempt(), r.results());
            return CompletableFuture.completedFuture(
                    MaintenanceOutcome.of(
                            MaintenanceOutcome.Kind.FENCED,
                            "compaction "
                                    + r.attempt().maintenanceId()
                                    + " of table "
                                    + r.attempt().tableId()
                                    + " is no longer current"));
        }
        t.transition(MaintenanceState.COMMITTING);
        if (t.deadline != null) {
            t.deadline.cancel();
            t.deadline = null;
        }
        CompletableFuture<MaintenanceOutcome> answer = new CompletableFuture<>();
        var path = t.table.path();
        long tableId = t.tableId();
        long id = t.maintenanceId;
        io.run(
                tableId,
                config.timeout(),
                "compaction commit of " + path + " ran past tiering.maintenance.timeout",
                abandoned -> {
                    MaintenanceCommitResult result =
                            lake.commitCompaction(path, tableId, id, r.results());
                    if (result.outcome() == MaintenanceCommitResult.Outcome.CONFLICT) {
                        lake.abortCompaction(path, r.results());
                    }
                    return result;
                },
                new LakeIoRunner.Outcome<MaintenanceCommitResult>() {
                    @Override
                    public void succeeded(MaintenanceCommitResult result) {
                        onCommitted(t, result, answer);
                    }

                    @Override
                    public void failed(Throwable cause, boolean outcomeUnknown) {
                        onCommitFailed(t, cause, answer);
                    }
                });
        return answer;
    }

    private void onCommitted(
            TableMaintenance t,
            MaintenanceCommitResult result,
            CompletableFuture<MaintenanceOutcome> answer) {
        MaintenanceOutcome outcome =
                switch (result.outcome()) {
                    case COMMITTED ->
                            new MaintenanceOutcome(
                                    MaintenanceOutcome.Kind.COMMITTED, result.snapshotId(), null);
                    case NOTHING_TO_COMMIT ->
                            MaintenanceOutcome.of(MaintenanceOutcome.Kind.NOTHING_TO_COMMIT, null);
                    case CONFLICT ->
                            MaintenanceOutcome.of(
                                    MaintenanceOutcome.Kind.YIELDED, result.conflict());
                };
        if (tables.isCurrent(t) && t.state == MaintenanceState.COMMITTING) {
            MaintenanceRun.Outcome o =
                    switch (result.outcome()) {
                        case COMMITTED -> MaintenanceRun.Outcome.COMMITTED;
                        case NOTHING_TO_COMMIT -> MaintenanceRun.Outcome.NOTHING_TO_COMMIT;
                        case CONFLICT -> MaintenanceRun.Outcome.YIELDED;
                    };
            t.lastCompaction = t.endedRun(o, result, result.conflict(), clock.currentTimeMillis());
            t.consecutiveFailures = 0;
            if (o == MaintenanceRun.Outcome.COMMITTED) {
                t.compactions++;
                t.bytesRewritten += result.bytesRewritten();
            } else if (o == MaintenanceRun.Outcome.YIELDED) {
                t.yielded++;
                LOG.info(
                        "compaction {} of {} gave way: {}",
                        t.maintenanceId,
                        t.table.path(),
                        result.conflict());
            }
            t.endGrant();
            t.transition(MaintenanceState.IDLE);
            // after a compaction, statistics and expiry at once; after giving way, by interval
            passes.request(t, o == MaintenanceRun.Outcome.COMMITTED);
        }
        answer.complete(outcome);
    }

    private void onCommitFailed(
            TableMaintenance t, Throwable e, CompletableFuture<MaintenanceOutcome> answer) {
        if (tables.isCurrent(t) && t.state == MaintenanceState.COMMITTING) {
            LOG.warn("compaction {} of {} failed to commit", t.maintenanceId, t.table.path(), e);
            // the outcome is unknown: nothing is deleted now
            grants.failed(t, "commit failed: " + e);
        }
        answer.complete(MaintenanceOutcome.of(MaintenanceOutcome.Kind.FAILED, "" + e));
    }
}
