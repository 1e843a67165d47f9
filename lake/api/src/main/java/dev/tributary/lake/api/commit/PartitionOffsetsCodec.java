package dev.tributary.lake.api.commit;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.types.TableDescriptor;
import java.io.ByteArrayOutputStream;
import java.util.Base64;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The compact form of a partitioned table's tiered offsets in a lake snapshot property (T32): the
 * offset of every (partition, bucket) and every partition's name, small enough for 1,000 partitions
 * x 16 buckets in one snapshot summary. Text form: {@code 1:} then the Base64 of the deflated
 * layout 1: partition count, then per partition (ascending id) the id as a delta from the previous
 * one, its name, its bucket count, the buckets (a flag byte 0 when they are 0..n-1, else 1 and each
 * bucket as a delta), the smallest offset and, bit-packed in the fewest bits that hold the largest,
 * each offset minus the smallest. The buckets of a partition hold similar counts (a hash spreads
 * its rows), so an offset costs a little more than the bits of that spread; deflate removes the
 * repetition of names ({@code dt=2026-12-0...}).
 */
final class PartitionOffsetsCodec {
    /** Far above what any table's offsets take; bounds what a corrupt property can allocate. */
    private static final int MAX_INFLATED_BYTES = 256 << 20;

    private static final String LAYOUT_1 = "1:";

    private PartitionOffsetsCodec() {}

    /** Offsets of partitioned buckets (ids >= 0) and names of their partitions. */
    record Decoded(SortedMap<PartitionBucket, Long> offsets, SortedMap<Long, String> names) {}

    static String encode(SortedMap<PartitionBucket, Long> offsets, Map<Long, String> names) {
        TreeMap<Long, TreeMap<Integer, Long>> byPartition = new TreeMap<>();
        offsets.forEach(
                (pb, o) ->
                        byPartition
                                .computeIfAbsent(pb.partitionId(), id -> new TreeMap<>())
                                .put(pb.bucket(), o));
        BinaryWriter w = new BinaryWriter(64 + offsets.size() * 4);
        w.writeVarInt(byPartition.size());
        long prevId = 0;
        for (Map.Entry<Long, TreeMap<Integer, Long>> p : byPartition.entrySet()) {
            w.writeVarLong(p.getKey() - prevId);
            prevId = p.getKey();
            String name = names.get(p.getKey());
            w.writeString(name == null ? "" : name);
            TreeMap<Integer, Long> buckets = p.getValue();
            w.writeVarInt(buckets.size());
            boolean dense = buckets.lastKey() == buckets.size() - 1;
            w.writeByte(dense ? 0 : 1);
            if (!dense) {
                int prevBucket = 0;
                for (int b : buckets.keySet()) {
                    w.writeVarInt(b - prevBucket);
                    prevBucket = b;
                }
            }
            long min = Long.MAX_VALUE;
            long max = 0;
            for (long o : buckets.values()) {
                min = Math.min(min, o);
                max = Math.max(max, o);
            }
            int width = 64 - Long.numberOfLeadingZeros(max - min);
            w.writeVarLong(min);
            w.writeByte(width);
            packBits(w, buckets.values(), min, width);
        }
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        try {
            deflater.setInput(w.buffer(), 0, w.position());
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(w.position() / 2 + 16);
            byte[] chunk = new byte[8192];
            while (!deflater.finished()) {
                out.write(chunk, 0, deflater.deflate(chunk));
            }
            return LAYOUT_1 + Base64.getEncoder().encodeToString(out.toByteArray());
        } finally {
            deflater.end();
        }
    }

