package dev.tributary.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.scan.RecordIterator;
import dev.tributary.client.tiering.BucketPlan;
import dev.tributary.client.tiering.CommitOutcome;
import dev.tributary.client.tiering.HeartbeatResult;
import dev.tributary.client.tiering.RoundCommit;
import dev.tributary.client.tiering.RoundPlan;
import dev.tributary.client.tiering.TieringGateway;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.read.LakeReadRequest;
import dev.tributary.lake.api.read.LakeReader;
import dev.tributary.lake.api.read.LakeRowCursor;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriteResultSerializer;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import dev.tributary.lake.paimon.PaimonLakeStoragePlugin;
import dev.tributary.server.TestServers;
import dev.tributary.server.TributaryServer;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T55 against the real server over real gRPC with a Paimon lake: a version-1 Paimon payload
 * (Paimon's own serializer), a count of 2^31 - 1 messages, a 2 GB binary-row length and a partition
 * row of a field the table does not have are refused with a typed error without allocating what
 * they claim, and a normal round commits afterwards. The Iceberg twin is {@link
 * HostilePayloadITCase}.
 */
class PaimonHostilePayloadITCase {
    private static final TablePath PATH = TablePath.of("lake", "events");
    private static final String JOB = "job-t55-paimon";

    @TempDir Path dir;

    @Test
    void t55_hostilePaimonPayloadsAreRefusedWithoutAllocatingAndTheServerKeepsServing()
            throws Exception {
        try (TributaryServer server = TestServers.start(dir, Map.of("datalake.format", "paimon"));
                Connection conn = Connection.open(server.rpcTarget())) {
            conn.admin().createDatabase("lake", false);
            TableDescriptor descriptor =
                    TableDescriptor.builder(
                                    Schema.newBuilder().column("id", DataTypes.BIGINT()).build())
                            .bucketCount(1)
                            .property("table.datalake.enabled", "true")
                            .property("table.datalake.freshness", "1s")
                            .build();
            TableInfo table = conn.admin().createTable(PATH, descriptor, false);
            try (AppendWriter w = conn.appendWriter(PATH)) {
                for (long i = 0; i < 100; i++) {
                    w.append(Row.of(i));
                }
                w.flush();
            }
            TieringGateway gateway = conn.tieringGateway();
            gateway.registerJob(JOB, "");
            RoundPlan plan = plan(gateway);
            Map<PartitionBucket, Long> ends =
                    Map.of(
                            new PartitionBucket(TableBucket.NO_PARTITION, 0),
                            plan.buckets().get(0).cutoff());
            RoundPlan[] latest = {plan};

            // (a) version 1: Paimon's CommitMessageSerializer, refused before it is read
            BinaryWriter v1 = new BinaryWriter();
            v1.writeVarInt(1);
            v1.writeVarInt(9);
            v1.writeVarInt(1);
            v1.writeVarInt(Integer.MAX_VALUE);
            assertRefused(
                    gateway,
                    latest,
                    ends,
                    p -> committable(table, p, v1.toByteArray()),
                    "older than this server, which does not read it");

            // (b) a count of 2^31 - 1 messages, a 2 GB partition row, a partition row of a field
            // the unpartitioned table does not have
            BinaryWriter hugeCount = new BinaryWriter();
            hugeCount.writeVarInt(2);
            hugeCount.writeVarInt(Integer.MAX_VALUE);
            BinaryWriter hugeRow = new BinaryWriter();
            hugeRow.writeVarInt(2);
            hugeRow.writeVarInt(1);
            hugeRow.writeVarInt(0);
            hugeRow.writeVarInt(Integer.MAX_VALUE);
            BinaryWriter outside = new BinaryWriter();
            outside.writeVarInt(2);
            outside.writeVarInt(1);
            outside.writeVarInt(1);
            outside.writeLengthPrefixed(new byte[16]);

            long allocatedBefore = allocatedBytes();
            assertRefused(
                    gateway,
                    latest,
                    ends,
                    p -> committable(table, p, hugeCount.toByteArray()),
                    "exceeds what the remaining");
            assertRefused(
                    gateway,
                    latest,
                    ends,
                    p -> committable(table, p, hugeRow.toByteArray()),
                    "truncated");
            assertRefused(
                    gateway,
                    latest,
                    ends,
                    p -> committable(table, p, outside.toByteArray()),
                    "partition has 1 fields");
            assertThat(allocatedBytes() - allocatedBefore)
                    .as("bytes the server allocated while refusing 2 GB claims")
                    .isLessThan(256L << 20);

            // the server keeps serving: a normal round with a real Paimon write result commits
            RoundPlan current = currentPlan(gateway, latest[0]);
            LakeWriteResult written = writeRound(conn, gateway, server, table, descriptor, current);
            CommitOutcome outcome =
                    gateway.commitRound(
                                    JOB,
                                    new RoundCommit(
                                            table.tableId(),
                                            current.epoch(),
                                            current.roundId(),
                                            Map.of(
                                                    new PartitionBucket(
                                                            TableBucket.NO_PARTITION, 0),
                                                    current.buckets().get(0).cutoff()),
                                            List.of(
                                                    LakeWriteResultSerializer.INSTANCE.serialize(
                                                            written)),
                                            List.of(),
                                            false,
                                            100,
                                            0),
                                    Duration.ofSeconds(60))
                            .get();
            assertThat(outcome).isEqualTo(CommitOutcome.COMMITTED);
            assertThat(lakeRows(dir, table, descriptor)).isEqualTo(100);
        }
    }

    private static void assertRefused(
            TieringGateway gateway,
            RoundPlan[] latest,
            Map<PartitionBucket, Long> ignored,
            java.util.function.Function<RoundPlan, byte[]> payload,
            String message)
            throws InterruptedException {
        // a refused lake commit drops the round and re-queues the table: commit in the current one
        RoundPlan plan = currentPlan(gateway, latest[0]);
        latest[0] = plan;
        byte[] committable = payload.apply(plan);
        Map<PartitionBucket, Long> ends =
                Map.of(
                        new PartitionBucket(TableBucket.NO_PARTITION, 0),
                        plan.buckets().get(0).cutoff());
        RoundCommit commit =
                new RoundCommit(
                        plan.tableId(),
                        plan.epoch(),
                        plan.roundId(),
                        ends,
                        List.of(committable),
                        List.of(),
                        false,
                        100,
                        0);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try {
            gateway.commitRound(JOB, commit, Duration.ofSeconds(60)).get();
        } catch (ExecutionException e) {
            failure.set(e.getCause());
        }
        assertThat(failure.get()).as("the commit of a hostile payload was accepted").isNotNull();
        // the coordinator reports a failed lake commit as a StorageException naming the lake's
        // typed error; never an internal error
        assertThat(failure.get()).isInstanceOf(TributaryException.class);
        if (message != null) {
            assertThat(failure.get()).hasMessageContaining(message);
        }
    }

    /** Heartbeats until the table's round is planned. */
    private static RoundPlan plan(TieringGateway gateway) {
        AtomicReference<RoundPlan> plan = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () -> {
                            HeartbeatResult r =
                                    gateway.heartbeat(
                                            JOB, "", List.of(), List.of(), true, Duration.ZERO);
                            r.plan().ifPresent(plan::set);
                            return plan.get() != null;
                        });
        return plan.get();
    }

    /** The plan still current after the refused commits, or the next one if it was re-queued. */
    private static RoundPlan currentPlan(TieringGateway gateway, RoundPlan plan) {
        HeartbeatResult r =
                gateway.heartbeat(
                        JOB, "", List.of(plan.attempt()), List.of(), false, Duration.ZERO);
        return r.staleAttempts().contains(plan.attempt()) ? plan(gateway) : plan;
    }

    private static LakeWriteResult writeRound(
            Connection conn,
            TieringGateway gateway,
            TributaryServer server,
            TableInfo table,
            TableDescriptor descriptor,
            RoundPlan plan)
            throws Exception {
        BucketPlan b = plan.buckets().get(0);
        try (LakeStorage lake = paimon(server.dataDir());
                LakeWriter w =
                        lake.createWriter(
                                new LakeWriterContext(
                                        PATH,
                                        table.tableId(),
                                        descriptor,
                                        0,
                                        plan.epoch(),
                                        plan.roundId()));
                RecordIterator it =
                        gateway.readLog(
                                new TableBucket(table.tableId(), 0),
                                b.startOffset(),
                                b.cutoff(),
                                table.schema())) {
            while (it.hasNext()) {
                LogRecord r = it.next();
                w.write(r.row(), r.changeType(), 0, r.offset(), r.timestamp());
            }
            return w.complete();
        }
    }

    private static LakeStorage paimon(Path dataDir) {
        return new PaimonLakeStoragePlugin()
                .createLakeStorage(
                        Configuration.fromMap(
                                Map.of("warehouse", dataDir.resolve("lake").toUri().toString())));
    }

    private static long lakeRows(Path dataDir, TableInfo table, TableDescriptor descriptor)
            throws Exception {
        long rows = 0;
        try (LakeStorage lake = paimon(dataDir);
                LakeReader reader = lake.createReader(PATH)) {
            LakeSnapshot s = reader.latestTieringSnapshot(table.tableId()).orElseThrow();
            try (LakeRowCursor cursor =
                    reader.read(LakeReadRequest.all(s.snapshotId(), descriptor, 0))) {
                while (cursor.next()) {
                    rows++;
                }
            }
        }
        return rows;
    }

    private static byte[] committable(TableInfo table, RoundPlan plan, byte[] payload) {
        return LakeWriteResultSerializer.INSTANCE.serialize(
                new LakeWriteResult(
                        "paimon",
                        PATH,
                        table.tableId(),
                        plan.epoch(),
                        plan.roundId(),
                        0,
                        100,
                        List.of("/nowhere/f.parquet"),
                        10,
                        0,
                        0,
                        payload));
    }

    /** Bytes allocated so far by every live thread of this JVM (the server runs in it). */
    private static long allocatedBytes() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long[] ids = threads.getAllThreadIds();
        long sum = 0;
        for (long a : threads.getThreadAllocatedBytes(ids)) {
            sum += Math.max(0, a);
        }
        return sum;
    }
}
