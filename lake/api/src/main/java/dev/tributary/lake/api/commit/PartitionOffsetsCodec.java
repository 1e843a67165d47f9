package dev.tributary.lake.api.commit;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
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
 * one, its name, its bucket count and per bucket the bucket as a delta and the offset, all varints.
 * Deflate removes the repetition of names ({@code dt=2026-12-0...}) and of similar offsets.
 */
final class PartitionOffsetsCodec {
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
            w.writeVarInt(p.getValue().size());
            int prevBucket = 0;
            for (Map.Entry<Integer, Long> b : p.getValue().entrySet()) {
                w.writeVarInt(b.getKey() - prevBucket);
                prevBucket = b.getKey();
                w.writeVarLong(b.getValue());
            }
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
        int partitions = r.readVarInt();
        long id = 0;
        for (int i = 0; i < partitions; i++) {
            id += r.readVarLong();
            String name = r.readString();
            if (!name.isEmpty()) {
                names.put(id, name);
            }
            int buckets = r.readVarInt();
            int bucket = 0;
            for (int j = 0; j < buckets; j++) {
                bucket += r.readVarInt();
                offsets.put(new PartitionBucket(id, bucket), r.readVarLong());
            }
        }
        if (r.remaining() != 0) {
            throw new CorruptDataException(
                    "partition offsets property has " + r.remaining() + " trailing bytes");
        }
        return new Decoded(offsets, names);
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
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new CorruptDataException("partition offsets property is not deflated data", e);
        } finally {
            inflater.end();
        }
    }
}
