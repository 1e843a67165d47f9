package dev.tributary.common.row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RowCodecTest {
    static final Schema ALL_TYPES =
            Schema.newBuilder()
                    .column("b", DataTypes.BOOLEAN())
                    .column("i8", DataTypes.TINYINT())
                    .column("i16", DataTypes.SMALLINT())
                    .column("i32", DataTypes.INT())
                    .column("i64", DataTypes.BIGINT().notNull())
                    .column("f", DataTypes.FLOAT())
                    .column("d", DataTypes.DOUBLE())
                    .column("dec", DataTypes.DECIMAL(10, 3))
                    .column("bigdec", DataTypes.DECIMAL(38, 5))
                    .column("s", DataTypes.STRING())
                    .column("bytes", DataTypes.BYTES())
                    .column("date", DataTypes.DATE())
                    .column("time", DataTypes.TIME())
                    .column("ts0", DataTypes.TIMESTAMP(0))
                    .column("ts9", DataTypes.TIMESTAMP(9))
                    .column("ltz3", DataTypes.TIMESTAMP_LTZ(3))
                    .column("ltz6", DataTypes.TIMESTAMP_LTZ(6))
                    .build();

    @Test
    void roundTripsEveryTypeIncludingExtremes() {
        RowCodec codec = RowCodec.of(ALL_TYPES);
        Row row =
                Row.of(
                        true,
                        Byte.MIN_VALUE,
                        Short.MAX_VALUE,
                        Integer.MIN_VALUE,
                        Long.MAX_VALUE,
                        Float.NaN,
                        -0.0d,
                        new BigDecimal("-9999999.999"),
                        new BigDecimal("123456789012345678901234567890123.12345"),
                        "héllo \u0000 ✓",
                        new byte[] {0, -1, 7},
                        LocalDate.of(-1, 12, 31),
                        LocalTime.of(23, 59, 59, 999_000_000),
                        LocalDateTime.of(1969, 12, 31, 23, 59, 59),
                        LocalDateTime.of(2262, 4, 11, 23, 47, 16, 854_775_807),
                        Instant.ofEpochMilli(-1),
                        Instant.ofEpochSecond(-5, 123_456_000));
        ALL_TYPES.validate(row);
        assertThat(codec.decode(codec.encode(row))).isEqualTo(row);
    }

    @Test
    void roundTripsNullsAndRandomRows() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        RowCodec codec = RowCodec.of(ALL_TYPES);
        for (int n = 0; n < 2_000; n++) {
            Row row = randomRow(random);
            ALL_TYPES.validate(row);
            assertThat(codec.decode(codec.encode(row)))
                    .as("seed %d row %s", seed, row)
                    .isEqualTo(row);
        }
    }

    @Test
    void rowsWrittenBeforeAnAddedColumnReadBackWithNull() {
        Schema v1 =
                Schema.newBuilder()
                        .column("id", DataTypes.INT())
                        .column("s", DataTypes.STRING())
                        .build();
        Schema v2 = v1.addColumn(new Column("extra", DataTypes.BIGINT()));
        byte[] old = RowCodec.of(v1).encode(Row.of(1, "a"));
        assertThat(RowCodec.of(v2).decode(old)).isEqualTo(Row.of(1, "a", null));
        // and a row of the newer schema cannot be read as the older one
        byte[] newer = RowCodec.of(v2).encode(Row.of(1, "a", 5L));
        assertThatThrownBy(() -> RowCodec.of(v1).decode(newer))
                .isInstanceOf(CorruptDataException.class);
    }

    @Test
    void truncatedBytesAreReportedAsCorrupt() {
        RowCodec codec = RowCodec.of(ALL_TYPES);
        byte[] full = codec.encode(randomRow(new Random(1)));
        byte[] cut = Arrays.copyOf(full, full.length - 3);
        assertThatThrownBy(() -> codec.decode(cut)).isInstanceOf(CorruptDataException.class);
    }

    @Test
    void bucketFunctionIsStableAndSpreadsKeys() {
        Schema s =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("v", DataTypes.STRING())
                        .primaryKey("id")
                        .build();
        BucketFunction f = BucketFunction.of(BucketFunctionType.TRIBUTARY, s, s.primaryKey(), 16);
        // pinned values: clients and servers of every version must agree
        assertThat(f.bucketOf(Row.of(0L, "x"))).isEqualTo(f.bucketOf(Row.of(0L, "other")));
        assertThat(Murmur3.hash32(new byte[0], 0)).isZero();
        assertThat(Murmur3.hash32("hello".getBytes(), 0)).isEqualTo(0x248bfa47);
        int[] counts = new int[16];
        for (long id = 0; id < 16_000; id++) {
            counts[f.bucketOf(Row.of(id, null))]++;
        }
        assertThat(java.util.Arrays.stream(counts).boxed().toList())
                .allSatisfy(c -> assertThat(c).isBetween(800, 1200));
    }

    static Row randomRow(Random r) {
        Object[] v = new Object[ALL_TYPES.fieldCount()];
        v[0] = r.nextBoolean();
        v[1] = (byte) r.nextInt();
        v[2] = (short) r.nextInt();
        v[3] = r.nextInt();
        v[4] = r.nextLong();
        v[5] = r.nextFloat();
        v[6] = r.nextDouble();
        v[7] = BigDecimal.valueOf(r.nextInt(2_000_000_000) - 1_000_000_000L, 3);
        v[8] = new BigDecimal(new BigInteger(120, r), 5);
        v[9] = Long.toString(r.nextLong(), 36);
        byte[] bytes = new byte[r.nextInt(20)];
        r.nextBytes(bytes);
        v[10] = bytes;
        v[11] = LocalDate.ofEpochDay(r.nextInt(200_000) - 100_000);
        v[12] = LocalTime.ofNanoOfDay((r.nextInt(86_400_000)) * 1_000_000L);
        v[13] = LocalDateTime.ofEpochSecond(r.nextInt(), 0, ZoneOffset.UTC);
        v[14] = LocalDateTime.ofEpochSecond(r.nextInt(), r.nextInt(1_000_000_000), ZoneOffset.UTC);
        v[15] = Instant.ofEpochMilli(r.nextLong() >> 20);
        v[16] = Instant.ofEpochSecond(r.nextInt(), r.nextInt(1_000_000) * 1000L);
        for (int i = 0; i < v.length; i++) {
            if (i != 4 && r.nextInt(5) == 0) {
                v[i] = null;
            }
        }
        return Row.wrap(v);
    }
}
