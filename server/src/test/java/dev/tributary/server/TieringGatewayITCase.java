package dev.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.client.scan.RecordIterator;
import dev.tributary.client.tiering.TieringGateway;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.BucketPlan;
import dev.tributary.tiering.api.CommitOrder;
import dev.tributary.tiering.api.CommitOutcome;
import dev.tributary.tiering.api.HeartbeatRequest;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.JobSettings;
import dev.tributary.tiering.api.LeaseGrant;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.api.RoundPlan;
import dev.tributary.tiering.api.RoundReport;
import dev.tributary.tiering.api.RoundStats;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tiering job's side of the protocol over real gRPC: register, heartbeat for a round plan, read
 * the plan's log ranges and KV snapshots (under a lease), heartbeat and commit fencing, and the
 * status users see.
 */
class TieringGatewayITCase {
    private static final TablePath LOG = TablePath.of("lake", "events");
    private static final TablePath PK = TablePath.of("lake", "users");

    @TempDir Path dir;

    @Test
    @DisplayName(
            "T1 T7 T9 T19 T22 T28: plans over gRPC, log and leased snapshot reads, fencing,"
                    + " failed rounds re-queued, status")
    void planReadFenceAndReport() throws Exception {
        try (TributaryServer server = TestServers.start(dir);
                Connection conn = Connection.open(server.rpcTarget())) {
            conn.admin().createDatabase("lake", false);
            TableInfo log =
                    conn.admin()
                            .createTable(
                                    LOG,
                                    TableDescriptor.builder(
                                                    Schema.newBuilder()
                                                            .column("id", DataTypes.BIGINT())
                                                            .build())
                                            .bucketCount(3)
                                            .property("table.datalake.enabled", "true")
                                            .property("table.datalake.freshness", "1s")
                                            .build(),
                                    false);
            TableInfo pk =
                    conn.admin()
                            .createTable(
                                    PK,
                                    TableDescriptor.builder(
                                                    Schema.newBuilder()
                                                            .column("id", DataTypes.BIGINT())
                                                            .column("name", DataTypes.STRING())
                                                            .primaryKey("id")
                                                            .build())
                                            .bucketCount(2)
                                            .property("table.datalake.enabled", "true")
                                            .property("table.datalake.freshness", "1s")
                                            .build(),
                                    false);
            // bucket 0 of the log table gets everything: buckets without data get no split (T1)
            try (AppendWriter w = conn.appendWriter(LOG)) {
                for (long i = 0; i < 1000; i++) {
                    w.append(Row.of(i));
                }
                w.flush();
            }
            try (UpsertWriter w = conn.upsertWriter(PK)) {
                for (long i = 0; i < 200; i++) {
                    w.upsert(Row.of(i, "n" + i));
                }
                w.flush();
            }
            Map<Integer, Long> pkEnds = conn.logScanner(PK).endOffsets();
            for (int b = 0; b < 2; b++) {
                server.store().snapshot(new TableBucket(pk.tableId(), b));
            }

            TieringGateway gateway = conn.tieringGateway();
            JobSettings job = gateway.registerJob("job-1", "");
            assertThat(job.jobId()).isEqualTo("job-1");
            assertThat(job.heartbeatInterval()).isPositive();
            assertThat(job.heartbeatTimeout()).isGreaterThan(job.heartbeatInterval());
            assertThat(job.commitOrder()).isEqualTo(CommitOrder.COMPLETION);
            assertThat(job.commitTimeout()).isEqualTo(Duration.ofMinutes(2));

            // each table waits one freshness interval, then one table per request (T11, T16)
            Map<Long, RoundPlan> plans = new HashMap<>();
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(100))
                    .until(
                            () -> {
                                HeartbeatResult r =
                                        heartbeat(
                                                gateway,
                                                plans.values().stream()
                                                        .map(RoundPlan::attempt)
                                                        .toList(),
                                                List.of(),
                                                true);
                                assertThat(r.staleAttempts()).isEmpty();
                                r.roundPlan().ifPresent(p -> plans.put(p.tableId(), p));
                                return plans.size() == 2;
                            });

            RoundPlan logPlan = plans.get(log.tableId());
            assertThat(logPlan.path()).isEqualTo(LOG);
            assertThat(logPlan.freshness()).isEqualTo(Duration.ofSeconds(1));
            assertThat(logPlan.primaryKey()).isFalse();
            Map<Integer, Long> logEnds = conn.logScanner(LOG).endOffsets();
            List<Integer> planned = new ArrayList<>();
            long read = 0;
            for (BucketPlan b : logPlan.buckets()) {
                planned.add(b.bucket());
                assertThat(b.isSnapshot()).isFalse();
                assertThat(b.startOffset()).isZero();
                assertThat(b.endOffset()).isEqualTo(logEnds.get(b.bucket()));
                try (RecordIterator it =
                        gateway.readLog(
                                new TableBucket(log.tableId(), b.bucket()),
                                b.startOffset(),
                                b.endOffset(),
                                log.schema())) {
                    while (it.hasNext()) {
                        LogRecord r = it.next();
                        assertThat(r.offset()).isBetween(b.startOffset(), b.endOffset() - 1);
                        read++;
                    }
                }
            }
            assertThat(read).isEqualTo(1000);
            assertThat(planned)
                    .containsExactlyInAnyOrderElementsOf(
                            logEnds.entrySet().stream()
                                    .filter(e -> e.getValue() > 0)
                                    .map(Map.Entry::getKey)
                                    .toList());

            // first PK round reads the KV snapshots, whose log offset becomes the tiered offset
            // (T7)
            RoundPlan pkPlan = plans.get(pk.tableId());
            assertThat(pkPlan.primaryKey()).isTrue();
            long snapshotRows = 0;
            for (BucketPlan b : pkPlan.buckets()) {
                assertThat(b.isSnapshot()).isTrue();
                assertThat(b.endOffset()).isEqualTo(pkEnds.get(b.bucket()));
                TableBucket tb = new TableBucket(pk.tableId(), b.bucket());
                LeaseGrant lease = gateway.takeSnapshotLease(tb, b.snapshotId(), "job-1");
                assertThat(lease.expiresAtMillis()).isGreaterThan(System.currentTimeMillis());
                // the server's kv.snapshot.lease-timeout, so the holder knows when to renew
                assertThat(lease.ttlMillis()).isEqualTo(Duration.ofMinutes(2).toMillis());
                LeaseGrant renewed = gateway.renewSnapshotLease(tb, lease.leaseId());
                assertThat(renewed.leaseId()).isEqualTo(lease.leaseId());
                try (RecordIterator it = gateway.readSnapshot(tb, b.snapshotId(), pk.schema())) {
                    while (it.hasNext()) {
                        assertThat(it.next().changeType()).isEqualTo(ChangeType.INSERT);
                        snapshotRows++;
                    }
                }
                gateway.releaseSnapshotLease(tb, lease.leaseId());
                assertThatThrownBy(() -> gateway.renewSnapshotLease(tb, lease.leaseId()))
                        .isInstanceOf(NotFoundException.class);
            }
            assertThat(snapshotRows).isEqualTo(200);

            // the status shows both tables as TIERING with this job (T28)
            TableTieringStatus status = conn.admin().tieringStatus(LOG);
            assertThat(status.state()).isEqualTo("TIERING");
            assertThat(status.epoch()).isEqualTo(logPlan.epoch());
            assertThat(status.jobId()).contains("job-1");
            assertThat(status.lagRecords()).hasValue(1000);
            assertThat(conn.admin().tieringStatus().liveJobs()).isEqualTo(1);

            // a stale epoch is fenced on heartbeat and on commit (T19)
            Attempt staleAttempt = new Attempt(log.tableId(), logPlan.epoch() - 1);
            HeartbeatResult stale = heartbeat(gateway, List.of(staleAttempt), List.of(), false);
            assertThat(stale.staleAttempts()).containsExactly(staleAttempt);
            assertThat(
                            gateway.commitRound(
                                            RoundCommit.of(
                                                    "job-1",
                                                    log.tableId(),
                                                    logPlan.epoch() - 1,
                                                    logPlan.roundId(),
                                                    Map.of(0, logEnds.get(0)),
                                                    List.of(),
                                                    RoundStats.EMPTY,
                                                    false),
                                            job.commitTimeout())
                                    .get())
                    .isEqualTo(CommitOutcome.FENCED);

            // a failed round fails only that table and re-queues it with a new epoch (T22)
            heartbeat(
                    gateway,
                    List.of(pkPlan.attempt()),
                    List.of(RoundReport.failed(logPlan.attempt(), "disk full", List.of())),
                    false);
            TableTieringStatus failed = conn.admin().tieringStatus(LOG);
            assertThat(failed.state()).isIn("FAILED", "PENDING");
            assertThat(failed.failures()).isEqualTo(1);
            assertThat(failed.lastFailure())
                    .hasValueSatisfying(m -> assertThat(m).contains("disk full"));
            assertThat(conn.admin().tieringStatus(PK).state()).isEqualTo("TIERING");
            AtomicReference<RoundPlan> retry = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(100))
                    .until(
                            () -> {
                                heartbeat(gateway, List.of(pkPlan.attempt()), List.of(), true)
                                        .roundPlan()
                                        .ifPresent(retry::set);
                                return retry.get() != null;
                            });
            assertThat(retry.get().tableId()).isEqualTo(log.tableId());
            // every entry into Pending bumps the epoch (T17)
            assertThat(retry.get().epoch()).isGreaterThan(logPlan.epoch());
        }
    }

    @Test
    @DisplayName("T3: a table request waits on the server and is answered when a table is due")
    void aLongPollIsAnsweredAsSoonAsATableBecomesPending() throws Exception {
        try (TributaryServer server =
                        TestServers.start(
                                dir,
                                Map.of(
                                        "tiering.heartbeat.interval", "5s",
                                        "tiering.heartbeat.timeout", "20s"));
                Connection conn = Connection.open(server.rpcTarget())) {
            conn.admin().createDatabase("lake", false);
            TableInfo log =
                    conn.admin()
                            .createTable(
                                    LOG,
                                    TableDescriptor.builder(
                                                    Schema.newBuilder()
                                                            .column("id", DataTypes.BIGINT())
                                                            .build())
                                            .property("table.datalake.enabled", "true")
                                            .property("table.datalake.freshness", "1s")
                                            .build(),
                                    false);
            try (AppendWriter w = conn.appendWriter(LOG)) {
                w.append(Row.of(1L));
                w.flush();
            }
            TieringGateway gateway = conn.tieringGateway();
            gateway.registerJob("job-1", "");
            // the table is due one freshness (1 s) after creation: one held request gets it
            HeartbeatResult r =
                    gateway.heartbeat(
                            new HeartbeatRequest("job-1", null, List.of(), List.of(), true, 5_000));
            assertThat(r.roundPlan())
                    .hasValueSatisfying(p -> assertThat(p.tableId()).isEqualTo(log.tableId()));
        }
    }

    private static HeartbeatResult heartbeat(
            TieringGateway gateway,
            List<Attempt> inFlight,
            List<RoundReport> reports,
            boolean requestTable) {
        return gateway.heartbeat(
                new HeartbeatRequest("job-1", null, inFlight, reports, requestTable));
    }
}
