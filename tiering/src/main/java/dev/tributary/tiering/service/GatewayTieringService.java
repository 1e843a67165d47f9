package dev.tributary.tiering.service;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.scan.LogChunkStream;
import dev.tributary.client.tiering.TieringGateway;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.index.LakeRowLocation;
import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.CommitOutcome;
import dev.tributary.tiering.api.HeartbeatRequest;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.JobSettings;
import dev.tributary.tiering.api.LeaseGrant;
import dev.tributary.tiering.api.LocatedLakeRows;
import dev.tributary.tiering.api.MaintenanceAttempt;
import dev.tributary.tiering.api.MaintenanceCommit;
import dev.tributary.tiering.api.MaintenanceOutcome;
import dev.tributary.tiering.api.MaintenanceReport;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.api.RoundReport;
import dev.tributary.tiering.read.BatchCursor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link TieringService} over a Tributary server, through the client's internal {@link
 * TieringGateway} (gRPC). Table requests are long polls (T3), reports travel as heartbeats, commits
 * are asynchronous calls that wait as long as the coordinator's commit timeout, and the bucket data
 * is read as raw batches that are decoded lazily.
 */
public final class GatewayTieringService implements TieringService {
    /** Keys per lake row lookup: well under the server's limit and its message size. */
    private static final int LOCATE_CHUNK = 50_000;

    private final Connection connection;
    private final TieringGateway gateway;
    private final Map<Long, TableInfo> tables = new ConcurrentHashMap<>();
    private volatile String group;
    private volatile Duration commitTimeout = Duration.ZERO;
    private volatile Duration maintenanceTimeout = Duration.ZERO;

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
    public JobSettings register(String jobId, String jobGroup, int parallelism) {
        this.group = jobGroup == null || jobGroup.isEmpty() ? null : jobGroup;
        JobSettings settings = gateway.registerJob(jobId, group, parallelism);
        this.commitTimeout = settings.commitTimeout();
        this.maintenanceTimeout = settings.maintenanceTimeout();
        return settings;
    }

    @Override
    public HeartbeatResult heartbeat(
            String jobId, List<Attempt> inFlight, List<MaintenanceAttempt> compactions) {
        return gateway.heartbeat(
                new HeartbeatRequest(
                        jobId,
                        group,
                        inFlight,
                        List.of(),
                        false,
                        0,
                        compactions,
                        List.of(),
                        false));
    }

    @Override
    public HeartbeatResult requestWork(String jobId, Duration maxWait, boolean acceptCompaction) {
        return gateway.heartbeat(
                new HeartbeatRequest(
                        jobId,
                        group,
                        List.of(),
                        List.of(),
                        true,
                        maxWait.toMillis(),
                        List.of(),
                        List.of(),
                        acceptCompaction));
    }

    @Override
    public CompletableFuture<MaintenanceOutcome> commitCompaction(
            String jobId, MaintenanceCommit commit) {
        return gateway.commitMaintenance(commit, maintenanceTimeout);
    }

    @Override
    public void reportCompactionFailed(
            String jobId,
            MaintenanceAttempt attempt,
            String reason,
            List<byte[]> discardedResults) {
        gateway.heartbeat(
                new HeartbeatRequest(
                        jobId,
                        group,
                        List.of(),
                        List.of(),
                        false,
                        0,
                        List.of(),
                        List.of(new MaintenanceReport(attempt, reason, discardedResults)),
                        false));
    }

    @Override
    public CompletableFuture<CommitOutcome> commit(String jobId, RoundCommit r) {
        if (r.isEmpty()) {
            // nothing to write and no offset moved: the round just ends (T27), no commit needed
            report(jobId, RoundReport.finished(r.attempt(), r.forceFinished()));
            return CompletableFuture.completedFuture(CommitOutcome.COMMITTED);
        }
        return gateway.commitRound(r, commitTimeout);
    }

