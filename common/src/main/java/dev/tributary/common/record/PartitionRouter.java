package dev.tributary.common.record;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The partition of a row of a partitioned table (T30), and the typed reading of partition values.
 * Writers route a row by partition first, then by bucket within the partition; the store checks
 * every record of a batch against the partition the batch names. Values as strings: STRING as is
 * (not empty), INT and BIGINT in decimal, DATE as {@code yyyy-MM-dd}. A partition column may not be
 * NULL. Stateless and thread safe.
 */
public final class PartitionRouter {
    /** The longest value a partition column may have, in characters. */
    public static final int MAX_VALUE_LENGTH = 200;

    private final List<String> keys;
    private final int[] positions;
    private final DataType[] types;
    private final RowCodec codec;

    private PartitionRouter(TableDescriptor table) {
        if (!table.isPartitioned()) {
            throw new IllegalArgumentException("the table is not partitioned");
        }
        Schema schema = table.schema();
        this.keys = table.partitionKeys();
        this.positions = schema.indexesOf(keys);
        this.types = Arrays.stream(positions).mapToObj(schema::typeAt).toArray(DataType[]::new);
        this.codec = new RowCodec(Arrays.asList(types));
    }

    /** The router of a partitioned table. */
    public static PartitionRouter of(TableDescriptor table) {
        return new PartitionRouter(table);
    }

    public List<String> keys() {
        return keys;
    }

    /** Positions of the partition columns in the table's rows. */
    public int[] positions() {
        return positions.clone();
    }

    /**
     * The partition of a row.
     *
     * @throws InvalidInputException when a partition column is NULL, of the wrong class, or an
     *     empty or over-long string
     */
    public PartitionSpec partitionOf(Row row) {
        List<String> values = new ArrayList<>(keys.size());
        for (int i = 0; i < positions.length; i++) {
            if (positions[i] >= row.arity() || row.isNullAt(positions[i])) {
                throw new InvalidInputException(
                        "partition column '"
                                + keys.get(i)
                                + "' is NULL; every row of a partitioned table needs a value in"
                                + " each partition column "
                                + keys);
            }
            values.add(format(i, row.getField(positions[i])));
        }
        return PartitionSpec.of(keys, values);
    }

    /**
     * Checks a partition someone named (a user, a request) against the table: the same keys and
     * values that parse as the columns' types; returns it in canonical form (keys in table order,
     * {@code 007} as {@code 7}).
     *
     * @throws InvalidInputException naming the key or value that does not fit
     */
    public PartitionSpec normalize(PartitionSpec spec) {
        Map<String, String> given = spec.asMap();
        if (!given.keySet().equals(new java.util.HashSet<>(keys)) || given.size() != keys.size()) {
            throw new InvalidInputException(
                    "partition '"
                            + spec.name()
                            + "' must name exactly the partition keys "
                            + keys
                            + ", e.g. "
                            + example());
        }
        List<String> values = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            values.add(format(i, parse(i, given.get(keys.get(i)))));
        }
        return PartitionSpec.of(keys, values);
    }

    /** The partition's values as the columns' Java values (Integer, Long, String, LocalDate). */
    public Object[] values(PartitionSpec spec) {
        PartitionSpec p = normalize(spec);
        Object[] out = new Object[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            out[i] = parse(i, p.values().get(i));
        }
        return out;
    }

    /**
     * The partition's values in {@link RowCodec} form over the partition columns: what {@code
     * WriteBatch.Reader#writeProjection} gives for a record of this partition.
     */
    public byte[] encode(PartitionSpec spec) {
        BinaryWriter out = new BinaryWriter(32);
        codec.encode(Row.of(values(spec)), out);
        return out.toByteArray();
    }

    /** The partition whose values are the given {@link RowCodec} encoding of the columns. */
    public PartitionSpec decode(byte[] encoded, int length) {
        Row values = codec.decode(new dev.tributary.common.io.BinaryReader(encoded, 0, length));
        List<String> out = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            out.add(values.isNullAt(i) ? "NULL" : format(i, values.getField(i)));
        }
        return PartitionSpec.of(keys, out);
    }

    private String format(int i, Object value) {
        Class<?> expected = types[i].root().javaClass();
        if (!expected.isInstance(value)) {
            throw new InvalidInputException(
                    "partition column '"
                            + keys.get(i)
                            + "' is "
                            + types[i]
                            + " and takes a "
                            + expected.getSimpleName()
                            + ", got a "
                            + value.getClass().getSimpleName());
        }
        String s = value.toString();
        if (s.isEmpty()) {
            throw new InvalidInputException(
                    "partition column '" + keys.get(i) + "' is an empty string; give it a value");
        }
        if (s.length() > MAX_VALUE_LENGTH) {
            throw new InvalidInputException(
                    "partition column '"
                            + keys.get(i)
                            + "' has a value of "
                            + s.length()
                            + " characters; at most "
                            + MAX_VALUE_LENGTH
                            + " are allowed");
        }
        return s;
    }

    private Object parse(int i, String text) {
        try {
            return switch (types[i].root()) {
                case STRING -> text;
                case INT -> Integer.parseInt(text.trim());
                case BIGINT -> Long.parseLong(text.trim());
                case DATE -> LocalDate.parse(text.trim());
                default -> throw new IllegalStateException("not a partition type: " + types[i]);
            };
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new InvalidInputException(
                    "partition value '"
                            + text
                            + "' of '"
                            + keys.get(i)
                            + "' is not a "
                            + types[i].root()
                            + (types[i].root() == dev.tributary.common.types.DataTypeRoot.DATE
                                    ? " (yyyy-MM-dd)"
                                    : ""));
        }
    }

    private String example() {
        List<String> ex = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            String v =
                    switch (types[i].root()) {
                        case DATE -> "2026-12-01";
                        case INT, BIGINT -> "20261201";
                        default -> "eu";
                    };
            ex.add(keys.get(i) + "=" + v);
        }
        return String.join("/", ex);
    }
}
