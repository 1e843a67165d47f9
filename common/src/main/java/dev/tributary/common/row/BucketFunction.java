package dev.tributary.common.row;

import dev.tributary.common.types.DataType;
import dev.tributary.common.types.Schema;
import java.util.List;

/**
 * Maps a row to its bucket by a stable hash of its bucket-key columns: MurmurHash3 (x86, 32-bit,
 * seed 42) over the key's {@link RowCodec} encoding, modulo the bucket count. Clients and the
 * server compute the same bucket for the same key on every platform and version.
 */
public final class BucketFunction {
    private static final int SEED = 42;

    private final int[] keyPositions;
    private final RowCodec keyCodec;
    private final int bucketCount;

    public BucketFunction(Schema schema, List<String> bucketKeys, int bucketCount) {
        if (bucketKeys.isEmpty()) {
            throw new IllegalArgumentException("a bucket function needs bucket keys");
        }
        this.keyPositions = schema.indexesOf(bucketKeys);
        List<DataType> keyTypes =
                java.util.Arrays.stream(keyPositions).mapToObj(schema::typeAt).toList();
        this.keyCodec = new RowCodec(keyTypes);
        this.bucketCount = bucketCount;
    }

    public int bucketOf(Row row) {
        byte[] key = keyCodec.encode(row.project(keyPositions));
        return bucketOfEncoded(key, key.length);
    }

    /** The bucket of a key given as the {@link RowCodec} encoding of its bucket-key columns. */
    public int bucketOfEncoded(byte[] encodedKey, int length) {
        return Math.floorMod(murmur3(encodedKey, length, SEED), bucketCount);
    }

    /** Positions of the bucket-key columns in the table's rows. */
    public int[] keyPositions() {
        return keyPositions.clone();
    }

    /** MurmurHash3 x86 32-bit. */
    static int murmur3(byte[] data, int seed) {
        return murmur3(data, data.length, seed);
    }

    static int murmur3(byte[] data, int len, int seed) {
        int h = seed;
        int blocks = len / 4;
        for (int i = 0; i < blocks; i++) {
            int k =
                    (data[4 * i] & 0xFF)
                            | (data[4 * i + 1] & 0xFF) << 8
                            | (data[4 * i + 2] & 0xFF) << 16
                            | (data[4 * i + 3] & 0xFF) << 24;
            h ^= mixK(k);
            h = Integer.rotateLeft(h, 13) * 5 + 0xe6546b64;
        }
        int tail = blocks * 4;
        int k = 0;
        switch (len & 3) {
            case 3:
                k ^= (data[tail + 2] & 0xFF) << 16;
            // fall through
            case 2:
                k ^= (data[tail + 1] & 0xFF) << 8;
            // fall through
            case 1:
                k ^= data[tail] & 0xFF;
                h ^= mixK(k);
            // fall through
            default:
        }
        h ^= len;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }

    private static int mixK(int k) {
        k *= 0xcc9e2d51;
        k = Integer.rotateLeft(k, 15);
        return k * 0x1b873593;
    }
}
