package dev.tributary.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.scan.RecordIterator;
import dev.tributary.client.tiering.TieringGateway;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.TributaryException;
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
import dev.tributary.lake.iceberg.IcebergLakeStoragePlugin;
import dev.tributary.server.TestServers;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.api.BucketPlan;
import dev.tributary.tiering.api.CommitOutcome;
import dev.tributary.tiering.api.HeartbeatRequest;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.api.RoundPlan;
import dev.tributary.tiering.api.RoundStats;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T55 against the real server over real gRPC: a Java-serialized object graph where an Iceberg write
 * result goes, and 2 GB length prefixes, are refused with a typed error; nothing is instantiated or
 * allocated, and a normal round commits afterwards.
 */
class HostilePayloadITCase {
    private static final TablePath PATH = TablePath.of("lake", "events");
    private static final String JOB = "job-t55";

    @TempDir Path dir;

    @Test
    void t55_javaSerializedPayloadsAndHugeLengthPrefixesAreRefusedAndTheServerKeepsServing()
            throws Exception {
        Tripwire.instantiated = false;
        try (TributaryServer server = TestServers.start(dir, Map.of("datalake.format", "iceberg"));
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
            RoundPlan[] latest = {plan};

            // (a) a version-1 payload: Java serialization of an object whose readObject trips
            BinaryWriter javaSerialized = new BinaryWriter();
            javaSerialized.writeVarInt(1);
            javaSerialized.writeLengthPrefixed(serialize(new Tripwire()));
            assertRefused(
                    gateway,
                    latest,
                    p -> committable(table, p, javaSerialized.toByteArray()),
                    "older than this server, which does not read it");
            // the same object graph as the whole committable, as discarded results of a report
            byte[] graph = serialize(new Tripwire());
            assertRefused(gateway, latest, p -> graph, null);

            // (b) 2 GB length prefixes: of one Iceberg file inside the payload, of the payload in
            // the committable, and a count of 2^31 - 1 files
            BinaryWriter hugeFile = new BinaryWriter();
            hugeFile.writeVarInt(2);
            hugeFile.writeVarInt(1);
            hugeFile.writeVarInt(Integer.MAX_VALUE);
            hugeFile.writeString("{}");
            BinaryWriter hugeCount = new BinaryWriter();
            hugeCount.writeVarInt(2);
            hugeCount.writeVarInt(Integer.MAX_VALUE);

            long allocatedBefore = allocatedBytes();
            assertRefused(
                    gateway,
                    latest,
                    p -> committable(table, p, hugeFile.toByteArray()),
                    "truncated");
            assertRefused(
                    gateway,
                    latest,
                    p -> committable(table, p, hugeCount.toByteArray()),
                    "exceeds what the remaining");
            // the payload is the committable's last field: point its length prefix at 2 GB
            assertRefused(
                    gateway,
                    latest,
                    p ->
                            withLastFieldLength(
                                    committable(table, p, new byte[] {2, 0, 0, 0, 0}),
                                    5,
                                    Integer.MAX_VALUE),
                    "truncated");
            assertThat(allocatedBytes() - allocatedBefore)
                    .as("bytes the server allocated while refusing three 2 GB claims")
                    .isLessThan(256L << 20);
            assertThat(Tripwire.instantiated).as("a Java-serialized object was read").isFalse();

            // the server keeps serving: a normal round with a real Iceberg write result commits
            RoundPlan current = currentPlan(gateway, latest[0]);
            LakeWriteResult written = writeRound(conn, gateway, server, table, descriptor, current);
            CommitOutcome outcome =
                    gateway.commitRound(
                                    RoundCommit.of(
                                            JOB,
                                            table.tableId(),
                                            current.epoch(),
                                            current.roundId(),
                                            Map.of(0, current.buckets().get(0).endOffset()),
                                            List.of(
                                                    LakeWriteResultSerializer.INSTANCE.serialize(
                                                            written)),
                                            new RoundStats(100, 0),
                                            false),
                                    Duration.ofSeconds(60))
                            .get();
            assertThat(outcome).isEqualTo(CommitOutcome.COMMITTED);
            assertThat(lakeRows(dir, table, descriptor)).isEqualTo(100);
            assertThat(Tripwire.instantiated).isFalse();
        }
    }

    private static void assertRefused(
            TieringGateway gateway,
            RoundPlan[] latest,
            java.util.function.Function<RoundPlan, byte[]> payload,
            String message)
            throws InterruptedException {
        // a refused lake commit drops the round and re-queues the table: commit in the current one
        RoundPlan plan = currentPlan(gateway, latest[0]);
        latest[0] = plan;
        byte[] committable = payload.apply(plan);
        RoundCommit commit =
                RoundCommit.of(
                        JOB,
                        plan.tableId(),
                        plan.epoch(),
                        plan.roundId(),
                        Map.of(0, plan.buckets().get(0).endOffset()),
                        List.of(committable),
                        new RoundStats(100, 0),
                        false);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try {
            gateway.commitRound(commit, Duration.ofSeconds(60)).get();
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
                                            new HeartbeatRequest(
                                                    JOB, "", List.of(), List.of(), true));
                            r.roundPlan().ifPresent(plan::set);
                            return plan.get() != null;
                        });
        return plan.get();
    }

    /** The plan still current after the refused commits, or the next one if it was re-queued. */
    private static RoundPlan currentPlan(TieringGateway gateway, RoundPlan plan) {
        HeartbeatResult r =
                gateway.heartbeat(
                        new HeartbeatRequest(JOB, "", List.of(plan.attempt()), List.of(), false));
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
        try (LakeStorage lake = iceberg(server.dataDir());
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
                                b.endOffset(),
                                table.schema())) {
            while (it.hasNext()) {
                LogRecord r = it.next();
                w.write(r.row(), r.changeType(), 0, r.offset(), r.timestamp());
            }
            return w.complete();
        }
    }

    private static LakeStorage iceberg(Path dataDir) {
        return new IcebergLakeStoragePlugin()
                .createLakeStorage(
                        Configuration.fromMap(
                                Map.of("warehouse", dataDir.resolve("lake").toUri().toString())));
    }

    private static long lakeRows(Path dataDir, TableInfo table, TableDescriptor descriptor)
            throws Exception {
        long rows = 0;
        try (LakeStorage lake = iceberg(dataDir);
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
                        "iceberg",
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

    /** Rewrites the varint length of the last {@code length}-byte field to {@code claimed}. */
    private static byte[] withLastFieldLength(byte[] bytes, int length, int claimed) {
        int prefixAt = bytes.length - length - 1;
        assertThat(bytes[prefixAt]).isEqualTo((byte) length);
        BinaryWriter w = new BinaryWriter();
        w.writeBytes(bytes, 0, prefixAt);
        w.writeVarInt(claimed);
        w.writeBytes(bytes, bytes.length - length, length);
        return w.toByteArray();
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

    private static byte[] serialize(Object o) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new ArrayList<>(List.of(o, new HashMap<>(Map.of("k", o)))));
        }
        return bytes.toByteArray();
    }

    /** Records whether Java deserialization ever ran on it, in the server's JVM. */
    static final class Tripwire implements Serializable {
        private static final long serialVersionUID = 1L;
        static volatile boolean instantiated;

        private void readObject(java.io.ObjectInputStream in)
                throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            instantiated = true;
        }
    }
}
