package dev.tributary.common.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class LogBatchTest {
    private static final Schema V1 =
            Schema.newBuilder()
                    .column("k", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("k")
                    .build();

    private static byte[] batch(long base, ChangeType[] types, long[] ts, Row[] rows, Schema s) {
        LogBatchBuilder b = new LogBatchBuilder(4, 64);
        RowCodec codec = RowCodec.of(s);
        for (int i = 0; i < rows.length; i++) {
            b.add(types[i], ts[i], rows[i], codec);
        }
        byte[] out = b.build();
        assertThat(out).hasSize(b.sizeInBytes());
        LogBatch.setBaseOffset(out, 0, base);
        return out;
    }

    @Test
    void recordsRoundTripWithOffsetsTimestampsAndChangeTypes() {
        ChangeType[] types = {
            ChangeType.INSERT, ChangeType.UPDATE_BEFORE, ChangeType.UPDATE_AFTER, ChangeType.DELETE
        };
        long[] ts = {1000, 1000, 1003, 999};
        Row[] rows = {Row.of(1, "a"), Row.of(1, "a"), Row.of(1, "b"), Row.of(1, null)};
        byte[] bytes = batch(100, types, ts, rows, V1);

        LogBatch b = LogBatch.wrap(bytes, 0, bytes.length);
        b.ensureValid();
        assertThat(b.baseOffset()).isEqualTo(100);
        assertThat(b.lastOffset()).isEqualTo(103);
        assertThat(b.nextOffset()).isEqualTo(104);
        assertThat(b.recordCount()).isEqualTo(4);
        assertThat(b.schemaId()).isEqualTo(4);
        assertThat(b.firstTimestamp()).isEqualTo(1000);
        assertThat(b.lastTimestamp()).isEqualTo(999);
        List<LogRecord> records = new ArrayList<>();
        b.records(V1).forEach(records::add);
        assertThat(records)
                .containsExactly(
                        new LogRecord(100, 1000, ChangeType.INSERT, rows[0]),
                        new LogRecord(101, 1000, ChangeType.UPDATE_BEFORE, rows[1]),
                        new LogRecord(102, 1003, ChangeType.UPDATE_AFTER, rows[2]),
                        new LogRecord(103, 999, ChangeType.DELETE, rows[3]));
    }

    @Test
    void checksumIsCrc32cOfEverythingAfterTheCrcField() {
        byte[] bytes =
                batch(
                        0,
                        new ChangeType[] {ChangeType.APPEND_ONLY},
                        new long[] {5},
                        new Row[] {Row.of(1, "x")},
                        V1);
        CRC32C crc = new CRC32C();
        crc.update(bytes, 17, bytes.length - 17);
        assertThat(LogBatch.wrap(bytes, 0, bytes.length).checksum()).isEqualTo(crc.getValue());
    }

    @Test
    void baseOffsetIsOutsideTheChecksumButEveryOtherByteIsCovered() {
        byte[] bytes =
                batch(
                        0,
                        new ChangeType[] {ChangeType.APPEND_ONLY, ChangeType.APPEND_ONLY},
                        new long[] {5, 6},
                        new Row[] {Row.of(1, "x"), Row.of(2, "y")},
                        V1);
        LogBatch.setBaseOffset(bytes, 0, 42);
        assertThat(LogBatch.wrap(bytes, 0, bytes.length).isValid()).isTrue();
        for (int i = 12; i < bytes.length; i++) {
            byte[] flipped = bytes.clone();
            flipped[i] ^= 0x10;
            assertThatThrownBy(() -> LogBatch.wrap(flipped, 0, flipped.length).ensureValid())
                    .as("flip at byte %d", i)
                    .isInstanceOf(CorruptDataException.class);
        }
    }

    @Test
    void rowsOfAnOlderSchemaReadWithNullInAddedColumns() {
        byte[] bytes =
                batch(
                        0,
                        new ChangeType[] {ChangeType.INSERT},
                        new long[] {1},
                        new Row[] {Row.of(1, "a")},
                        V1);
        Schema v2 = V1.addColumn(new Column("extra", DataTypes.BIGINT()));
        LogRecord r = LogBatch.wrap(bytes, 0, bytes.length).records(v2).iterator().next();
        assertThat(r.row()).isEqualTo(Row.of(1, "a", null));
    }

    @Test
    void batchesSplitBackOutOfAConcatenation() throws Exception {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (int i = 0; i < 3; i++) {
            all.write(
                    batch(
                            i * 2L,
                            new ChangeType[] {ChangeType.APPEND_ONLY, ChangeType.APPEND_ONLY},
                            new long[] {i, i},
                            new Row[] {Row.of(i, "a"), Row.of(i, "b")},
                            V1));
        }
        byte[] bytes = all.toByteArray();
        List<Long> bases = new ArrayList<>();
        for (LogBatch b : LogBatches.of(bytes)) {
            b.ensureValid();
            bases.add(b.baseOffset());
        }
        assertThat(bases).containsExactly(0L, 2L, 4L);

        Iterable<LogBatch> cut = LogBatches.of(bytes, 0, bytes.length - 3);
        assertThatThrownBy(() -> cut.forEach(LogBatch::ensureValid))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("truncated");
    }

    @Test
    void anEmptyBatchCannotBeBuilt() {
        assertThatThrownBy(() -> new LogBatchBuilder(0, 0).build())
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void t42_writerFieldsAreCheckedAndRead() {
        LogBatchBuilder b = new LogBatchBuilder(4, 64).writer(77L, 5);
        b.add(ChangeType.APPEND_ONLY, 10, Row.of(1, "a"), RowCodec.of(V1));
        byte[] bytes = b.build();
        LogBatch batch = LogBatch.wrap(bytes, 0, bytes.length);
        batch.ensureValid();
        assertThat(batch.magic()).isEqualTo(LogBatch.MAGIC);
        assertThat(batch.writerId()).isEqualTo(77L);
        assertThat(batch.writerSequence()).isEqualTo(5);
        bytes[LogBatch.WRITER_SEQUENCE_POS] ^= 1;
        assertThatThrownBy(batch::ensureValid)
                .as("the writer fields are under the checksum")
                .isInstanceOf(CorruptDataException.class);
    }

    @Test
    void t42_version1BatchesReadWithoutWriter() {
        byte[] v2 =
                batch(
                        40,
                        new ChangeType[] {ChangeType.INSERT, ChangeType.DELETE},
                        new long[] {5, 6},
                        new Row[] {Row.of(1, "a"), Row.of(1, "a")},
                        V1);
        // version 1: no writer fields, checksum over the rest
        byte[] v1 = new byte[v2.length - 16];
        System.arraycopy(v2, 0, v1, 0, LogBatch.MIN_HEADER_SIZE);
        System.arraycopy(
                v2,
                LogBatch.HEADER_SIZE,
                v1,
                LogBatch.MIN_HEADER_SIZE,
                v2.length - LogBatch.HEADER_SIZE);
        v1[LogBatch.MAGIC_POS] = LogBatch.MAGIC_V1;
        LogBatch.writeInt(v1, LogBatch.LENGTH_POS, v1.length - LogBatch.LOG_OVERHEAD);
        CRC32C crc = new CRC32C();
        crc.update(v1, LogBatch.CRC_START, v1.length - LogBatch.CRC_START);
        LogBatch.writeInt(v1, LogBatch.CRC_POS, (int) crc.getValue());

        LogBatch b = LogBatch.wrap(v1, 0, v1.length);
        b.ensureValid();
        assertThat(b.sizeInBytes()).isEqualTo(v1.length);
        assertThat(b.writerId()).isZero();
        assertThat(b.writerSequence()).isEqualTo(-1);
        List<LogRecord> records = new ArrayList<>();
        b.records(V1).forEach(records::add);
        assertThat(records)
                .extracting(LogRecord::changeType)
                .containsExactly(ChangeType.INSERT, ChangeType.DELETE);
        assertThat(records).extracting(LogRecord::offset).containsExactly(40L, 41L);
        assertThat(records).extracting(LogRecord::timestamp).containsExactly(5L, 6L);
    }
}
