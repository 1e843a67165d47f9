package dev.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.Admin;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.client.write.WriteResult;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.server.process.ChildServerMain;
import dev.tributary.server.process.ServerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T42 end to end: a real server in a child JVM is SIGKILLed after a batch is durable and before its
 * ack leaves; the writer's retry reaches the restarted server and is acknowledged with the first
 * offsets, and the row is in the log once. The same crash with idempotence switched off writes the
 * row twice, which shows that the kill really fell between fsync and ack.
 */
class IdempotentWriteCrashITCase {
    private static final TablePath LOG = TablePath.of("crash", "events");
    private static final TablePath PK = TablePath.of("crash", "users");
    private static final Duration START = Duration.ofSeconds(90);

    @TempDir Path dir;
    private ServerProcess server;
    private int port;

    private Path data() {
        return dir.resolve("data");
    }

    private Path trigger() {
        return dir.resolve("kill-before-ack");
    }

    private void startServer() throws Exception {
        server =
                ServerProcess.start(
                        ChildServerMain.class,
                        List.of(data().toString(), Integer.toString(port), trigger().toString()),
                        dir.resolve("server.out"),
                        START);
    }

    /** Arms the kill, runs {@code write}, waits for the kill, restarts the server. */
    private void crashBetweenFsyncAndAck(Runnable write) throws Exception {
        Files.createFile(trigger());
        write.run();
        assertThat(server.awaitExit(Duration.ofSeconds(60))).isEqualTo(137);
        assertThat(server.output()).contains("durable, killing myself before the ack");
        Files.delete(trigger());
        startServer();
    }

    private Connection connect(boolean idempotent) {
        return Connection.builder()
                .address("127.0.0.1:" + port)
                .option("client.writer.idempotence", Boolean.toString(idempotent))
                // the writer outlives the restart: ~90 s of retries
                .option("client.writer.retries", "40")
                .option("client.writer.retry-backoff", "200ms")
                .option("client.writer.retry-backoff.max", "5s")
                .option("client.request.timeout", "20s")
                .build();
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void t42_aRetryAfterTheServerDiedBetweenFsyncAndAckAddsNoDuplicate() throws Exception {
        port = ServerProcess.freePort();
        startServer();
        try (Connection conn = connect(true)) {
            Admin admin = conn.admin();
            admin.createDatabase("crash", false);
            admin.createTable(
                    LOG,
                    TableDescriptor.builder(
                                    Schema.newBuilder()
                                            .column("id", DataTypes.BIGINT())
                                            .column("tag", DataTypes.STRING())
                                            .build())
                            .bucketCount(1)
                            .build(),
                    false);
            admin.createTable(
                    PK,
                    TableDescriptor.builder(
                                    Schema.newBuilder()
                                            .column("k", DataTypes.INT().notNull())
                                            .column("v", DataTypes.STRING())
                                            .primaryKey("k")
                                            .build())
                            .bucketCount(1)
                            .build(),
                    false);

            AppendWriter log = conn.appendWriter(LOG);
            for (long i = 0; i < 100; i++) {
                log.append(Row.of(i, "before"));
            }
            log.flush();
            List<CompletableFuture<WriteResult>> inDoubt = new ArrayList<>();
            CompletableFuture<Void> logFlushed = new CompletableFuture<>();
            crashBetweenFsyncAndAck(
                    () -> {
                        inDoubt.add(log.append(Row.of(100L, "in doubt")));
                        logFlushed.completeAsync(
                                () -> {
                                    log.flush();
                                    return null;
                                });
                    });
            logFlushed.get();
            assertThat(inDoubt.get(0).get().offset()).isEqualTo(100);

            UpsertWriter kv = conn.upsertWriter(PK);
            kv.upsert(Row.of(1, "a"));
            kv.flush();
            CompletableFuture<Void> kvFlushed = new CompletableFuture<>();
            crashBetweenFsyncAndAck(
                    () -> {
                        kv.upsert(Row.of(1, "b"));
                        kvFlushed.completeAsync(
                                () -> {
                                    kv.flush();
                                    return null;
                                });
                    });
            kvFlushed.get();

            // after the retry the writers go on as usual
            log.append(Row.of(101L, "after"));
            log.flush();
            kv.upsert(Row.of(2, "c"));
            kv.flush();

            List<LogRecord> records = conn.logScanner(LOG).readAll(0);
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < records.size(); i++) {
                assertThat(records.get(i).offset()).isEqualTo(i);
                ids.add((Long) records.get(i).row().getField(0));
            }
            List<Long> expected = new ArrayList<>();
            for (long i = 0; i <= 101; i++) {
                expected.add(i);
            }
            assertThat(ids).as("every row once, in order").isEqualTo(expected);
            assertThat(conn.logScanner(PK).readAll(0))
                    .extracting(r -> r.changeType() + " " + r.row())
                    .containsExactly(
                            ChangeType.INSERT + " " + Row.of(1, "a"),
                            ChangeType.UPDATE_BEFORE + " " + Row.of(1, "a"),
                            ChangeType.UPDATE_AFTER + " " + Row.of(1, "b"),
                            ChangeType.INSERT + " " + Row.of(2, "c"));
            log.close();
            kv.close();
        }

        // control: the same crash without idempotence writes the row twice (at least once)
        try (Connection conn = connect(false)) {
            AppendWriter log = conn.appendWriter(LOG);
            CompletableFuture<Void> flushed = new CompletableFuture<>();
            crashBetweenFsyncAndAck(
                    () -> {
                        log.append(Row.of(102L, "twice"));
                        flushed.completeAsync(
                                () -> {
                                    log.flush();
                                    return null;
                                });
                    });
            flushed.get();
            log.close();
            assertThat(conn.logScanner(LOG).readAll(0))
                    .filteredOn(r -> r.row().getField(0).equals(102L))
                    .hasSize(2);
        }
    }
}