    @Override
    public void reportFailed(
            String jobId, Attempt attempt, String reason, List<byte[]> discardedWriteResults) {
        report(
                jobId,
                RoundReport.failed(
                        attempt, reason == null ? "failed" : reason, discardedWriteResults));
    }

    private void report(String jobId, RoundReport report) {
        gateway.heartbeat(new HeartbeatRequest(jobId, group, List.of(), List.of(report), false));
    }

    @Override
    public TableDescriptor describeTable(TablePath tablePath, long tableId) {
        return table(tablePath, tableId).descriptor();
    }

    private TableInfo table(TablePath tablePath, long tableId) {
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
        return info;
    }

    @Override
    public SnapshotLease acquireSnapshotLease(TableBucket bucket, long snapshotId) {
        return held(bucket, gateway.takeSnapshotLease(bucket, snapshotId, "tiering"));
    }

    @Override
    public GrantedSnapshot acquireNewestSnapshotLease(TableBucket bucket, long fromOffset) {
        LeaseGrant grant = gateway.takeNewestSnapshotLease(bucket, fromOffset, "tiering");
        SnapshotLease lease = held(bucket, grant);
        if (grant.logOffset().isEmpty()) {
            lease.close();
            throw new CorruptDataException(
                    "the server leased snapshot "
                            + grant.snapshotId()
                            + " of bucket "
                            + bucket
                            + " without its log offset");
        }
        return new GrantedSnapshot(lease, grant.snapshotId(), grant.logOffset().getAsLong());
    }

    private SnapshotLease held(TableBucket bucket, LeaseGrant grant) {
        Duration ttl = Duration.ofMillis(grant.ttlMillis());
        return new SnapshotLease() {
            private boolean released;

            @Override
            public Duration ttl() {
                return ttl;
            }

            @Override
            public void renew() {
                gateway.renewSnapshotLease(bucket, grant.leaseId());
            }

            @Override
            public void close() {
                if (!released) {
                    released = true;
                    gateway.releaseSnapshotLease(bucket, grant.leaseId());
                }
            }
        };
    }

    @Override
    public RecordCursor openLog(TableBucket bucket, long fromOffset, long toOffset) {
        LogChunkStream chunks = gateway.readLogChunks(bucket, fromOffset, toOffset);
        return BatchCursor.ofLog(chunks, codecOf(bucket), fromOffset, toOffset, chunks::close);
    }

    @Override
    public RecordCursor openSnapshot(TableBucket bucket, long snapshotId, long snapshotLogOffset) {
        LogChunkStream chunks = gateway.readSnapshotChunks(bucket, snapshotId, snapshotLogOffset);
        return BatchCursor.ofSnapshot(chunks, codecOf(bucket), snapshotLogOffset, chunks::close);
    }

    /** The row codec of the table's current schema (older rows read NULL in newer columns). */
    private RowCodec codecOf(TableBucket bucket) {
        TableInfo info = tables.get(bucket.tableId());
        if (info == null) {
            throw new NotFoundException(
                    "table id "
                            + bucket.tableId()
                            + " is unknown to this reader; describe it first");
        }
        return RowCodec.of(info.schema());
    }

    @Override
    public Optional<LakeRowLocation[]> locateLakeRows(
            TableBucket bucket, long lakeSnapshotId, List<byte[]> keys) {
        LakeRowLocation[] out = new LakeRowLocation[keys.size()];
        for (int from = 0; from < keys.size(); from += LOCATE_CHUNK) {
            List<byte[]> chunk = keys.subList(from, Math.min(keys.size(), from + LOCATE_CHUNK));
            Optional<LocatedLakeRows> found = gateway.locateLakeRows(bucket, lakeSnapshotId, chunk);
            if (found.isEmpty()) {
                return Optional.empty();
            }
            for (int i = 0; i < chunk.size(); i++) {
                String file = found.get().files()[i];
                if (file != null) {
                    out[from + i] = new LakeRowLocation(file, found.get().positions()[i]);
                }
            }
        }
        return Optional.of(out);
    }

    @Override
    public void close() {
        connection.close();
    }
}
