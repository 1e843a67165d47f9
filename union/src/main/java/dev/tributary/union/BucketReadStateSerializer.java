package dev.tributary.union;

import dev.tributary.common.exception.CorruptDataException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Bytes of a {@link BucketReadState}, versioned: what an engine checkpoints for a bucket's read.
 * Version 1: bucket, snapshot id, lake min offset, store from, store to, follow, phase ordinal,
 * skip, position.
 */
public final class BucketReadStateSerializer {
    public static final BucketReadStateSerializer INSTANCE = new BucketReadStateSerializer();
    public static final int VERSION = 1;

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
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * @throws CorruptDataException for an unknown version or malformed bytes
     */
    public BucketReadState deserialize(int version, byte[] bytes) {
        if (version != VERSION) {
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
            return new BucketReadState(
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
