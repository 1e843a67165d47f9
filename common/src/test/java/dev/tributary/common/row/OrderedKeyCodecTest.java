package dev.tributary.common.row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.DataTypes;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class OrderedKeyCodecTest {
    private static final List<List<DataType>> KEYS =
            List.of(
                    List.of(DataTypes.BOOLEAN()),
                    List.of(DataTypes.TINYINT()),
                    List.of(DataTypes.SMALLINT()),
                    List.of(DataTypes.INT()),
                    List.of(DataTypes.BIGINT()),
                    List.of(DataTypes.STRING()),
                    List.of(DataTypes.BYTES()),
                    List.of(DataTypes.DATE()),
                    List.of(DataTypes.TIME()),
                    List.of(DataTypes.TIMESTAMP(3)),
                    List.of(DataTypes.TIMESTAMP(9)),
                    List.of(DataTypes.TIMESTAMP_LTZ(6)),
                    List.of(DataTypes.STRING(), DataTypes.INT()),
                    List.of(DataTypes.STRING(), DataTypes.STRING()),
                    List.of(DataTypes.BYTES(), DataTypes.STRING(), DataTypes.BIGINT()),
                    List.of(DataTypes.INT(), DataTypes.STRING(), DataTypes.BOOLEAN()));

    @Test
    void unsignedByteOrderIsTheValuesOrderForRandomKeys() {
        long seed = System.nanoTime();
        System.out.println("OrderedKeyCodecTest seed " + seed);
        Random random = new Random(seed);
        for (List<DataType> types : KEYS) {
            OrderedKeyCodec codec = OrderedKeyCodec.of(types);
            List<Row> keys = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                keys.add(randomKey(types, random));
            }
            Comparator<Row> byValue = byValue(types);
            for (int i = 0; i + 1 < keys.size(); i++) {
                Row a = keys.get(i);
                Row b = keys.get(i + 1);
                int expected = Integer.signum(byValue.compare(a, b));
                int actual =
                        Integer.signum(Arrays.compareUnsigned(codec.encode(a), codec.encode(b)));
                assertThat(actual)
                        .as("seed %d, types %s, %s vs %s", seed, types, show(a), show(b))
                        .isEqualTo(expected);
            }
            List<Row> byBytes = new ArrayList<>(keys);
            byBytes.sort((x, y) -> Arrays.compareUnsigned(codec.encode(x), codec.encode(y)));
            List<Row> sorted = new ArrayList<>(keys);
            sorted.sort(byValue);
            for (int i = 0; i < keys.size(); i++) {
                assertThat(byValue.compare(byBytes.get(i), sorted.get(i)))
                        .as("seed %d, types %s, position %d", seed, types, i)
                        .isZero();
            }
        }
    }

    @Test
    void extremesSortAtTheEnds() {
        OrderedKeyCodec codec = OrderedKeyCodec.of(List.of(DataTypes.BIGINT()));
        byte[] min = codec.encode(Row.of(Long.MIN_VALUE));
        byte[] minusOne = codec.encode(Row.of(-1L));
        byte[] zero = codec.encode(Row.of(0L));
        byte[] max = codec.encode(Row.of(Long.MAX_VALUE));
        assertThat(Arrays.compareUnsigned(min, minusOne)).isNegative();
        assertThat(Arrays.compareUnsigned(minusOne, zero)).isNegative();
        assertThat(Arrays.compareUnsigned(zero, max)).isNegative();
        assertThat(zero).containsExactly(0x80, 0, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void distinctMultiColumnKeysNeverShareBytes() {
        OrderedKeyCodec codec = OrderedKeyCodec.of(List.of(DataTypes.STRING(), DataTypes.STRING()));
        // without the escape and terminator both would be "a\0b"
        assertThat(codec.encode(Row.of("a", "\u0000b")))
                .isNotEqualTo(codec.encode(Row.of("a\u0000", "b")));
        assertThat(codec.encode(Row.of("", "a"))).isNotEqualTo(codec.encode(Row.of("a", "")));
    }

    @Test
    void unsupportedKeyTypesAreRefused() {
        assertThat(OrderedKeyCodec.supports(List.of(DataTypes.DOUBLE()))).isFalse();
        assertThat(OrderedKeyCodec.supports(List.of(DataTypes.INT(), DataTypes.DECIMAL(10, 2))))
                .isFalse();
        assertThat(OrderedKeyCodec.supports(List.of())).isFalse();
        assertThatThrownBy(() -> OrderedKeyCodec.of(List.of(DataTypes.FLOAT())))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(
                        () ->
                                OrderedKeyCodec.of(List.of(DataTypes.INT()))
                                        .encode(Row.of((Object) null)))
                .isInstanceOf(InvalidInputException.class);
    }

    /** Random keys with many shared prefixes, zero bytes and repeats, where encodings go wrong. */
    static Row randomKey(List<DataType> types, Random random) {
        Object[] values = new Object[types.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = randomValue(types.get(i), random);
        }
        return Row.wrap(values);
    }

    private static final String[] PIECES = {
        "\u0000", "a", "b", "é", "\uD83D\uDE00", "\u007f", "zz"
    };

    static Object randomValue(DataType type, Random random) {
        boolean edge = random.nextInt(8) == 0;
        switch (type.root()) {
            case BOOLEAN:
                return random.nextBoolean();
            case TINYINT:
                return (byte) random.nextInt();
            case SMALLINT:
                return (short) random.nextInt();
            case INT:
                return edge
                        ? (random.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE)
                        : random.nextInt(2001) - 1000;
            case BIGINT:
                return edge
                        ? (random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE)
                        : random.nextBoolean() ? random.nextLong() : random.nextInt(201) - 100L;
            case STRING:
                {
                    StringBuilder sb = new StringBuilder();
                    int n = random.nextInt(5);
                    for (int i = 0; i < n; i++) {
                        sb.append(PIECES[random.nextInt(PIECES.length)]);
                    }
                    return sb.toString();
                }
            case BYTES:
                {
                    byte[] b = new byte[random.nextInt(5)];
                    for (int i = 0; i < b.length; i++) {
                        b[i] = (byte) (random.nextInt(4) - 1); // 0xFF, 0, 1, 2
                    }
                    return b;
                }
            case DATE:
                return LocalDate.ofEpochDay(random.nextInt(2_000_000) - 1_000_000);
            case TIME:
                return LocalTime.ofNanoOfDay(random.nextInt(86_400_000) * 1_000_000L);
            case TIMESTAMP:
                return LocalDateTime.ofEpochSecond(
                        random.nextInt(2_000_000) - 1_000_000L,
                        nanos(type, random),
                        java.time.ZoneOffset.UTC);
            case TIMESTAMP_LTZ:
                return Instant.ofEpochSecond(
                        random.nextInt(2_000_000) - 1_000_000L, nanos(type, random));
            default:
                throw new IllegalArgumentException(type.toString());
        }
    }

    private static int nanos(DataType type, Random random) {
        int nanos = random.nextInt(1_000_000_000);
        int unit = (int) Math.pow(10, 9 - type.precision());
        return nanos - nanos % unit;
    }

    /** The order the lake compares keys in: numbers signed, strings and bytes unsigned. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Comparator<Row> byValue(List<DataType> types) {
        return (a, b) -> {
            for (int i = 0; i < types.size(); i++) {
                Object x = a.getField(i);
                Object y = b.getField(i);
                int c;
                switch (types.get(i).root()) {
                    case STRING:
                        c =
                                Arrays.compareUnsigned(
                                        ((String) x).getBytes(StandardCharsets.UTF_8),
                                        ((String) y).getBytes(StandardCharsets.UTF_8));
                        break;
                    case BYTES:
                        c = Arrays.compareUnsigned((byte[]) x, (byte[]) y);
                        break;
                    default:
                        c = ((Comparable) x).compareTo(y);
                }
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
    }

    private static String show(Row r) {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < r.arity(); i++) {
            Object v = r.getField(i);
            sb.append(v instanceof byte[] ? Arrays.toString((byte[]) v) : String.valueOf(v));
            sb.append(i + 1 < r.arity() ? ", " : ")");
        }
        return sb.toString();
    }
}
