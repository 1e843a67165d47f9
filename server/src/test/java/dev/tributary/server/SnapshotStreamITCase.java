package dev.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableAlteration;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.scan.LogChunkStream;
import dev.tributary.client.scan.RecordIterator;
import dev.tributary.client.tiering.TieringGateway;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.exception.FencedException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.LogBatch;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.EncodedRow;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.storage.kv.KvSnapshotInfo;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T54 over real gRPC: a KV snapshot streams its rows as the store keeps them, without decoding and
 * re-encoding them, so a row written before a column was added arrives with the fields it was
 * written with, and reads under the current schema with NULL in the new column.
 */
class SnapshotStreamITCase {
    private static final TablePath USERS = TablePath.of("shop", "users");

    @TempDir Path dir;

    @Test
    void t54_snapshotRowsStreamAsStoredAndReadUnderTheCurrentSchema() throws Exception {
        try (TributaryServer server = TestServers.start(dir);
                Connection conn = Connection.open(server.rpcTarget())) {
            conn.admin().createDatabase("shop", false);
            conn.admin()
                    .createTable(
                            USERS,
                            TableDescriptor.builder(
                                            Schema.newBuilder()
                                                    .column("id", DataTypes.BIGINT())
                                                    .column("name", DataTypes.STRING())
                                                    .primaryKey("id")
                                                    .build())
                                    .bucketCount(1)
                                    .build(),
                            false);
            try (UpsertWriter w = conn.upsertWriter(USERS)) {
                for (long i = 0; i < 100; i++) {
                    w.upsert(Row.of(i, "n" + i));
                }
                w.flush();
            }
            TableInfo users =
                    conn.admin()
                            .alterTable(
                                    USERS,
                                    TableAlteration.create().addColumn("score", DataTypes.INT()));
            // keys 50..149 are (re)written with the new column
            try (UpsertWriter w = conn.upsertWriter(USERS)) {
                for (long i = 50; i < 150; i++) {
                    w.upsert(Row.of(i, "m" + i, (int) i));
                }
                w.flush();
            }
            TableBucket bucket = new TableBucket(users.tableId(), 0);
            KvSnapshotInfo snapshot = server.store().snapshot(bucket);
            long snapshotId = snapshot.snapshotId();
            TieringGateway gateway = conn.tieringGateway();

            // T52: a split planned on another replica's snapshot of the same id is refused
            assertThatThrownBy(
                            () -> {
                                try (LogChunkStream chunks =
                                        gateway.readSnapshotChunks(
                                                bucket, snapshotId, snapshot.logOffset() - 1)) {
                                    chunks.hasNext();
                                }
                            })
                    .isInstanceOf(FencedException.class)
                    .hasMessageContaining("is at log offset " + snapshot.logOffset());

            // as stored: every key once, in a batch of the current schema, each row with the
            // fields it was written with
            Map<Long, Integer> encodedFields = new TreeMap<>();
            EncodedRow view = RowCodec.of(users.schema()).view();
            try (LogChunkStream chunks =
                    gateway.readSnapshotChunks(bucket, snapshotId, snapshot.logOffset())) {
                while (chunks.hasNext()) {
                    byte[] chunk = chunks.next();
                    for (int pos = 0; pos < chunk.length; ) {
                        LogBatch batch = LogBatch.wrap(chunk, pos, chunk.length - pos);
                        assertThat(batch.schemaId()).isEqualTo(users.schemaId());
                        LogBatch.Cursor c = batch.cursor();
                        while (c.next()) {
                            assertThat(c.changeType()).isEqualTo(ChangeType.INSERT);
                            view.pointTo(c.rowBuffer(), c.rowOffset(), c.rowLength());
                            Integer was = encodedFields.put(view.getLong(0), view.encodedFields());
                            assertThat(was).as("key %d streamed twice", view.getLong(0)).isNull();
                        }
                        pos += batch.sizeInBytes();
                    }
                }
            }
            assertThat(encodedFields).hasSize(150);
            for (long id = 0; id < 150; id++) {
                assertThat(encodedFields.get(id))
                        .as("fields of key %d", id)
                        .isEqualTo(id < 50 ? 2 : 3);
            }

            // read under the current schema: the old rows have NULL in the new column
            Map<Long, Row> rows = new TreeMap<>();
            try (RecordIterator it = gateway.readSnapshot(bucket, snapshotId, users.schema())) {
                while (it.hasNext()) {
                    LogRecord r = it.next();
                    rows.put((Long) r.row().getField(0), r.row());
                }
            }
            assertThat(rows).hasSize(150);
            assertThat(rows.get(7L)).isEqualTo(Row.of(7L, "n7", null));
            assertThat(rows.get(50L)).isEqualTo(Row.of(50L, "m50", 50));
            assertThat(rows.get(149L)).isEqualTo(Row.of(149L, "m149", 149));
        }
    }
}
