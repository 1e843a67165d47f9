package dev.tributary.common.row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The three bucket functions on their own. Equality with Paimon's and Iceberg's own functions is
 * proven in lake/paimon and lake/iceberg (they hold the formats); here: Tributary's hash is pinned
 * to the values it had before T36 (data on disk), Iceberg's against the spec's test vectors, and
 * every function gives the store's encoded-key path the same answer as the client's row path.
 */
class BucketFunctionTest {
    private static final Schema PINNED =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("name", DataTypes.STRING())
                    .column("d", DataTypes.DECIMAL(10, 2))
                    .primaryKey("id", "name")
                    .build();

    @Test
    void tributaryHashKeepsThePlacementOfDataWrittenBeforeT36() {
        // computed with the pre-T36 BucketFunction class (commit 65feb56)
        int[] expected = {
            1, 12, 7, 10, 3, 5, 3, 4, 12, 11, 3, 3, 14, 12, 13, 10, 15, 3, 7, 10, 1, 11, 4, 14, 9,
            6, 7, 0, 4, 2, 0, 13, 5, 2, 6
        };
        long[] ids = {0L, 1L, -1L, 42L, Long.MAX_VALUE, Long.MIN_VALUE, 123456789L};
        String[] names = {"", "a", "ünïcödé", "𝄞 clef", "customer-17"};
        TableDescriptor withoutProperty = TableDescriptor.builder(PINNED).bucketCount(16).build();
        BucketFunction f = BucketFunction.of(withoutProperty);
        assertThat(f.type()).isEqualTo(BucketFunctionType.TRIBUTARY);
        List<Integer> actual = new ArrayList<>();
        for (long id : ids) {
            for (String n : names) {
                actual.add(f.bucketOf(Row.of(id, n, null)));
            }
        }
        assertThat(actual)
                .containsExactly(java.util.Arrays.stream(expected).boxed().toArray(Integer[]::new));
    }

    @Test
    void murmur3MatchesTheReferenceImplementation() {
        assertThat(Murmur3.hash32(new byte[0], 0)).isZero();
        assertThat(Murmur3.hash32("hello".getBytes(StandardCharsets.UTF_8), 0))
                .isEqualTo(0x248bfa47);
        Random r = new Random(7);
        for (int i = 0; i < 1000; i++) {
            long v = r.nextLong();
            byte[] le = new byte[8];
            for (int b = 0; b < 8; b++) {
                le[b] = (byte) (v >>> (8 * b));
            }
            assertThat(Murmur3.hashLong(v, 0)).isEqualTo(Murmur3.hash32(le, 0));
        }
    }

    /** Appendix B of the Iceberg table spec: value -> hash (compared without the sign bit). */
    @Test
    void t36_icebergFunctionHashesTheSpecTestVectors() {
        assertThat(icebergHash(DataTypes.INT(), 34)).isEqualTo(2017239379 & Integer.MAX_VALUE);
        assertThat(icebergHash(DataTypes.BIGINT(), 34L)).isEqualTo(2017239379 & Integer.MAX_VALUE);
        assertThat(icebergHash(DataTypes.TINYINT(), (byte) 34))
                .isEqualTo(2017239379 & Integer.MAX_VALUE);
        assertThat(icebergHash(DataTypes.SMALLINT(), (short) 34))
                .isEqualTo(2017239379 & Integer.MAX_VALUE);
        assertThat(icebergHash(DataTypes.DECIMAL(4, 2), new BigDecimal("14.20")))
                .isEqualTo(-500754589 & Integer.MAX_VALUE);
        // the column's scale, not the value's, sets the unscaled value
        assertThat(icebergHash(DataTypes.DECIMAL(4, 2), new BigDecimal("14.2")))
                .isEqualTo(-500754589 & Integer.MAX_VALUE);
        assertThat(icebergHash(DataTypes.DATE(), LocalDate.of(2017, 11, 16)))
                .isEqualTo(-653330422 & Integer.MAX_VALUE);
        assertThat(icebergHash(DataTypes.TIME(), LocalTime.of(22, 31, 8)))
                .isEqualTo(-662762989 & Integer.MAX_VALUE);
        assertThat(icebergHash(DataTypes.TIMESTAMP(6), LocalDateTime.of(2017, 11, 16, 22, 31, 8)))
                .isEqualTo(-2047944441 & Integer.MAX_VALUE);
        assertThat(
                        icebergHash(
                                DataTypes.TIMESTAMP(6),
                                LocalDateTime.of(2017, 11, 16, 22, 31, 8, 1_000)))
                .isEqualTo(-1207196810 & Integer.MAX_VALUE);
        assertThat(
                        icebergHash(
                                DataTypes.TIMESTAMP_LTZ(6),
                                OffsetDateTime.parse("2017-11-16T14:31:08.000001-08:00")
                                        .toInstant()))
                .isEqualTo(-1207196810 & Integer.MAX_VALUE);
        assertThat(
                        icebergHash(
                                DataTypes.TIMESTAMP(9),
                                LocalDateTime.of(2017, 11, 16, 22, 31, 8, 1_001)))
                .isEqualTo(-1207196810 & Integer.MAX_VALUE);
        assertThat(
                        icebergHash(
                                DataTypes.TIMESTAMP_LTZ(9),
                                OffsetDateTime.parse("2017-11-16T14:31:08.000001001-08:00")
                                        .toInstant()))
                .isEqualTo(-1207196810 & Integer.MAX_VALUE);
        assertThat(icebergHash(DataTypes.STRING(), "iceberg"))
                .isEqualTo(1210000089 & Integer.MAX_VALUE);
        assertThat(icebergHash(DataTypes.BYTES(), new byte[] {0, 1, 2, 3}))
                .isEqualTo(-188683207 & Integer.MAX_VALUE);
    }

