package dev.tributary.common.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** RowLayout must agree with RowCodec on every type: same row ends, same key bytes. */
class RowLayoutTest {
    private static final Schema ALL =
            Schema.newBuilder()
                    .column("b", DataTypes.BOOLEAN())
                    .column("t", DataTypes.TINYINT())
                    .column("s", DataTypes.SMALLINT())
                    .column("i", DataTypes.INT())
                    .column("l", DataTypes.BIGINT())
                    .column("f", DataTypes.FLOAT())
                    .column("d", DataTypes.DOUBLE())
                    .column("dec", DataTypes.DECIMAL(10, 2))
                    .column("bigdec", DataTypes.DECIMAL(30, 5))
                    .column("str", DataTypes.STRING())
                    .column("bin", DataTypes.BYTES())
                    .column("date", DataTypes.DATE())
                    .column("time", DataTypes.TIME())
                    .column("ts0", DataTypes.TIMESTAMP(0))
                    .column("ts6", DataTypes.TIMESTAMP(6))
                    .column("ltz3", DataTypes.TIMESTAMP_LTZ(3))
                    .column("ltz9", DataTypes.TIMESTAMP_LTZ(9))
                    .primaryKey("str", "i", "dec", "ts6")
                    .build();

    private static Row randomRow(Random r, boolean nulls) {
        Object[] v = new Object[ALL.fieldCount()];
        v[0] = r.nextBoolean();
        v[1] = (byte) r.nextInt();
        v[2] = (short) r.nextInt();
        v[3] = r.nextInt();
        v[4] = r.nextLong();
        v[5] = r.nextFloat();
        v[6] = r.nextDouble();
        v[7] = BigDecimal.valueOf(r.nextInt(2_000_000_000) - 1_000_000_000L, 2);
        v[8] = new BigDecimal(new BigInteger(90, r), 5).negate();
        v[9] = "s" + r.nextInt() + "é€";
        byte[] bytes = new byte[r.nextInt(300)];
        r.nextBytes(bytes);
        v[10] = bytes;
        v[11] = LocalDate.ofEpochDay(r.nextInt(200_000) - 100_000);
        v[12] = LocalTime.ofNanoOfDay(r.nextInt(86_400_000) * 1_000_000L);
        v[13] = LocalDateTime.of(2020, 1, 1, 0, 0).plusSeconds(r.nextInt());
        v[14] = LocalDateTime.of(1960, 5, 5, 1, 2).plusNanos(r.nextInt(1_000_000) * 1000L);
        v[15] = Instant.ofEpochMilli(r.nextLong() >> 20);
        v[16] = Instant.ofEpochSecond(r.nextInt(), r.nextInt(1_000_000_000));
        if (nulls) {
            for (int i = 0; i < v.length; i++) {
                if (!ALL.primaryKey().contains(ALL.columns().get(i).name()) && r.nextInt(3) == 0) {
                    v[i] = null;
                }
            }
        }
        return Row.of(v);
    }

    @Test
    void agreesWithRowCodecOnEveryType() {
        long seed = new Random().nextLong();
        Random r = new Random(seed);
        RowCodec codec = RowCodec.of(ALL);
        List<DataType> keyTypes =
                Arrays.stream(ALL.primaryKeyIndexes()).mapToObj(ALL::typeAt).toList();
        RowCodec keyCodec = new RowCodec(keyTypes);
        RowLayout layout = new RowLayout(ALL);
        for (int n = 0; n < 300; n++) {
            Row row = randomRow(r, n % 2 == 0);
            ALL.validate(row);
            BinaryWriter w = new BinaryWriter();
            w.writeByte(7); // rows sit inside larger buffers
            codec.encode(row, w);
            int rowEnd = w.position();
            w.writeByte(7);
            byte[] buf = w.toByteArray();
            assertThat(layout.check(buf, 1, buf.length, false))
                    .as("seed %d", seed)
                    .isEqualTo(rowEnd);
            BinaryWriter key = new BinaryWriter();
            layout.writeKey(buf, key);
            assertThat(key.toByteArray())
                    .as("seed %d", seed)
                    .isEqualTo(keyCodec.encode(row.project(ALL.primaryKeyIndexes())));
            // any projection, nullable columns included (bucket keys of log tables)
            int[] positions = {r.nextInt(ALL.fieldCount()), r.nextInt(ALL.fieldCount())};
            RowCodec projectionCodec =
                    new RowCodec(Arrays.stream(positions).mapToObj(ALL::typeAt).toList());
            BinaryWriter projection = new BinaryWriter();
            layout.writeProjection(buf, positions, projection);
            assertThat(projection.toByteArray())
                    .as("seed %d positions %s", seed, Arrays.toString(positions))
                    .isEqualTo(projectionCodec.encode(row.project(positions)));
        }
    }

