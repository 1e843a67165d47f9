package dev.tributary.storage;

import static dev.tributary.storage.StoreTestSupport.LOG_SCHEMA;
import static dev.tributary.storage.StoreTestSupport.PK_SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.BucketRouter;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A rejected batch is refused with a typed error and leaves no trace in log or KV. */
class BadInputTest {
    private static final long LOG_TABLE = 1;
    private static final long PK_TABLE = 2;
    private static final TableBucket LOG_BUCKET = new TableBucket(LOG_TABLE, 0);
    private static final TableBucket PK_BUCKET = new TableBucket(PK_TABLE, 0);

    @TempDir Path dir;
    private BucketStore store;

    @BeforeEach
    void open() {
        store = BucketStore.open(dir, new Configuration(), new ManualClock(1000));
        store.createTable(
                LOG_TABLE,
                TableDescriptor.builder(LOG_SCHEMA).bucketCount(2).build(),
                1,
                LOG_SCHEMA);
        store.createTable(
                PK_TABLE, TableDescriptor.builder(PK_SCHEMA).bucketCount(2).build(), 1, PK_SCHEMA);
        store.append(
                        WriteBatch.builder(LOG_TABLE, 0, 1, LOG_SCHEMA)
                                .append(Row.of(1L, "a", null))
                                .build())
                .join();
        store.append(
                        WriteBatch.builder(PK_TABLE, 0, 1, PK_SCHEMA)
                                .upsert(Row.of(1, "a", 1L))
                                .build())
                .join();
    }

    @AfterEach
    void close() {
        store.close();
    }

    private void assertNoTrace() {
        assertThat(store.endOffset(LOG_BUCKET)).isEqualTo(1);
        assertThat(store.endOffset(PK_BUCKET)).isEqualTo(1);
        assertThat(store.lookup(PK_BUCKET, Row.of(1))).contains(Row.of(1, "a", 1L));
        assertThat(store.lookup(PK_BUCKET, Row.of(2))).isEmpty();
        // the next good write takes the next offset: nothing half-written sits in between
        assertThat(
                        store.append(
                                        WriteBatch.builder(LOG_TABLE, 0, 1, LOG_SCHEMA)
                                                .append(Row.of(2L, "b", null))
                                                .build())
                                .join()
                                .baseOffset())
                .isEqualTo(1);
    }

    @Test
    void schemaIdMismatchIsRejected() {
        WriteBatch stale =
                WriteBatch.builder(LOG_TABLE, 0, 0, LOG_SCHEMA)
                        .append(Row.of(5L, "x", null))
                        .build();
        assertThatThrownBy(() -> store.append(stale))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("schema id 0")
                .hasMessageContaining("current schema id is 1");
        assertNoTrace();
    }

    @Test
    void wrongArityIsRejected() {
        Schema wider = LOG_SCHEMA.addColumn(new Column("extra", DataTypes.INT()));
        WriteBatch b =
                WriteBatch.builder(LOG_TABLE, 0, 1, wider)
                        .append(Row.of(5L, "ok", null, null))
                        .append(Row.of(6L, "x", null, 7))
                        .build();
        assertThatThrownBy(() -> store.append(b))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("4 fields");
        assertNoTrace();
    }

