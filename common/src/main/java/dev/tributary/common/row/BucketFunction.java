package dev.tributary.common.row;

import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.util.List;

/**
 * Maps a row to its bucket by a hash of its bucket-key columns. Which hash is the table's {@link
 * BucketFunctionType} (T36): clients route with it, the store refuses records it places elsewhere,
 * and for the lake formats' functions the lake puts the row in the same bucket. Implementations are
 * stateless and thread safe, and give the same bucket on every platform and version.
 */
public interface BucketFunction {

    /** The bucket of a table row (a full row, or for a delete a row with at least the key set). */
    int bucketOf(Row row);

    /**
     * The bucket of a key given as the {@link RowCodec} encoding of its bucket-key columns (the
     * form in which the store sees keys, see {@code WriteBatch.Reader#writeProjection}).
     */
    int bucketOfEncoded(byte[] encodedKey, int length);

    /** Positions of the bucket-key columns in the table's rows. */
    int[] keyPositions();

    int bucketCount();

    BucketFunctionType type();

    /**
     * The function of a table with bucket keys, as its descriptor says.
     *
     * @throws IllegalArgumentException if the table has no bucket key
     * @throws dev.tributary.common.exception.InvalidInputException if the table's function cannot
     *     bucket its key (see {@link BucketFunctionType#unsupportedReason})
     */
    static BucketFunction of(TableDescriptor table) {
        return of(
                BucketFunctionType.of(table),
                table.schema(),
                table.bucketKeys(),
                table.bucketCount());
    }

    /** See {@link #of(TableDescriptor)}. */
    static BucketFunction of(
            BucketFunctionType type, Schema schema, List<String> bucketKeys, int bucketCount) {
        return switch (type) {
            case TRIBUTARY -> new TributaryBucketFunction(schema, bucketKeys, bucketCount);
            case PAIMON -> new PaimonBucketFunction(schema, bucketKeys, bucketCount);
            case ICEBERG -> new IcebergBucketFunction(schema, bucketKeys, bucketCount);
        };
    }
}
