package dev.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableAlteration;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.lookup.Lookuper;
import dev.tributary.client.scan.LogScanner;
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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole write and read path over loopback: a log table and a primary-key table, 100k rows each
 * through the client, scans and lookups, then a restart on the same data directory.
 */
class ClientServerITCase {
    private static final int ROWS = 100_000;
    private static final TablePath LOG = TablePath.of("shop", "clicks");
    private static final TablePath PK = TablePath.of("shop", "users");

    @TempDir Path dir;

    @Test
    void writeScanLookupAndRestartKeepsEverythingAtTheSameOffsets() throws Exception {
        Map<Integer, Long> logEnds;
        Map<Integer, Long> pkEnds;
        List<LogRecord> logBefore = new ArrayList<>();
        List<LogRecord> pkBefore = new ArrayList<>();
        try (TributaryServer server = TestServers.start(dir);
                Connection conn = Connection.open(server.rpcTarget())) {
            conn.admin().createDatabase("shop", false);
            TableInfo log =
                    conn.admin()
                            .createTable(
                                    LOG,
                                    TableDescriptor.builder(
                                                    Schema.newBuilder()
                                                            .column("id", DataTypes.BIGINT())
                                                            .column("page", DataTypes.STRING())
                                                            .build())
                                            .bucketCount(3)
                                            .build(),
                                    false);
            conn.admin()
                    .createTable(
                            PK,
                            TableDescriptor.builder(
                                            Schema.newBuilder()
                                                    .column("id", DataTypes.BIGINT())
                                                    .column("name", DataTypes.STRING())
                                                    .column("score", DataTypes.INT())
                                                    .primaryKey("id")
                                                    .build())
                                    .bucketCount(2)
                                    .build(),
                            false);
            assertThat(conn.admin().listTables("shop")).containsExactly("clicks", "users");
            assertThat(log.tableId()).isPositive();

            // log table: every row acknowledged with a distinct offset
            Set<String> positions = new HashSet<>();
            try (AppendWriter w = conn.appendWriter(LOG)) {
                List<CompletableFuture<WriteResult>> futures = new ArrayList<>(ROWS);
                for (long i = 0; i < ROWS; i++) {
                    futures.add(w.append(Row.of(i, "page-" + (i % 97))));
                }
                w.flush();
                for (CompletableFuture<WriteResult> f : futures) {
                    WriteResult r = f.join();
                    assertThat(positions.add(r.bucket() + "@" + r.offset())).isTrue();
                }
            }
            LogScanner logScanner = conn.logScanner(LOG);
            logEnds = logScanner.endOffsets();
            assertThat(logEnds.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(ROWS);
            Set<Long> ids = new HashSet<>();
            for (int b = 0; b < 3; b++) {
                List<LogRecord> records = logScanner.readAll(b);
                assertThat(records).hasSize(logEnds.get(b).intValue());
                for (int i = 0; i < records.size(); i++) {
                    assertThat(records.get(i).offset()).isEqualTo(i);
                    assertThat(records.get(i).changeType()).isEqualTo(ChangeType.APPEND_ONLY);
                    ids.add(records.get(i).row().getLong(0));
                }
                logBefore.addAll(records);
            }
            assertThat(ids).hasSize(ROWS);
            // a partial range
            try (var it = logScanner.scan(0, 10, 20)) {
                List<Long> offsets = new ArrayList<>();
                it.forEachRemaining(r -> offsets.add(r.offset()));
                assertThat(offsets).hasSize(10).startsWith(10L).endsWith(19L);
            }

            // PK table: inserts, updates of every 10th key, deletes of every 100th key
            try (UpsertWriter w = conn.upsertWriter(PK)) {
                for (long i = 0; i < ROWS; i++) {
                    w.upsert(Row.of(i, "user-" + i, (int) i));
                }
                for (long i = 0; i < ROWS; i += 10) {
                    w.upsert(Row.of(i, "renamed-" + i, -1));
                }
                for (long i = 0; i < ROWS; i += 100) {
                    w.delete(Row.of(i, null, null));
                }
                w.flush();
            }
            Lookuper lookuper = conn.lookuper(PK);
            assertThat(lookuper.lookup(Row.of(5L))).contains(Row.of(5L, "user-5", 5));
            assertThat(lookuper.lookup(Row.of(10L))).contains(Row.of(10L, "renamed-10", -1));
            assertThat(lookuper.lookup(Row.of(100L))).isEmpty();
            assertThat(lookuper.lookup(Row.of((long) ROWS))).isEmpty();
            List<Row> keys = new ArrayList<>();
            for (long i = 0; i < ROWS; i += 7) {
                keys.add(Row.of(i));
            }
            List<Optional<Row>> found = lookuper.lookupAll(keys);
            for (int k = 0; k < keys.size(); k++) {
                long id = keys.get(k).getLong(0);
                assertThat(found.get(k).isPresent()).isEqualTo(id % 100 != 0);
            }
            LogScanner pkScanner = conn.logScanner(PK);
            pkEnds = pkScanner.endOffsets();
            // +I per key, -U/+U per update, -D per delete
            long expected = ROWS + 2L * (ROWS / 10) + ROWS / 100;
            assertThat(pkEnds.values().stream().mapToLong(Long::longValue).sum())
                    .isEqualTo(expected);
            Map<ChangeType, Integer> kinds = new HashMap<>();
            for (int b = 0; b < 2; b++) {
                for (LogRecord r : pkScanner.readAll(b)) {
                    kinds.merge(r.changeType(), 1, Integer::sum);
                    pkBefore.add(r);
                }
            }
            assertThat(kinds)
                    .containsEntry(ChangeType.INSERT, ROWS)
                    .containsEntry(ChangeType.UPDATE_BEFORE, ROWS / 10)
                    .containsEntry(ChangeType.UPDATE_AFTER, ROWS / 10)
                    .containsEntry(ChangeType.DELETE, ROWS / 100);

            // add a nullable column: old rows read back with NULL in it, and a writer created
            // before the ALTER keeps writing (its batches are upgraded to the new schema)
            AppendWriter early = conn.appendWriter(LOG);
            TableInfo altered =
                    conn.admin()
                            .alterTable(
                                    LOG,
                                    TableAlteration.create()
                                            .addColumn("referrer", DataTypes.STRING()));
            assertThat(altered.schemaId()).isEqualTo(log.schemaId() + 1);
            try (AppendWriter w = conn.appendWriter(LOG)) {
                w.append(Row.of(-1L, "late", "search"));
                w.flush();
            }
            early.append(Row.of(-3L, "old-writer"));
            early.close();
            List<LogRecord> afterAlter = new ArrayList<>();
            for (int b = 0; b < 3; b++) {
                afterAlter.addAll(conn.logScanner(LOG).readAll(b));
            }
            assertThat(afterAlter).hasSize(ROWS + 2);
            assertThat(afterAlter)
                    .filteredOn(r -> r.row().getLong(0) == -3L)
                    .singleElement()
                    .satisfies(r -> assertThat(r.row().isNullAt(2)).isTrue());
            assertThat(afterAlter)
                    .filteredOn(r -> r.row().getLong(0) == 0L)
                    .singleElement()
                    .satisfies(r -> assertThat(r.row().arity()).isEqualTo(3))
                    .satisfies(r -> assertThat(r.row().isNullAt(2)).isTrue());
            assertThat(afterAlter)
                    .filteredOn(r -> r.row().getLong(0) == -1L)
                    .singleElement()
                    .satisfies(r -> assertThat(r.row().getString(2)).isEqualTo("search"));
            logEnds = conn.logScanner(LOG).endOffsets();
        }

        // restart on the same directory: same tables, same offsets, same records, same state
        try (TributaryServer server = TestServers.start(dir);
                Connection conn = Connection.open(server.rpcTarget())) {
            assertThat(conn.admin().listTables("shop")).containsExactly("clicks", "users");
            assertThat(conn.admin().describeTable(LOG).schema().fieldCount()).isEqualTo(3);
            LogScanner logScanner = conn.logScanner(LOG);
            assertThat(logScanner.endOffsets()).isEqualTo(logEnds);
            List<LogRecord> logAfter = new ArrayList<>();
            for (int b = 0; b < 3; b++) {
                logAfter.addAll(logScanner.readAll(b));
            }
            assertThat(logAfter).hasSize(ROWS + 2);
            Map<Long, Long> offsetById = new HashMap<>();
            logBefore.forEach(r -> offsetById.put(r.row().getLong(0), r.offset()));
            for (LogRecord r : logAfter) {
                if (r.row().getLong(0) >= 0) {
                    assertThat(r.offset()).isEqualTo(offsetById.get(r.row().getLong(0)));
                }
            }
            LogScanner pkScanner = conn.logScanner(PK);
            assertThat(pkScanner.endOffsets()).isEqualTo(pkEnds);
            List<LogRecord> pkAfter = new ArrayList<>();
            for (int b = 0; b < 2; b++) {
                pkAfter.addAll(pkScanner.readAll(b));
            }
            assertThat(pkAfter).hasSameSizeAs(pkBefore);
            for (int i = 0; i < pkAfter.size(); i++) {
                assertThat(pkAfter.get(i).offset()).isEqualTo(pkBefore.get(i).offset());
                assertThat(pkAfter.get(i).row()).isEqualTo(pkBefore.get(i).row());
            }
            Lookuper lookuper = conn.lookuper(PK);
            assertThat(lookuper.lookup(Row.of(5L))).contains(Row.of(5L, "user-5", 5));
            assertThat(lookuper.lookup(Row.of(10L))).contains(Row.of(10L, "renamed-10", -1));
            assertThat(lookuper.lookup(Row.of(100L))).isEmpty();
            // writes continue after the recovered end
            try (AppendWriter w = conn.appendWriter(LOG)) {
                WriteResult r = w.append(Row.of(-2L, "after-restart", null)).get();
                assertThat(r.offset()).isEqualTo(logEnds.get(r.bucket()));
            }
        }
    }
}