    @Test
    void wrongTypeIsRejected() {
        // same arity and id, but the client encoded 'name' as INT: the row does not decode
        Schema wrong =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT().notNull())
                        .column("name", DataTypes.BIGINT())
                        .column("payload", DataTypes.BYTES())
                        .build();
        WriteBatch b =
                WriteBatch.builder(LOG_TABLE, 0, 1, wrong)
                        .append(Row.of(5L, 1L << 40, null))
                        .build();
        assertThatThrownBy(() -> store.append(b)).isInstanceOf(InvalidInputException.class);
        assertNoTrace();
    }

    @Test
    void nullInANotNullColumnIsRejectedEvenAfterGoodRows() {
        Schema lenient =
                Schema.newBuilder()
                        .column("k", DataTypes.INT())
                        .column("v", DataTypes.STRING())
                        .column("n", DataTypes.BIGINT())
                        .primaryKey("k")
                        .build();
        WriteBatch b =
                WriteBatch.builder(PK_TABLE, 0, 1, lenient)
                        .upsert(Row.of(2, "fine", 1L))
                        .upsert(Row.of(3, null, 1L))
                        .build();
        assertThatThrownBy(() -> store.append(b))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("record 1")
                .hasMessageContaining("'v'");
        assertNoTrace();
    }

    @Test
    void nullInTheKeyOfADeleteIsRejected() {
        Schema noKey =
                Schema.newBuilder()
                        .column("k", DataTypes.INT())
                        .column("v", DataTypes.STRING())
                        .column("n", DataTypes.BIGINT())
                        .build();
        // encoded by a client that lost the key: kind DELETE cannot be built for a log schema,
        // so build an upsert-free batch under a lenient PK schema with a nullable key
        WriteBatch b = rawDelete(noKey);
        assertThatThrownBy(() -> store.append(b))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("'k'");
        assertNoTrace();
    }

    /** A delete with a NULL key, encoded by hand (the builder would refuse it). */
    private static WriteBatch rawDelete(Schema schema) {
        dev.tributary.common.io.BinaryWriter w = new dev.tributary.common.io.BinaryWriter();
        w.writeByte(WriteBatch.MAGIC_V1); // as a client before T42 encoded it
        w.writeLong(PK_TABLE);
        w.writeInt(0);
        w.writeInt(1);
        w.writeInt(1);
        w.writeByte(dev.tributary.common.record.WriteKind.DELETE.toByteValue());
        dev.tributary.common.row.RowCodec.of(schema).encode(Row.of(null, null, null), w);
        return WriteBatch.fromBytes(w.toByteArray());
    }

    @Test
    void kindsThatDoNotFitTheTableAreRejected() {
        WriteBatch upsertToLog =
                rawKind(
                        LOG_TABLE,
                        dev.tributary.common.record.WriteKind.UPSERT,
                        LOG_SCHEMA,
                        Row.of(3L, "x", null));
        assertThatThrownBy(() -> store.append(upsertToLog))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("log table");
        WriteBatch appendToPk =
                rawKind(
                        PK_TABLE,
                        dev.tributary.common.record.WriteKind.APPEND,
                        PK_SCHEMA,
                        Row.of(3, "x", null));
        assertThatThrownBy(() -> store.append(appendToPk))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("primary key");
        assertNoTrace();
    }

    private static WriteBatch rawKind(
            long table, dev.tributary.common.record.WriteKind kind, Schema schema, Row row) {
        dev.tributary.common.io.BinaryWriter w = new dev.tributary.common.io.BinaryWriter();
        w.writeByte(WriteBatch.MAGIC_V1); // as a client before T42 encoded it
        w.writeLong(table);
        w.writeInt(0);
        w.writeInt(1);
        w.writeInt(1);
        w.writeByte(kind.toByteValue());
        dev.tributary.common.row.RowCodec.of(schema).encode(row, w);
        return WriteBatch.fromBytes(w.toByteArray());
    }

    @Test
    void unknownBucketAndTableAreRejected() {
        WriteBatch b =
                WriteBatch.builder(LOG_TABLE, 2, 1, LOG_SCHEMA)
                        .append(Row.of(3L, "x", null))
                        .build();
        assertThatThrownBy(() -> store.append(b))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("bucket 2 does not exist")
                .hasMessageContaining("2 buckets");
        WriteBatch c =
                WriteBatch.builder(99, 0, 1, LOG_SCHEMA).append(Row.of(3L, "x", null)).build();
        assertThatThrownBy(() -> store.append(c))
                .isInstanceOf(NotFoundException.class)
                .hasMessageContaining("table id 99");
        assertThatThrownBy(() -> store.read(new TableBucket(LOG_TABLE, 5), 0, 100))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> store.lookup(PK_BUCKET, Row.of("not-an-int")))
                .isInstanceOf(InvalidInputException.class);
        assertNoTrace();
    }

    /** The first key from {@code from} that the table's bucket function puts in {@code bucket}. */
    private static int keyInBucket(int bucket, int from) {
        BucketRouter router =
                BucketRouter.of(TableDescriptor.builder(PK_SCHEMA).bucketCount(2).build());
        int key = from;
        while (router.bucketOf(Row.of(key, null, null)) != bucket) {
            key++;
        }
        return key;
    }

    @Test
    void aKeyInTheWrongBucketIsRejected() {
        int k = keyInBucket(1, 2);
        WriteBatch misrouted =
                WriteBatch.builder(PK_TABLE, 0, 1, PK_SCHEMA).upsert(Row.of(k, "x", 2L)).build();
        assertThatThrownBy(() -> store.append(misrouted))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("belongs to bucket 1")
                .hasMessageContaining("not to bucket 0");
        WriteBatch misroutedDelete =
                WriteBatch.builder(PK_TABLE, 0, 1, PK_SCHEMA).delete(Row.of(k, null, null)).build();
        assertThatThrownBy(() -> store.append(misroutedDelete))
                .isInstanceOf(InvalidInputException.class);
        assertNoTrace();
    }

    @Test
    void deletingAMissingKeyWritesNothing() {
        AppendResult r =
                store.append(
                                WriteBatch.builder(PK_TABLE, 0, 1, PK_SCHEMA)
                                        .delete(Row.of(keyInBucket(0, 42), null, null))
                                        .build())
                        .join();
        assertThat(r.recordCount()).isZero();
        assertThat(r.baseOffset()).isEqualTo(1);
        assertThat(r.absentDeletes()).containsExactly(0);
        assertNoTrace();
    }

    @Test
    void theDeletesThatFoundNoRowAreReportedByTheirIndexInTheBatch() {
        int a = keyInBucket(0, 100);
        int b = keyInBucket(0, a + 1);
        int c = keyInBucket(0, b + 1);
        AppendResult r =
                store.append(
                                WriteBatch.builder(PK_TABLE, 0, 1, PK_SCHEMA)
                                        .upsert(Row.of(a, "x", 1L))
                                        .delete(Row.of(b, null, null)) // never written
                                        .delete(Row.of(a, null, null)) // upserted just before
                                        .delete(Row.of(a, null, null)) // deleted just before
                                        .delete(Row.of(c, null, null)) // never written
                                        .build())
                        .join();
        assertThat(r.absentDeletes()).containsExactly(1, 3, 4);
        // +I of a, -D of a
        assertThat(r.recordCount()).isEqualTo(2);
    }
}
