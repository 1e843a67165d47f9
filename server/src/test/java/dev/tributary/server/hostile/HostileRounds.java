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
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.read.LakeReadRequest;
import dev.tributary.lake.api.read.LakeReader;
import dev.tributary.lake.api.read.LakeRowCursor;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriteResultSerializer;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import dev.tributary.server.TestServers;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.api.BucketPlan;
import dev.tributary.tiering.api.CommitOutcome;
import dev.tributary.tiering.api.HeartbeatRequest;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.api.RoundPlan;
import dev.tributary.tiering.api.RoundStats;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A real server with one lake-enabled log table of 100 rows in a given lake format, and a tiering
 * job's side of the protocol driven by hand over real gRPC: the T55 tests commit hostile payloads
 * in the table's rounds, then a real round.
 */
final class HostileRounds implements AutoCloseable {
    static final TablePath PATH = TablePath.of("lake", "events");
    private static final String JOB = "job-t55";

    private final String format;
    private final Path dataDir;
    private final TributaryServer server;
    private final Connection conn;
    private final TieringGateway gateway;
    private final TableDescriptor descriptor;
    private final TableInfo table;
    private RoundPlan latest;

    private HostileRounds(String format, Path dir, TributaryServer server) throws Exception {
        this.format = format;
        this.dataDir = dir;
        this.server = server;
        this.conn = Connection.open(server.rpcTarget());
        conn.admin().createDatabase("lake", false);
        this.descriptor =
                TableDescriptor.builder(
                                Schema.newBuilder().column("id", DataTypes.BIGINT()).build())
                        .bucketCount(1)
                        .property("table.datalake.enabled", "true")
                        .property("table.datalake.freshness", "1s")
                        .build();
        this.table = conn.admin().createTable(PATH, descriptor, false);
        try (AppendWriter w = conn.appendWriter(PATH)) {
            for (long i = 0; i < 100; i++) {
                w.append(Row.of(i));
            }
            w.flush();
        }
        this.gateway = conn.tieringGateway();
        gateway.registerJob(JOB, "");
        this.latest = plan();
    }

    static HostileRounds start(String format, Path dir) throws Exception {
        TributaryServer server = TestServers.start(dir, Map.of("datalake.format", format));
        try {
            return new HostileRounds(format, dir, server);
        } catch (Exception | AssertionError e) {
            server.close();
            throw e;
        }
    }

    /**
     * Commits, in the table's current round, a committable that carries {@code payload} as its lake
     * format's payload, and asserts that the server refuses it with a typed error naming {@code
     * message}.
     */
    void assertPayloadRefused(byte[] payload, String message) throws InterruptedException {
        assertRefused(committable(payload), message);
    }

    /** Commits {@code committable} as the whole write result and asserts a typed refusal. */
    void assertRefused(byte[] committable, String message) throws InterruptedException {
        // a refused lake commit drops the round and re-queues the table: commit in the current one
        latest = currentPlan();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try {
            gateway.commitRound(commit(latest, committable), Duration.ofSeconds(60)).get();
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

    /**
     * The committable of a write result of the current round with {@code payload} as its lake
     * format's payload; the round is looked up again when it is committed.
     */
    byte[] committable(byte[] payload) {
        latest = currentPlan();
        return LakeWriteResultSerializer.INSTANCE.serialize(
                new LakeWriteResult(
                        format,
                        PATH,
                        table.tableId(),
                        latest.epoch(),
                        latest.roundId(),
                        0,
                        100,
                        List.of("/nowhere/f.parquet"),
                        10,
                        0,
                        0,
                        payload));
    }

    /** Writes the current round with the format's real writer and commits it. */
    CommitOutcome commitRealRound() throws Exception {
        RoundPlan plan = currentPlan();
        BucketPlan b = plan.buckets().get(0);
        LakeWriteResult written;
        try (LakeStorage lake = lake();
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
            written = w.complete();
        }
        return gateway.commitRound(
                        commit(plan, LakeWriteResultSerializer.INSTANCE.serialize(written)),
                        Duration.ofSeconds(60))
                .get();
    }

    /** Rows of the lake table's latest tiering snapshot, read by the format's own reader. */
    long lakeRows() throws Exception {
        long rows = 0;
        try (LakeStorage lake = lake();
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

    private RoundCommit commit(RoundPlan plan, byte[] committable) {
        return RoundCommit.of(
                JOB,
                plan.tableId(),
                plan.epoch(),
                plan.roundId(),
                Map.of(0, plan.buckets().get(0).endOffset()),
                List.of(committable),
                new RoundStats(100, 0),
                false);
    }

    private LakeStorage lake() {
        return LakeStoragePlugins.find(format)
                .createLakeStorage(
                        Configuration.fromMap(
                                Map.of("warehouse", dataDir.resolve("lake").toUri().toString())));
    }

    /** Heartbeats until the table's round is planned. */
    private RoundPlan plan() {
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

    /** The plan still current after refused commits, or the next one if it was re-queued. */
    private RoundPlan currentPlan() {
        HeartbeatResult r =
                gateway.heartbeat(
                        new HeartbeatRequest(JOB, "", List.of(latest.attempt()), List.of(), false));
        return r.staleAttempts().contains(latest.attempt()) ? plan() : latest;
    }

    /** Rewrites the varint length of the last {@code length}-byte field to {@code claimed}. */
    static byte[] withLastFieldLength(byte[] bytes, int length, int claimed) {
        int prefixAt = bytes.length - length - 1;
        assertThat(bytes[prefixAt]).isEqualTo((byte) length);
        BinaryWriter w = new BinaryWriter();
        w.writeBytes(bytes, 0, prefixAt);
        w.writeVarInt(claimed);
        w.writeBytes(bytes, bytes.length - length, length);
        return w.toByteArray();
    }

    /** Bytes allocated so far by every live thread of this JVM (the server runs in it). */
    static long allocatedBytes() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (long a : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
            sum += Math.max(0, a);
        }
        return sum;
    }

    @Override
    public void close() throws Exception {
        try (server) {
            conn.close();
        }
    }
}
