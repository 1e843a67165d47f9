package dev.tributary.tiering.service;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.scan.RecordIterator;
import dev.tributary.client.tiering.TieringGateway;
import dev.tributary.client.tiering.TieringMessages;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.TableDescriptor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link TieringService} over a Tributary server, through the client's internal {@link
 * TieringGateway} (gRPC). Table requests and reports travel as heartbeats, as the protocol defines;
 * a request that finds no pending table returns at once and the enumerator asks again after {@code
 * tiering.request.min-interval}.
 */
public final class GatewayTieringService implements TieringService {
    private final Connection connection;
    private final TieringGateway gateway;
    private final Map<Long, TableInfo> tables = new ConcurrentHashMap<>();
    private volatile String group = "";

    public GatewayTieringService(Connection connection) {
        this.connection = connection;
        this.gateway = connection.tieringGateway();
    }

    /**
     * A factory that connects to {@code address} with the given bearer token (null for none) and
     * client options ({@code client.*}).
     */
    public static TieringServiceFactory factory(
            String address, String token, Map<String, String> clientOptions) {
        return new Factory(address, token, Map.copyOf(clientOptions));
    }

    private record Factory(String address, String token, Map<String, String> options)
            implements TieringServiceFactory {
        @Override
        public TieringService create() {
            return new GatewayTieringService(
                    Connection.builder()
                            .address(address)
                            .token(token)
                            .options(Configuration.fromMap(options))
                            .build());
        }
    }

    @Override
    public void register(String jobId, String jobGroup) {
        this.group = jobGroup == null ? "" : jobGroup;
        gateway.registerJob(jobId, group);
    }

    @Override
    public HeartbeatResponse heartbeat(String jobId, List<InFlightTable> inFlight) {
        List<TieringMessages.TableEpoch> epochs = new ArrayList<>();
        inFlight.forEach(t -> epochs.add(new TieringMessages.TableEpoch(t.tableId(), t.epoch())));
        TieringMessages.HeartbeatResult r =
                gateway.heartbeat(
                        new TieringMessages.Heartbeat(
                                jobId, group, epochs, List.of(), List.of(), List.of(), false));
        List<InFlightTable> stale = new ArrayList<>();
        r.fenced().forEach(f -> stale.add(new InFlightTable(f.tableId(), f.epoch())));
        return new HeartbeatResponse(stale, List.of());
    }

    @Override
    public Optional<RoundPlan> requestTable(String jobId, Duration maxWait) {
        TieringMessages.HeartbeatResult r =
                gateway.heartbeat(
                        new TieringMessages.Heartbeat(
                                jobId, group, List.of(), List.of(), List.of(), List.of(), true));
        return r.plan().map(this::toPlan);
    }

    private RoundPlan toPlan(TieringMessages.RoundPlan p) {
        TableInfo info = p.table();
        tables.put(info.tableId(), info);
        List<BucketPlan> buckets = new ArrayList<>();
        for (TieringMessages.BucketPlan b : p.buckets()) {
            buckets.add(
                    b.isSnapshot()
                            ? BucketPlan.snapshot(
                                    b.bucket(),
                                    b.snapshotId().get(),
                                    b.snapshotLogOffset().orElse(b.fromOffset()))
                            : BucketPlan.log(b.bucket(), b.fromOffset(), b.cutoffOffset()));
        }
        // the coordinator states the round's ceiling as a deadline; the job measures it from now
        Duration ceiling =
                Duration.ofMillis(Math.max(1, p.forceFinishAtMillis() - p.plannedAtMillis()));
        return new RoundPlan(
                info.tableId(),
                info.path(),
                p.epoch(),
                p.roundId(),
                ceiling,
                info.hasPrimaryKey(),
                buckets);
    }

