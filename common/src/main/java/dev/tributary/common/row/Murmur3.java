package dev.tributary.common.row;

/**
 * MurmurHash3, x86 variant, 32-bit (Austin Appleby's public-domain algorithm). All three bucket
 * functions are built on it with different seeds and inputs: Tributary's own (seed 42 over the
 * {@link RowCodec} key encoding), Paimon's (seed 42 over the key's BinaryRow bytes) and Iceberg's
 * (seed 0 over the spec-defined bytes of the value). Bytes are read as little-endian words, as the
 * reference implementation does on x86.
 */
final class Murmur3 {
    private Murmur3() {}

    static int hash32(byte[] data, int seed) {
        return hash32(data, 0, data.length, seed);
    }

    static int hash32(byte[] data, int offset, int len, int seed) {
        int h = seed;
        int blocks = len >>> 2;
        for (int i = 0; i < blocks; i++) {
            int p = offset + 4 * i;
            int k =
                    (data[p] & 0xFF)
                            | (data[p + 1] & 0xFF) << 8
                            | (data[p + 2] & 0xFF) << 16
                            | (data[p + 3] & 0xFF) << 24;
            h = mixH(h, mixK(k));
        }
        int tail = offset + blocks * 4;
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
        return fmix(h, len);
    }

    /** The hash of the 8 little-endian bytes of {@code value}, without materializing them. */
    static int hashLong(long value, int seed) {
        int h = mixH(seed, mixK((int) value));
        h = mixH(h, mixK((int) (value >>> 32)));
        return fmix(h, 8);
    }

    private static int mixK(int k) {
        k *= 0xcc9e2d51;
        k = Integer.rotateLeft(k, 15);
        return k * 0x1b873593;
    }

    private static int mixH(int h, int k) {
        h ^= k;
        h = Integer.rotateLeft(h, 13);
        return h * 5 + 0xe6546b64;
    }

    private static int fmix(int h, int len) {
        h ^= len;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }
}