    static Decoded decode(String text) {
        if (!text.startsWith(LAYOUT_1)) {
            throw new CorruptDataException(
                    "unknown layout of the partition offsets property: "
                            + text.substring(0, Math.min(8, text.length())));
        }
        byte[] raw = inflate(Base64.getDecoder().decode(text.substring(LAYOUT_1.length())));
        BinaryReader r = new BinaryReader(raw);
        SortedMap<PartitionBucket, Long> offsets = new TreeMap<>();
        SortedMap<Long, String> names = new TreeMap<>();
        // a partition takes at least an id delta, a name length, a bucket count, a layout byte, a
        // minimum and a width: 6 bytes
        int partitions = r.readCount(6);
        long id = 0;
        for (int i = 0; i < partitions; i++) {
            id += r.readVarLong();
            String name = r.readString();
            if (!name.isEmpty()) {
                names.put(id, name);
            }
            int buckets = r.readVarInt();
            if (buckets < 0 || buckets > TableDescriptor.MAX_BUCKETS) {
                throw new CorruptDataException(
                        "partition offsets property has "
                                + Integer.toUnsignedString(buckets)
                                + " buckets in one partition, more than the "
                                + TableDescriptor.MAX_BUCKETS
                                + " a table can have");
            }
            int[] ids = new int[buckets];
            boolean dense = r.readByte() == 0;
            int bucket = 0;
            for (int j = 0; j < buckets; j++) {
                if (dense) {
                    ids[j] = j;
                } else {
                    bucket += r.readVarInt();
                    ids[j] = bucket;
                }
            }
            long min = r.readVarLong();
            int width = r.readByte();
            if (width < 0 || width > 64) {
                throw new CorruptDataException("partition offsets property has bit width " + width);
            }
            long[] deltas = unpackBits(r, buckets, width);
            for (int j = 0; j < buckets; j++) {
                offsets.put(new PartitionBucket(id, ids[j]), min + deltas[j]);
            }
        }
        if (r.remaining() != 0) {
            throw new CorruptDataException(
                    "partition offsets property has " + r.remaining() + " trailing bytes");
        }
        return new Decoded(offsets, names);
    }

    /** Writes each {@code value - min} in {@code width} bits, low bits first, byte-aligned. */
    private static void packBits(
            BinaryWriter w, java.util.Collection<Long> values, long min, int width) {
        long acc = 0;
        int bits = 0;
        for (long v : values) {
            long delta = v - min;
            for (int written = 0; written < width; ) {
                int take = Math.min(width - written, 64 - bits);
                long chunk =
                        take == 64 ? delta >>> written : (delta >>> written) & ((1L << take) - 1);
                acc |= chunk << bits;
                bits += take;
                written += take;
                while (bits >= 8) {
                    w.writeByte((int) (acc & 0xFF));
                    acc >>>= 8;
                    bits -= 8;
                }
            }
        }
        if (bits > 0) {
            w.writeByte((int) (acc & 0xFF));
        }
    }

    private static long[] unpackBits(BinaryReader r, int count, int width) {
        long[] out = new long[count];
        int totalBytes = (int) (((long) count * width + 7) / 8);
        if (totalBytes > r.remaining()) {
            throw new CorruptDataException("partition offsets property is truncated");
        }
        long bitPos = 0;
        byte[] packed = r.readBytes(totalBytes);
        for (int i = 0; i < count; i++) {
            long v = 0;
            for (int b = 0; b < width; b++, bitPos++) {
                int bit = (packed[(int) (bitPos >>> 3)] >>> (bitPos & 7)) & 1;
                v |= (long) bit << b;
            }
            out[i] = v;
        }
        return out;
    }

    private static byte[] inflate(byte[] compressed) {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(compressed);
            ByteArrayOutputStream out = new ByteArrayOutputStream(compressed.length * 4);
            byte[] chunk = new byte[8192];
            while (!inflater.finished()) {
                int n = inflater.inflate(chunk);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new CorruptDataException("partition offsets property is truncated");
                }
                out.write(chunk, 0, n);
                if (out.size() > MAX_INFLATED_BYTES) {
                    throw new CorruptDataException(
                            "partition offsets property inflates to more than "
                                    + MAX_INFLATED_BYTES
                                    + " bytes");
                }
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new CorruptDataException("partition offsets property is not deflated data", e);
        } finally {
            inflater.end();
        }
    }
}
