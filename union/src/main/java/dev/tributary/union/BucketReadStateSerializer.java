package dev.tributary.union;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.id.TableBucket;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Bytes of a {@link BucketReadState}, versioned: what an engine checkpoints for a bucket's read.
 * Version 2: bucket, snapshot id, lake min offset, store from, store to, follow, phase ordinal,
 * skip, position, then the partition id and, when it is not {@code NO_PARTITION}, the partition's
 * name (modified UTF-8). Version 1 (the same without the partition) still reads, as a bucket of an
 * unpartitioned table.
 */
public final class BucketReadStateSerializer {
    public static final BucketReadStateSerializer INSTANCE = new BucketReadStateSerializer();
    public static final int VERSION = 2;

    private BucketReadStateSerializer() {}

    public byte[] serialize(BucketReadState s) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(s.bucket());
            out.writeLong(s.snapshotId());
            out.writeLong(s.lakeMinOffset());
            out.writeLong(s.storeFrom());
            out.writeLong(s.storeTo());
            out.writeBoolean(s.follow());
            out.writeByte(s.phase().ordinal());
            out.writeLong(s.skip());
            out.writeLong(s.position());
            out.writeLong(s.partitionId());
            if (s.isPartitioned()) {
                out.writeUTF(s.partition());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * @throws CorruptDataException for an unknown version or malformed bytes
     */
    public BucketReadState deserialize(int version, byte[] bytes) {
        if (version != VERSION && version != 1) {
            throw new CorruptDataException(
                    "union read state version "
                            + version
                            + " is unknown (this build reads "
                            + VERSION
                            + ")");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int bucket = in.readInt();
            long snapshot = in.readLong();
            long lakeMin = in.readLong();
            long from = in.readLong();
            long to = in.readLong();
            boolean follow = in.readBoolean();
            int phase = in.readByte();
            long skip = in.readLong();
            long position = in.readLong();
            if (phase < 0 || phase >= BucketReadState.Phase.values().length) {
                throw new CorruptDataException("union read state has phase " + phase);
            }
            long partitionId = TableBucket.NO_PARTITION;
            String partition = null;
            if (version >= 2) {
                partitionId = in.readLong();
                if (partitionId != TableBucket.NO_PARTITION) {
                    if (partitionId < 0) {
                        throw new CorruptDataException(
                                "union read state has partition id " + partitionId);
                    }
                    partition = in.readUTF();
                }
            }
            if (in.available() > 0) {
                throw new CorruptDataException(
                        "union read state has " + in.available() + " trailing bytes");
            }
            return new BucketReadState(
                    partitionId,
                    partition,
                    bucket,
                    snapshot,
                    lakeMin,
                    from,
                    to,
                    follow,
                    BucketReadState.Phase.values()[phase],
                    skip,
                    position);
        } catch (IOException e) {
            throw new CorruptDataException("malformed union read state: " + e.getMessage(), e);
        }
    }
}
