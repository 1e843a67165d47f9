package dev.tributary.common.row;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.Schema;
import java.util.Arrays;
import java.util.List;

/**
 * What every bucket function shares: the key columns, their types, the bucket count, and the
 * decoding of a {@link RowCodec}-encoded key for functions that hash values rather than Tributary's
 * bytes.
 */
abstract class KeyedBucketFunction implements BucketFunction {
    final int[] keyPositions;
    final DataType[] keyTypes;
    final List<String> keyNames;
    final int bucketCount;
    private final int[] identity;

    /** Tributary's encoding of the key columns, as the store sees keys. */
    final RowCodec keyCodec;

    KeyedBucketFunction(Schema schema, List<String> bucketKeys, int bucketCount) {
        if (bucketKeys.isEmpty()) {
            throw new IllegalArgumentException("a bucket function needs bucket keys");
        }
        if (bucketCount < 1) {
            throw new InvalidInputException(
                    "a bucket function needs at least one bucket, got " + bucketCount);
        }
        this.keyPositions = schema.indexesOf(bucketKeys);
        this.keyTypes =
                Arrays.stream(keyPositions).mapToObj(schema::typeAt).toArray(DataType[]::new);
        this.keyNames = List.copyOf(bucketKeys);
        this.bucketCount = bucketCount;
        this.identity = new int[keyPositions.length];
        Arrays.setAll(identity, i -> i);
        this.keyCodec = new RowCodec(Arrays.asList(keyTypes));
    }

    /** The bucket of the key whose values are {@code row}'s fields at {@code positions}. */
    abstract int bucketOf(Row row, int[] positions);

    @Override
    public int bucketOf(Row row) {
        return bucketOf(row, keyPositions);
    }

    @Override
    public int bucketOfEncoded(byte[] encodedKey, int length) {
        Row key = keyCodec.decode(new dev.tributary.common.io.BinaryReader(encodedKey, 0, length));
        return bucketOf(key, identity);
    }

    @Override
    public int[] keyPositions() {
        return keyPositions.clone();
    }

    @Override
    public int bucketCount() {
        return bucketCount;
    }

    @Override
    public String toString() {
        return type().value() + " bucket function over " + keyNames + " into " + bucketCount;
    }
}