    @Override
    public CommitOutcome commit(String jobId, CommitRequest r) {
        if (r.isEmpty() && r.tieredOffsets().isEmpty()) {
            report(jobId, r.tableId(), r.epoch(), null, r.forceFinished());
            return CommitOutcome.COMMITTED;
        }
        try {
            gateway.commitRound(
                    new TieringMessages.RoundCommit(
                            jobId,
                            r.tableId(),
                            r.epoch(),
                            r.roundId(),
                            r.tieredOffsets(),
                            r.writeResults(),
                            new TieringMessages.RoundStats(
                                    r.records(),
                                    r.bytes(),
                                    r.writeResults().size(),
                                    r.forceFinished(),
                                    0L)));
            return CommitOutcome.COMMITTED;
        } catch (FencedException e) {
            return CommitOutcome.FENCED;
        }
    }

    @Override
    public void reportFailed(String jobId, long tableId, long epoch, String reason) {
        report(jobId, tableId, epoch, reason == null ? "failed" : reason, false);
    }

    private void report(
            String jobId, long tableId, long epoch, String failure, boolean forceFinished) {
        TieringMessages.RoundReport report =
                new TieringMessages.RoundReport(tableId, epoch, failure);
        List<TieringMessages.RoundReport> none = List.of();
        List<TieringMessages.RoundReport> one = List.of(report);
        gateway.heartbeat(
                new TieringMessages.Heartbeat(
                        jobId,
                        group,
                        List.of(),
                        failure == null && !forceFinished ? one : none,
                        failure == null && forceFinished ? one : none,
                        failure != null ? one : none,
                        false));
    }

    @Override
    public TableDescriptor describeTable(TablePath tablePath, long tableId) {
        TableInfo info = tables.get(tableId);
        if (info == null || !info.path().equals(tablePath)) {
            info = connection.admin().describeTable(tablePath);
            if (info.tableId() != tableId) {
                throw new NotFoundException(
                        "table "
                                + tablePath
                                + " was dropped and re-created (id "
                                + tableId
                                + " is now "
                                + info.tableId()
                                + "); the round's results are stale");
            }
            tables.put(tableId, info);
        }
        return info.descriptor();
    }

    @Override
    public SnapshotLease acquireSnapshotLease(TableBucket bucket, long snapshotId, Duration ttl) {
        TieringMessages.SnapshotLease lease =
                gateway.takeSnapshotLease(bucket, snapshotId, "tiering");
        return new SnapshotLease() {
            private boolean released;

            @Override
            public void renew() {
                gateway.renewSnapshotLease(bucket, lease.leaseId());
            }

            @Override
            public void close() {
                if (!released) {
                    released = true;
                    gateway.releaseSnapshotLease(bucket, lease.leaseId());
                }
            }
        };
    }

    @Override
    public RecordCursor openLog(TableBucket bucket, long fromOffset, long toOffset) {
        return new IteratorCursor(
                gateway.readLog(bucket, fromOffset, toOffset, schemaOf(bucket)), false);
    }

    @Override
    public RecordCursor openSnapshot(TableBucket bucket, long snapshotId) {
        return new IteratorCursor(gateway.readSnapshot(bucket, snapshotId, schemaOf(bucket)), true);
    }

    private dev.tributary.common.types.Schema schemaOf(TableBucket bucket) {
        TableInfo info = tables.get(bucket.tableId());
        if (info == null) {
            throw new NotFoundException(
                    "table id "
                            + bucket.tableId()
                            + " is unknown to this reader; describe it first");
        }
        return info.schema();
    }

    @Override
    public void close() {
        connection.close();
    }

    /** Adapts the client's record iterator; snapshot rows are upserts of the state. */
    private static final class IteratorCursor implements RecordCursor {
        private final RecordIterator it;
        private final boolean snapshot;
        private LogRecord current;

        IteratorCursor(RecordIterator it, boolean snapshot) {
            this.it = it;
            this.snapshot = snapshot;
        }

        @Override
        public boolean next() {
            if (!it.hasNext()) {
                return false;
            }
            current = it.next();
            return true;
        }

        @Override
        public long offset() {
            return current.offset();
        }

        @Override
        public long timestamp() {
            return current.timestamp();
        }

        @Override
        public ChangeType changeType() {
            return snapshot ? ChangeType.INSERT : current.changeType();
        }

        @Override
        public Row row() {
            return current.row();
        }

        @Override
        public int sizeInBytes() {
            return 16 + current.row().arity() * 8;
        }

        @Override
        public void close() {
            it.close();
        }
    }
}