    private static byte[] encode(Schema schema, Row row) {
        return RowCodec.of(schema).encode(row);
    }

    private static void assertRejected(Schema schema, Row row, String message) {
        byte[] bytes = encode(schema, row);
        assertThatThrownBy(() -> new RowLayout(schema).check(bytes, 0, bytes.length, false))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining(message);
        // and the object-level check agrees
        assertThatThrownBy(() -> schema.validate(row)).isInstanceOf(InvalidInputException.class);
    }

    private static Schema one(DataType type) {
        return Schema.of(List.of(new Column("c", type)), List.of());
    }

    @Test
    void rejectsWhatSchemaValidateRejects() {
        assertRejected(one(DataTypes.DECIMAL(5, 2)), Row.of(new BigDecimal("1234.50")), "digits");
        assertRejected(one(DataTypes.DECIMAL(5, 2)), Row.of(new BigDecimal("-1000.00")), "digits");
        assertRejected(
                one(DataTypes.DECIMAL(25, 0)),
                Row.of(new BigDecimal("12345678901234567890123456")),
                "digits");
        assertRejected(
                one(DataTypes.TIMESTAMP(0)),
                Row.of(LocalDateTime.of(2020, 1, 1, 0, 0, 0, 5_000_000)),
                "fractional");
        assertRejected(
                one(DataTypes.TIMESTAMP_LTZ(6)),
                Row.of(Instant.ofEpochSecond(5, 123_456_789)),
                "fractional");
        assertRejected(one(DataTypes.INT().notNull()), Row.of((Object) null), "NULL");
    }

    @Test
    void acceptsBoundaryValues() {
        Schema s = one(DataTypes.DECIMAL(5, 2));
        for (String v : new String[] {"999.99", "-999.99", "0.00", "0.01"}) {
            byte[] b = encode(s, Row.of(new BigDecimal(v)));
            assertThat(new RowLayout(s).check(b, 0, b.length, false)).isEqualTo(b.length);
        }
        Schema ts = one(DataTypes.TIMESTAMP(0));
        byte[] b = encode(ts, Row.of(LocalDateTime.of(1969, 12, 31, 23, 59, 59)));
        assertThat(new RowLayout(ts).check(b, 0, b.length, false)).isEqualTo(b.length);
    }

    @Test
    void rejectsTimesOutsideTheDay() {
        BinaryWriter w = new BinaryWriter();
        w.writeVarInt(1);
        w.writeByte(0);
        w.writeVarInt(86_400_000);
        byte[] b = w.toByteArray();
        assertThatThrownBy(() -> new RowLayout(one(DataTypes.TIME())).check(b, 0, b.length, false))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("out of range");
    }

    @Test
    void rejectsWrongFieldCountAndTruncation() {
        Schema two =
                Schema.of(
                        List.of(
                                new Column("a", DataTypes.INT()),
                                new Column("b", DataTypes.STRING())),
                        List.of());
        byte[] three = encode(ALL, randomRow(new Random(1), false));
        assertThatThrownBy(() -> new RowLayout(two).check(three, 0, three.length, false))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("17 fields");
        byte[] ok = encode(two, Row.of(1, "hello"));
        List<Integer> cuts = new ArrayList<>();
        for (int cut = 0; cut < ok.length; cut++) {
            int c = cut;
            assertThatThrownBy(() -> new RowLayout(two).check(ok, 0, c, false))
                    .as("cut at %d", c)
                    .isInstanceOf(InvalidInputException.class);
            cuts.add(cut);
        }
        assertThat(cuts).hasSize(ok.length);
    }

    @Test
    void deletesNeedOnlyTheKeyColumnsToBeSet() {
        Schema pk =
                Schema.newBuilder()
                        .column("k", DataTypes.INT())
                        .column("v", DataTypes.STRING().notNull())
                        .primaryKey("k")
                        .build();
        Schema lenient =
                Schema.of(
                        List.of(
                                new Column("k", DataTypes.INT()),
                                new Column("v", DataTypes.STRING())),
                        List.of());
        byte[] keyOnly = encode(lenient, Row.of(5, null));
        RowLayout layout = new RowLayout(pk);
        assertThat(layout.check(keyOnly, 0, keyOnly.length, true)).isEqualTo(keyOnly.length);
        assertThatThrownBy(() -> layout.check(keyOnly, 0, keyOnly.length, false))
                .hasMessageContaining("'v'");
        byte[] noKey = encode(lenient, Row.of(null, "x"));
        assertThatThrownBy(() -> layout.check(noKey, 0, noKey.length, true))
                .hasMessageContaining("'k'");
    }
}