    /**
     * The hash without the sign bit, read through the bucket function: with N = MAX_VALUE the
     * remainder is the masked hash itself (the vectors are not MAX_VALUE).
     */
    private static int icebergHash(DataType type, Object value) {
        Schema s = Schema.newBuilder().column("k", type).build();
        int masked =
                BucketFunction.of(BucketFunctionType.ICEBERG, s, List.of("k"), Integer.MAX_VALUE)
                        .bucketOf(Row.of(value));
        return masked;
    }

    @Test
    void icebergFunctionKeepsNullKeysInBucketZero() {
        Schema s = Schema.newBuilder().column("k", DataTypes.STRING()).build();
        BucketFunction f = BucketFunction.of(BucketFunctionType.ICEBERG, s, List.of("k"), 7);
        assertThat(f.bucketOf(Row.of((Object) null))).isZero();
    }

    @Test
    void t36_icebergRefusesKeysItsTransformCannotBucketNamingTheColumnAndTheWayOut() {
        Schema s =
                Schema.newBuilder()
                        .column("a", DataTypes.INT())
                        .column("b", DataTypes.STRING())
                        .column("f", DataTypes.DOUBLE())
                        .primaryKey("a", "b")
                        .build();
        assertThatThrownBy(
                        () ->
                                BucketFunction.of(
                                        BucketFunctionType.ICEBERG, s, List.of("a", "b"), 4))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("[a, b]")
                .hasMessageContaining("exactly one column")
                .hasMessageContaining("table.bucket.function=tributary")
                .hasMessageContaining("--bucket-key");
        assertThatThrownBy(() -> BucketFunction.of(BucketFunctionType.ICEBERG, s, List.of("f"), 4))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("'f'")
                .hasMessageContaining("DOUBLE");
        // Paimon and Tributary bucket any key
        assertThat(BucketFunction.of(BucketFunctionType.PAIMON, s, List.of("a", "b"), 4))
                .isNotNull();
        assertThat(BucketFunctionType.PAIMON.unsupportedReason(s, List.of("f"))).isEmpty();
    }

    @Test
    void theTablePropertySelectsTheFunctionAndAbsentMeansTributary() {
        TableDescriptor.Builder b = TableDescriptor.builder(PINNED).bucketCount(3);
        assertThat(BucketFunction.of(b.build()).type()).isEqualTo(BucketFunctionType.TRIBUTARY);
        assertThat(BucketFunction.of(b.property("table.bucket.function", "paimon").build()).type())
                .isEqualTo(BucketFunctionType.PAIMON);
        assertThat(BucketFunctionType.of(b.property("table.bucket.function", "ICEBERG").build()))
                .isEqualTo(BucketFunctionType.ICEBERG);
        assertThatThrownBy(
                        () ->
                                BucketFunctionType.of(
                                        b.property("table.bucket.function", "murmur").build()))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("table.bucket.function")
                .hasMessageContaining("tributary, paimon, iceberg");
        assertThat(BucketFunctionType.forLakeFormat("paimon")).isEqualTo(BucketFunctionType.PAIMON);
        assertThat(BucketFunctionType.forLakeFormat("iceberg"))
                .isEqualTo(BucketFunctionType.ICEBERG);
        assertThatThrownBy(() -> BucketFunctionType.forLakeFormat("delta"))
                .isInstanceOf(InvalidInputException.class);
        assertThat(new Configuration().get(TableOptions.BUCKET_FUNCTION))
                .isEqualTo(BucketFunctionType.TRIBUTARY);
    }

    /**
     * The store checks a record's bucket on the key's encoded bytes; the client routes on the row.
     * Both must agree for every function and every type, NULLs included.
     */
    @Test
    void encodedKeyAndRowGiveTheSameBucketForEveryFunctionAndType() {
        long seed = new Random().nextLong();
        Random r = new Random(seed);
        Schema all = RowCodecTest.ALL_TYPES;
        for (int i = 0; i < all.fieldCount(); i++) {
            Column c = all.columns().get(i);
            for (BucketFunctionType type : BucketFunctionType.values()) {
                if (type.unsupportedReason(all, List.of(c.name())).isPresent()) {
                    continue;
                }
                int buckets = 1 + r.nextInt(64);
                BucketFunction f = BucketFunction.of(type, all, List.of(c.name()), buckets);
                RowCodec keyCodec = new RowCodec(List.of(c.type()));
                for (int n = 0; n < 200; n++) {
                    Row row = RowCodecTest.randomRow(r);
                    BinaryWriter w = new BinaryWriter(16);
                    keyCodec.encode(row.project(new int[] {i}), w);
                    int fromRow = f.bucketOf(row);
                    assertThat(fromRow)
                            .as("seed %s, %s over %s = %s", seed, type, c, row.getField(i))
                            .isBetween(0, buckets - 1)
                            .isEqualTo(f.bucketOfEncoded(w.buffer(), w.position()));
                }
            }
        }
    }

    @Test
    void lakeFunctionsSpreadKeysEvenly() {
        for (BucketFunctionType type : BucketFunctionType.values()) {
            BucketFunction f = BucketFunction.of(type, PINNED, List.of("id"), 16);
            int[] counts = new int[16];
            for (long id = 0; id < 16_000; id++) {
                counts[f.bucketOf(Row.of(id, "x", null))]++;
            }
            assertThat(java.util.Arrays.stream(counts).boxed().toList())
                    .as("%s", type)
                    .allSatisfy(c -> assertThat(c).isBetween(800, 1200));
        }
    }
}
