package dev.tributary.common.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class WriteBatchTest {
    private static final Schema LOG =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT().notNull())
                    .column("name", DataTypes.STRING())
                    .column("price", DataTypes.DECIMAL(10, 2))
                    .column("at", DataTypes.TIMESTAMP_LTZ(3))
                    .build();
    private static final Schema PK =
            Schema.newBuilder()
                    .column("k", DataTypes.INT())
                    .column("v", DataTypes.STRING().notNull())
                    .primaryKey("k")
                    .build();

    @Test
    void appendBatchRoundTripsThroughBytes() {
        Row r1 = Row.of(1L, "a", new BigDecimal("1.50"), Instant.ofEpochMilli(1000));
        Row r2 = Row.of(2L, null, null, null);
        WriteBatch built = WriteBatch.builder(7, 3, 2, LOG).append(r1).append(r2).build();

        WriteBatch read = WriteBatch.fromBytes(built.toBytes().clone());

        assertThat(read.tableId()).isEqualTo(7);
        assertThat(read.bucket()).isEqualTo(3);
        assertThat(read.schemaId()).isEqualTo(2);
        assertThat(read.recordCount()).isEqualTo(2);
        assertThat(read.records(LOG))
                .containsExactly(
                        new WriteRecord(WriteKind.APPEND, r1),
                        new WriteRecord(WriteKind.APPEND, r2));
    }

    @Test
    void upsertsAndKeyOnlyDeletesRoundTrip() {
        WriteBatch b =
                WriteBatch.builder(1, 0, 0, PK)
                        .upsert(Row.of(1, "x"))
                        .delete(Row.of(2, null))
                        .upsert(Row.of(1, "y"))
                        .build();
        List<WriteRecord> records = WriteBatch.fromBytes(b.toBytes()).records(PK);
        assertThat(records)
                .extracting(WriteRecord::kind)
                .containsExactly(WriteKind.UPSERT, WriteKind.DELETE, WriteKind.UPSERT);
        assertThat(records.get(1).row()).isEqualTo(Row.of(2, null));
    }

    @Test
    void readerExposesTheRowEncoding() {
        Row r = Row.of(5L, "five", null, null);
        WriteBatch b = WriteBatch.builder(1, 0, 0, LOG).append(r).build();
        WriteBatch.Reader reader = b.reader(LOG);
        assertThat(reader.next()).isTrue();
        byte[] enc =
                Arrays.copyOfRange(
                        reader.rowBuffer(),
                        reader.rowOffset(),
                        reader.rowOffset() + reader.rowLength());
        assertThat(dev.tributary.common.row.RowCodec.of(LOG).decode(enc)).isEqualTo(r);
        assertThat(reader.next()).isFalse();
    }

    @Test
    void builderRejectsBadRowsNamingTheProblem() {
        WriteBatchBuilder b = WriteBatch.builder(1, 0, 0, LOG);
        assertThatThrownBy(() -> b.append(Row.of(null, "a", null, null)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("'id'");
        assertThatThrownBy(() -> b.append(Row.of(1L, "a", null)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("3 fields");
        assertThatThrownBy(() -> b.append(Row.of(1, "a", null, null)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("BIGINT");
        assertThatThrownBy(() -> b.upsert(Row.of(1L, "a", null, null)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("log table");
        WriteBatchBuilder pk = WriteBatch.builder(1, 0, 0, PK);
        assertThatThrownBy(() -> pk.append(Row.of(1, "a")))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("primary key");
        assertThatThrownBy(() -> pk.delete(Row.of(null, "a")))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("'k'");
        assertThat(b.recordCount()).isZero();
    }

    @Test
    void readerRechecksRowsAgainstTheServersSchema() {
        // a client that thinks 'v' is nullable encodes a NULL the table does not allow
        Schema lenient =
                Schema.newBuilder()
                        .column("k", DataTypes.INT())
                        .column("v", DataTypes.STRING())
                        .primaryKey("k")
                        .build();
        WriteBatch b = WriteBatch.builder(1, 0, 0, lenient).upsert(Row.of(1, null)).build();
        assertThatThrownBy(() -> WriteBatch.fromBytes(b.toBytes()).records(PK))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("record 0")
                .hasMessageContaining("'v'");
    }

    @Test
    void readerRejectsWrongFieldCount() {
        Schema wider = LOG.addColumn(new dev.tributary.common.types.Column("x", DataTypes.INT()));
        WriteBatch b =
                WriteBatch.builder(1, 0, 0, wider).append(Row.of(1L, "a", null, null, 3)).build();
        assertThatThrownBy(() -> b.records(LOG))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("5 fields");
    }

    @Test
    void malformedBytesAreInvalidInput() {
        assertThatThrownBy(() -> WriteBatch.fromBytes(new byte[3]))
                .isInstanceOf(InvalidInputException.class);
        byte[] bytes =
                WriteBatch.builder(1, 0, 0, LOG)
                        .append(Row.of(1L, "abc", null, null))
                        .build()
                        .toBytes();
        byte[] cut = Arrays.copyOf(bytes, bytes.length - 2);
        assertThatThrownBy(() -> WriteBatch.fromBytes(cut).records(LOG))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("malformed");
        byte[] extra = Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> WriteBatch.fromBytes(extra).records(LOG))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("after the last");
        byte[] badMagic = bytes.clone();
        badMagic[0] = 9;
        assertThatThrownBy(() -> WriteBatch.fromBytes(badMagic))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("version");
    }

    @Test
    void t42_writerIdAndSequenceTravelInTheHeader() {
        WriteBatch b =
                WriteBatch.builder(7, 3, 2, LOG)
                        .append(Row.of(1L, "a", null, null))
                        .writer(-99L, 12)
                        .build();
        WriteBatch read = WriteBatch.fromBytes(b.toBytes());
        assertThat(read.version()).isEqualTo(WriteBatch.MAGIC);
        assertThat(read.writerId()).isEqualTo(-99L);
        assertThat(read.sequence()).isEqualTo(12);
        assertThat(read.records(LOG)).hasSize(1);
        WriteBatch none = WriteBatch.builder(7, 3, 2, LOG).build();
        assertThat(WriteBatch.fromBytes(none.toBytes()).writerId()).isEqualTo(WriteBatch.NO_WRITER);
        assertThat(WriteBatch.fromBytes(none.toBytes()).sequence())
                .isEqualTo(WriteBatch.NO_SEQUENCE);
        assertThatThrownBy(() -> WriteBatch.builder(7, 3, 2, LOG).writer(0, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WriteBatch.builder(7, 3, 2, LOG).writer(5, -1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void t42_version1BatchesOfOlderClientsAreStillReadWithoutAWriter() {
        WriteBatch v2 =
                WriteBatch.builder(7, 3, 2, LOG)
                        .append(Row.of(1L, "a", null, null))
                        .append(Row.of(2L, "b", null, null))
                        .build();
        byte[] bytes = v2.toBytes();
        // version 1: the same header without the 16 writer bytes
        byte[] v1 = new byte[bytes.length - 16];
        System.arraycopy(bytes, 0, v1, 0, 21);
        System.arraycopy(bytes, 37, v1, 21, bytes.length - 37);
        v1[0] = WriteBatch.MAGIC_V1;

        WriteBatch read = WriteBatch.fromBytes(v1);
        assertThat(read.version()).isEqualTo(WriteBatch.MAGIC_V1);
        assertThat(read.tableId()).isEqualTo(7);
        assertThat(read.bucket()).isEqualTo(3);
        assertThat(read.schemaId()).isEqualTo(2);
        assertThat(read.writerId()).isEqualTo(WriteBatch.NO_WRITER);
        assertThat(read.sequence()).isEqualTo(WriteBatch.NO_SEQUENCE);
        assertThat(read.records(LOG)).isEqualTo(v2.records(LOG));
    }

    @Test
    void t42_inconsistentWriterFieldsAreInvalidInput() {
        byte[] bytes = WriteBatch.builder(7, 3, 2, LOG).writer(5, 0).build().toBytes();
        byte[] negative = bytes.clone();
        java.nio.ByteBuffer.wrap(negative)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                .putLong(29, -3); // the sequence
        assertThatThrownBy(() -> WriteBatch.fromBytes(negative))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("sequence -3");
        byte[] shortV2 = Arrays.copyOf(bytes, 30);
        assertThatThrownBy(() -> WriteBatch.fromBytes(shortV2))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("header");
    }
}
