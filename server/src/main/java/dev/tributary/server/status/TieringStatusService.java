package dev.tributary.server.status;

import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.LogBatch;
import dev.tributary.common.record.LogBatches;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.Coordinator;
import dev.tributary.coordinator.status.CoordinatorStatus;
import dev.tributary.coordinator.status.JobStatus;
import dev.tributary.coordinator.status.RoundSummary;
import dev.tributary.coordinator.status.TableTieringStatus;
import dev.tributary.coordinator.tiering.TieringState;
import dev.tributary.server.store.TableCatalog;
import dev.tributary.server.store.TableService;
import dev.tributary.storage.BucketStore;
import dev.tributary.storage.LogReadResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Joins the coordinator's tiering status with the store's end offsets and record timestamps into
 * what users see (T28): lake lag in records and in time.
 */
public final class TieringStatusService {
    private final Coordinator coordinator;
    private final BucketStore store;
    private final TableCatalog catalog;
    private final Clock clock;
    private final Duration heartbeatTimeout;
    private final String serverLakeFormat;

    /**
     * @param serverLakeFormat the server's {@code datalake.format}, for layout warnings
     */
    public TieringStatusService(
            Coordinator coordinator,
            BucketStore store,
            TableCatalog catalog,
            Clock clock,
            Duration heartbeatTimeout,
            String serverLakeFormat) {
        this.coordinator = coordinator;
        this.store = store;
        this.catalog = catalog;
        this.clock = clock;
        this.heartbeatTimeout = heartbeatTimeout;
        this.serverLakeFormat = serverLakeFormat;
    }

    /** The whole picture. */
    public Overview overview() {
        CoordinatorStatus status = TableService.join(coordinator.status());
        List<TableStatusView> tables = new ArrayList<>();
        for (TableTieringStatus t : status.tables()) {
            tables.add(view(t));
        }
        int live = 0;
        for (JobStatus j : status.jobs()) {
            if (status.timeMillis() - j.lastHeartbeatMillis() <= heartbeatTimeout.toMillis()) {
                live++;
            }
        }
        return new Overview(
                status.timeMillis(),
                tables,
                status.pendingCount(),
                status.tieringCount(),
                live,
                status.jobs());
    }

    /**
     * The coordinator's status of all tables.
     *
     * @param pendingCount tables waiting in the queues
     * @param liveJobs jobs that heartbeated within the heartbeat timeout
     */
    public record Overview(
            long timeMillis,
            List<TableStatusView> tables,
            int pendingCount,
            int tieringCount,
            int liveJobs,
            List<JobStatus> jobs) {}

    TableStatusView view(TableTieringStatus t) {
        Map<Integer, Long> ends = new TreeMap<>();
        long lagRecords = 0;
        long oldest = Long.MAX_VALUE;
        int buckets;
        List<String> warnings;
        try {
            TableDescriptor descriptor = catalog.get(t.tableId()).descriptor();
            buckets = descriptor.bucketCount();
            warnings = LayoutWarnings.of(descriptor, serverLakeFormat);
        } catch (TributaryException e) {
            buckets = 0;
            warnings = List.of();
        }
        for (int b = 0; b < buckets; b++) {
            TableBucket tb = new TableBucket(t.tableId(), b);
            long end = store.endOffset(tb);
            ends.put(b, end);
            long tiered = t.tieredOffsets().getOrDefault(b, 0L);
            if (end > tiered) {
                lagRecords += end - tiered;
                oldest = Math.min(oldest, timestampAt(tb, tiered));
            }
        }
        long now = clock.currentTimeMillis();
        long lagMillis = oldest == Long.MAX_VALUE ? 0 : Math.max(0, now - oldest);
        RoundSummary r = t.lastRound();
        TableStatusView.RoundView round =
                r == null
                        ? null
                        : new TableStatusView.RoundView(
                                r.roundId(),
                                r.epoch(),
                                r.startMillis(),
                                r.durationMillis(),
                                r.rows(),
                                r.bytes(),
                                r.files(),
                                r.forceFinished(),
                                r.lakeSnapshotId());
        long next = t.nextDueMillis();
        if (t.state() == TieringState.TIERING && t.roundStartMillis() >= 0) {
            next = t.roundStartMillis() + t.freshness().toMillis();
        }
        return new TableStatusView(
                t.tableId(),
                t.path().toString(),
                t.group(),
                t.state().name(),
                t.epoch(),
                t.queuePosition(),
                t.jobId(),
                t.freshness().toMillis(),
                t.lastTieredTimeMillis(),
                t.lakeSnapshotId(),
                round,
                lagMillis,
                lagRecords,
                t.consecutiveFailures(),
                t.totalFailures(),
                t.lastFailure(),
                next,
                new TreeMap<>(t.tieredOffsets()),
                ends,
                warnings);
    }

    /** Append time of the record at {@code offset} (or the oldest still stored after it). */
    private long timestampAt(TableBucket bucket, long offset) {
        try {
            long from = Math.max(offset, store.startOffset(bucket));
            LogReadResult read = store.read(bucket, from, 1);
            for (LogBatch batch : LogBatches.of(read.records())) {
                LogBatch.Cursor c = batch.cursor();
                while (c.next()) {
                    if (c.offset() >= from) {
                        return c.timestamp();
                    }
                }
            }
        } catch (TributaryException e) {
            // the bucket changed under us (retention, drop); lag in time is unknown
        }
        return clock.currentTimeMillis();
    }
}
