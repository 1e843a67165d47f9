package dev.tributary.common.row;

import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which hash places a key in a bucket (T36). A table's choice is the table property {@link
 * TableOptions#BUCKET_FUNCTION}, fixed when the table is created: the store, the client's router
 * and the lake must place a key in the same bucket for the table's whole life, and rows already on
 * disk were placed by it.
 */
public enum BucketFunctionType {
    /** Tributary's own hash; tables created before T36 (without the property) use it. */
    TRIBUTARY(null),
    /** Paimon's fixed-bucket function: store bucket b is Paimon bucket b. */
    PAIMON("paimon"),
    /** Iceberg's {@code bucket[N]} partition transform: store bucket b is partition value b. */
    ICEBERG("iceberg");

    private final String lakeFormat;

    BucketFunctionType(String lakeFormat) {
        this.lakeFormat = lakeFormat;
    }

    /** The property value, e.g. {@code paimon}. */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The lake format whose buckets this function reproduces; empty for {@link #TRIBUTARY}. */
    public Optional<String> lakeFormat() {
        return Optional.ofNullable(lakeFormat);
    }

    /** The function a table uses: its {@link TableOptions#BUCKET_FUNCTION}, default tributary. */
    public static BucketFunctionType of(TableDescriptor table) {
        String raw = table.properties().get(TableOptions.BUCKET_FUNCTION.key());
        return TableOptions.BUCKET_FUNCTION.parse(raw);
    }

    /**
     * The function aligned with a lake format ({@code paimon} or {@code iceberg}).
     *
     * @throws InvalidInputException for any other format name
     */
    public static BucketFunctionType forLakeFormat(String format) {
        return alignedWith(format)
                .orElseThrow(
                        () ->
                                new InvalidInputException(
                                        "no bucket function matches lake format '"
                                                + format
                                                + "'; known formats are paimon and iceberg"));
    }

    /** The function aligned with a lake format; empty for a format Tributary has none for. */
    public static Optional<BucketFunctionType> alignedWith(String format) {
        for (BucketFunctionType t : values()) {
            if (t.lakeFormat != null && t.lakeFormat.equals(format)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /**
     * Why this function cannot bucket a table by {@code bucketKeys}, with what to do instead; empty
     * when it can. Iceberg's bucket transform takes one column of a type it defines a hash for
     * (every type but BOOLEAN, FLOAT and DOUBLE); the other functions take any key.
     */
    public Optional<String> unsupportedReason(Schema schema, List<String> bucketKeys) {
        if (this != ICEBERG || bucketKeys.isEmpty()) {
            return Optional.empty();
        }
        String fix =
                " Give the table a single-column bucket key of another type (--bucket-key in the"
                        + " CLI, TableDescriptor.Builder.bucketKeys in Java; for a primary-key table"
                        + " one of its primary-key columns), or create it with "
                        + TableOptions.BUCKET_FUNCTION.key()
                        + "=tributary (then each split writes into every lake bucket and Iceberg"
                        + " cannot prune by key).";
        if (bucketKeys.size() > 1) {
            return Optional.of(
                    "bucket function 'iceberg' cannot bucket by the "
                            + bucketKeys.size()
                            + " columns "
                            + bucketKeys
                            + ": Iceberg's bucket[N] transform takes exactly one column, and a"
                            + " hash over several columns is no Iceberg partition that engines"
                            + " could prune by."
                            + fix);
        }
        String column = bucketKeys.get(0);
        DataType type = schema.typeAt(schema.indexOf(column));
        switch (type.root()) {
            case BOOLEAN:
            case FLOAT:
            case DOUBLE:
                return Optional.of(
                        "bucket function 'iceberg' cannot bucket by column '"
                                + column
                                + "' of type "
                                + type
                                + ": the Iceberg spec defines no bucket[N] transform for"
                                + " BOOLEAN, FLOAT or DOUBLE."
                                + fix);
            default:
                return Optional.empty();
        }
    }
}
