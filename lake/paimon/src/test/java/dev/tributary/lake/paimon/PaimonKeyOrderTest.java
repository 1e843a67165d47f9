package dev.tributary.lake.paimon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.row.OrderedKeyCodec;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.DataTypes;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.paimon.codegen.CodeGenUtils;
import org.apache.paimon.codegen.RecordComparator;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.Test;

/**
 * The store's ordered KV key encoding sorts keys exactly as Paimon's own key comparator (the one
 * its merge tree and sort buffers use) does, so a KV snapshot arrives in Paimon's key order.
 */
class PaimonKeyOrderTest {
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
                    List.of(DataTypes.TIMESTAMP_LTZ(3)),
                    List.of(DataTypes.TIMESTAMP_LTZ(6)),
                    List.of(DataTypes.STRING(), DataTypes.BIGINT()),
                    List.of(DataTypes.STRING(), DataTypes.STRING()),
                    List.of(DataTypes.BYTES(), DataTypes.INT(), DataTypes.STRING()),
                    List.of(DataTypes.BOOLEAN(), DataTypes.TIMESTAMP(6), DataTypes.SMALLINT()));

    private static final String[] PIECES = {
        "\u0000", "a", "b", "é", "\uD83D\uDE00", "\u007f", "zz"
    };

    @Test
    void orderedKeyBytesSortAsPaimonsKeyComparator() {
        long seed = System.nanoTime();
        System.out.println("PaimonKeyOrderTest seed " + seed);
        Random random = new Random(seed);
        for (List<DataType> types : KEYS) {
            List<DataType> notNull = types.stream().map(DataType::notNull).toList();
            OrderedKeyCodec codec = OrderedKeyCodec.of(notNull);
            RowType paimonType =
                    RowType.of(
                            notNull.stream()
                                    .map(PaimonTypes::toPaimon)
                                    .toArray(org.apache.paimon.types.DataType[]::new));
            InternalRowSerializer serializer = new InternalRowSerializer(paimonType);
            RecordComparator paimonOrder =
                    CodeGenUtils.newRecordComparator(paimonType.getFieldTypes());
            List<PaimonValues.Converter> converters =
                    notNull.stream().map(PaimonValues::converterFor).toList();

            List<byte[]> encoded = new ArrayList<>();
            List<BinaryRow> paimonRows = new ArrayList<>();
            for (int i = 0; i < 3_000; i++) {
                Row key = randomKey(notNull, random);
                GenericRow g = new GenericRow(key.arity());
                for (int f = 0; f < key.arity(); f++) {
                    g.setField(f, converters.get(f).convert(key.getField(f)));
                }
                encoded.add(codec.encode(key));
                paimonRows.add(serializer.toBinaryRow(g).copy());
            }
            for (int i = 0; i + 1 < encoded.size(); i++) {
                for (int j : new int[] {i + 1, random.nextInt(encoded.size())}) {
                    int bytes =
                            Integer.signum(Arrays.compareUnsigned(encoded.get(i), encoded.get(j)));
                    int paimon =
                            Integer.signum(
                                    paimonOrder.compare(paimonRows.get(i), paimonRows.get(j)));
                    assertThat(bytes)
                            .as("seed %d, key types %s, keys %d and %d", seed, types, i, j)
                            .isEqualTo(paimon);
                }
            }
        }
    }

    private static Row randomKey(List<DataType> types, Random random) {
        Object[] values = new Object[types.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = randomValue(types.get(i), random);
        }
        return Row.wrap(values);
    }

    private static Object randomValue(DataType type, Random random) {
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
                        ZoneOffset.UTC);
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
}
