package dev.tributary.common.row;

import dev.tributary.common.types.Schema;
import java.util.List;

/**
 * Tributary's own function: MurmurHash3 (x86, 32-bit, seed 42) over the key's {@link RowCodec}
 * encoding, modulo the bucket count. The store checks it on the encoded key without decoding it.
 * The hash is pinned by tests: data on disk was placed by it.
 */
final class TributaryBucketFunction extends KeyedBucketFunction {
    private static final int SEED = 42;

    TributaryBucketFunction(Schema schema, List<String> bucketKeys, int bucketCount) {
        super(schema, bucketKeys, bucketCount);
    }

    @Override
    int bucketOf(Row row, int[] positions) {
        byte[] key = keyCodec.encode(row.project(positions));
        return bucketOfEncoded(key, key.length);
    }

    @Override
    public int bucketOfEncoded(byte[] encodedKey, int length) {
        return Math.floorMod(Murmur3.hash32(encodedKey, 0, length, SEED), bucketCount);
    }

    @Override
    public BucketFunctionType type() {
        return BucketFunctionType.TRIBUTARY;
    }
}
