package dev.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.client.Connection;
import dev.tributary.client.scan.LogScanner;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.WriteResult;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several writers (own connections and a shared one) append to one table at the same time. */
class ConcurrentWritersITCase {
    private static final TablePath TABLE = TablePath.of("db", "events");
    private static final int WRITERS = 6;
    private static final int ROWS_PER_WRITER = 15_000;

    @TempDir Path dir;

    @Test
    void concurrentWritersLoseAndDuplicateNoOffset() throws Exception {
        try (TributaryServer server = TestServers.start(dir);
                Connection shared = Connection.open(server.rpcTarget())) {
            shared.admin().createDatabase("db", false);
            shared.admin()
                    .createTable(
                            TABLE,
                            TableDescriptor.builder(
                                            Schema.newBuilder()
                                                    .column("writer", DataTypes.INT())
                                                    .column("seq", DataTypes.BIGINT())
                                                    .build())
                                    .bucketCount(2)
                                    .build(),
                            false);
            ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
            List<Future<List<WriteResult>>> results = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                results.add(
                        pool.submit(
                                () -> {
                                    // half the writers share one connection, half open their own
                                    Connection conn =
                                            writer % 2 == 0
                                                    ? shared
                                                    : Connection.builder()
                                                            .address(server.rpcTarget())
                                                            .option(
                                                                    "client.writer.batch-size",
                                                                    "8kb")
                                                            .build();
                                    List<CompletableFuture<WriteResult>> fs = new ArrayList<>();
                                    try (AppendWriter aw = conn.appendWriter(TABLE)) {
                                        for (long i = 0; i < ROWS_PER_WRITER; i++) {
                                            fs.add(aw.append(Row.of(writer, i)));
                                        }
                                        aw.flush();
                                    } finally {
                                        if (conn != shared) {
                                            conn.close();
                                        }
                                    }
                                    List<WriteResult> out = new ArrayList<>();
                                    fs.forEach(f -> out.add(f.join()));
                                    return out;
                                }));
            }
            Map<Integer, List<Long>> acknowledged = new HashMap<>();
            for (Future<List<WriteResult>> f : results) {
                for (WriteResult r : f.get()) {
                    acknowledged
                            .computeIfAbsent(r.bucket(), b -> new ArrayList<>())
                            .add(r.offset());
                }
            }
            pool.shutdown();

            LogScanner scanner = shared.logScanner(TABLE);
            Map<Integer, Long> ends = scanner.endOffsets();
            long total = 0;
            Map<Integer, Long> lastSeqByWriterAndBucket = new HashMap<>();
            for (int b = 0; b < 2; b++) {
                List<Long> offsets = acknowledged.getOrDefault(b, List.of());
                // every offset 0..end-1 acknowledged exactly once: none lost, none duplicated
                assertThat(offsets).doesNotHaveDuplicates();
                assertThat(offsets).hasSize(ends.get(b).intValue());
                assertThat(offsets.stream().mapToLong(Long::longValue).max().orElse(-1))
                        .isEqualTo(ends.get(b) - 1);
                List<LogRecord> records = scanner.readAll(b);
                assertThat(records).hasSize(ends.get(b).intValue());
                for (LogRecord r : records) {
                    // a writer's rows keep their order within a bucket
                    int key = r.row().getInt(0) * 10 + b;
                    long seq = r.row().getLong(1);
                    Long prev = lastSeqByWriterAndBucket.put(key, seq);
                    assertThat(prev == null || prev < seq).isTrue();
                }
                total += records.size();
            }
            assertThat(total).isEqualTo((long) WRITERS * ROWS_PER_WRITER);
        }
    }
}
