package dev.tributary.common.row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class EncodedRowTest {
    private final RowCodec codec = RowCodec.of(RowCodecTest.ALL_TYPES);

    @Test
    void typedGettersReadWhatTheCodecWroteWithoutDecodingTheRow() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        EncodedRow view = codec.view();
        // several rows back to back in one buffer, as a log batch holds them
        byte[][] encoded = new byte[500][];
        Row[] rows = new Row[encoded.length];
        int total = 0;
        for (int n = 0; n < rows.length; n++) {
            rows[n] = RowCodecTest.randomRow(random);
            encoded[n] = codec.encode(rows[n]);
            total += encoded[n].length;
        }
        byte[] buf = new byte[total + 3];
        int pos = 3;
        for (byte[] e : encoded) {
            System.arraycopy(e, 0, buf, pos, e.length);
            pos += e.length;
        }
        pos = 3;
        for (int n = 0; n < rows.length; n++) {
            view.pointTo(buf, pos, encoded[n].length);
            pos += encoded[n].length;
            Row row = rows[n];
            String as = "seed " + seed + " row " + row;
            assertThat(view.toRow()).as(as).isEqualTo(row);
            for (int i = 0; i < row.arity(); i++) {
                assertThat(view.isNullAt(i)).as(as).isEqualTo(row.isNullAt(i));
                if (!row.isNullAt(i)) {
                    assertThat(typed(view, i)).as("%s field %d", as, i).isEqualTo(row.getField(i));
                }
            }
        }
    }

    /** Rebuilds a field's Java value from the typed getters only. */
    private static Object typed(EncodedRow v, int i) {
        return switch (RowCodecTest.ALL_TYPES.typeAt(i).root()) {
            case BOOLEAN -> v.getBoolean(i);
            case TINYINT -> v.getByte(i);
            case SMALLINT -> v.getShort(i);
            case INT -> v.getInt(i);
            case BIGINT -> v.getLong(i);
            case FLOAT -> v.getFloat(i);
            case DOUBLE -> v.getDouble(i);
            case DECIMAL ->
                    RowCodecTest.ALL_TYPES.typeAt(i).precision() <= 18
                            ? BigDecimal.valueOf(v.getUnscaledLong(i), 3)
                            : v.getDecimal(i);
            case STRING ->
                    new String(
                            v.buffer(), v.utf8Offset(i), v.utf8Length(i), StandardCharsets.UTF_8);
            case BYTES ->
                    Arrays.copyOfRange(
                            v.buffer(), v.utf8Offset(i), v.utf8Offset(i) + v.utf8Length(i));
            case DATE -> LocalDate.ofEpochDay(v.getEpochDay(i));
            case TIME -> LocalTime.ofNanoOfDay(v.getMillisOfDay(i) * 1_000_000L);
            case TIMESTAMP -> {
                Instant t =
                        Instant.ofEpochMilli(v.getEpochMillis(i))
                                .plusNanos(v.getNanoOfMillisecond(i));
                yield LocalDateTime.ofEpochSecond(t.getEpochSecond(), t.getNano(), ZoneOffset.UTC);
            }
            case TIMESTAMP_LTZ ->
                    Instant.ofEpochMilli(v.getEpochMillis(i)).plusNanos(v.getNanoOfMillisecond(i));
        };
    }

    @Test
    void columnsAddedAfterTheRowWasWrittenReadAsNull() {
        Schema v1 =
                Schema.newBuilder()
                        .column("id", DataTypes.INT())
                        .column("s", DataTypes.STRING())
                        .build();
        Schema v2 = v1.addColumn(new Column("extra", DataTypes.BIGINT()));
        byte[] old = RowCodec.of(v1).encode(Row.of(7, "a"));
        EncodedRow view = RowCodec.of(v2).view().pointTo(old, 0, old.length);
        assertThat(view.arity()).isEqualTo(3);
        assertThat(view.encodedFields()).isEqualTo(2);
        assertThat(view.getInt(0)).isEqualTo(7);
        assertThat(view.isNullAt(2)).isTrue();
        assertThat(view.toRow()).isEqualTo(Row.of(7, "a", null));
        // a view reused for a full row forgets the previous row's absent fields
        byte[] full = RowCodec.of(v2).encode(Row.of(8, null, 9L));
        view.pointTo(full, 0, full.length);
        assertThat(view.isNullAt(1)).isTrue();
        assertThat(view.getLong(2)).isEqualTo(9L);
    }

    @Test
    void truncatedOrForeignBytesAreCorrupt() {
        byte[] full = codec.encode(RowCodecTest.randomRow(new Random(3)));
        EncodedRow view = codec.view();
        assertThatThrownBy(() -> view.pointTo(full, 0, full.length - 3))
                .isInstanceOf(CorruptDataException.class);
        Schema narrow = Schema.newBuilder().column("id", DataTypes.INT()).build();
        assertThatThrownBy(() -> RowCodec.of(narrow).view().pointTo(full, 0, full.length))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("more than the 1 of its schema");
    }
}
