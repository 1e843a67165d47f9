package dev.tributary.common.row;

import dev.tributary.common.types.Schema;
import java.util.List;

/**
 * Paimon's fixed-bucket function (its default {@code bucket-function.type}): MurmurHash3 (x86,
 * 32-bit, seed 42) over the bucket key's BinaryRow bytes ({@link PaimonBinaryRow}), bucket = {@code
 * abs(hash % N)}. With it, store bucket b is Paimon bucket b of the lake table (T36).
 */
final class PaimonBucketFunction extends KeyedBucketFunction {
    private final PaimonBinaryRow layout;

    PaimonBucketFunction(Schema schema, List<String> bucketKeys, int bucketCount) {
        super(schema, bucketKeys, bucketCount);
        this.layout = new PaimonBinaryRow(keyTypes);
    }

    @Override
    int bucketOf(Row row, int[] positions) {
        // abs of the remainder, not floorMod: what Paimon computes (the remainder is > -N)
        return Math.abs(layout.hashCode(row, positions) % bucketCount);
    }

    @Override
    public BucketFunctionType type() {
        return BucketFunctionType.PAIMON;
    }
}
