package dev.tributary.lake.paimon;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.io.CompactIncrement;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;

/**
 * The Paimon payload of a write result and of a compaction result: Paimon's commit messages in a
 * typed encoding of ours, read with every allocation bounded by the bytes present (T55). Layout:
 * varint payload version (2), a count of messages, each: partition row, bucket, optional total
 * buckets, the data increment (new, deleted and changelog files, new and deleted index files) and
 * the compact increment (files before and after, changelog files, new and deleted index files), as
 * {@link PaimonFileMetas} writes them. The server reads it against the lake table's own types.
 * Version 1 was Paimon's {@code CommitMessageSerializer}, which sizes its allocations from lengths
 * it reads; it is refused unread.
 */
final class PaimonCommitMessages {
    static final int PAYLOAD_VERSION = 2;
    private static final int PAIMON_SERIALIZED_VERSION = 1;
    private static final String WHAT = "Paimon commit-message payload";

    private PaimonCommitMessages() {}

    static byte[] encode(List<CommitMessage> messages) {
        BinaryWriter w = new BinaryWriter(1024);
        w.writeVarInt(PAYLOAD_VERSION);
        w.writeVarInt(messages.size());
        for (CommitMessage m : messages) {
            CommitMessageImpl msg = (CommitMessageImpl) m;
            PaimonFileMetas.writeRow(w, msg.partition());
            w.writeSignedVarLong(msg.bucket());
            Integer total = msg.totalBuckets();
            w.writeByte(total == null ? 0 : 1);
            if (total != null) {
                w.writeSignedVarLong(total);
            }
            DataIncrement data = msg.newFilesIncrement();
            PaimonFileMetas.writeDataFiles(w, data.newFiles());
            PaimonFileMetas.writeDataFiles(w, data.deletedFiles());
            PaimonFileMetas.writeDataFiles(w, data.changelogFiles());
            PaimonFileMetas.writeIndexFiles(w, data.newIndexFiles());
            PaimonFileMetas.writeIndexFiles(w, data.deletedIndexFiles());
            CompactIncrement compact = msg.compactIncrement();
            PaimonFileMetas.writeDataFiles(w, compact.compactBefore());
            PaimonFileMetas.writeDataFiles(w, compact.compactAfter());
            PaimonFileMetas.writeDataFiles(w, compact.changelogFiles());
            PaimonFileMetas.writeIndexFiles(w, compact.newIndexFiles());
            PaimonFileMetas.writeIndexFiles(w, compact.deletedIndexFiles());
        }
        return w.toByteArray();
    }

    /**
     * Reads a payload against {@code table}'s partition, key and per-schema value types.
     *
     * @throws CorruptDataException if the payload is of another version, malformed, or does not fit
     *     the table
     */
    static List<CommitMessage> decode(byte[] payload, FileStoreTable table) {
        BinaryReader in = new BinaryReader(payload);
        checkVersion(in.readVarInt());
        try {
            PaimonPayloadTypes types = PaimonPayloadTypes.of(table);
            int n = in.readCount(1);
            List<CommitMessage> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(readMessage(in, types));
            }
            if (in.remaining() != 0) {
                throw new CorruptDataException(
                        WHAT + " has " + in.remaining() + " bytes after its last message");
            }
            return out;
        } catch (CorruptDataException e) {
            throw e;
        } catch (RuntimeException e) {
            // what Paimon's constructors refuse in values we checked less than it does
            throw new CorruptDataException(WHAT + " is malformed: " + e, e);
        }
    }

    private static CommitMessage readMessage(BinaryReader in, PaimonPayloadTypes types) {
        BinaryRow partition = PaimonFileMetas.readRow(in, types.partition(), "partition");
        int bucket = intValue(in.readSignedVarLong(), "bucket");
        Integer total = null;
        byte hasTotal = in.readByte();
        if (hasTotal == 1) {
            total = intValue(in.readSignedVarLong(), "total buckets");
        } else if (hasTotal != 0) {
            throw new CorruptDataException(WHAT + " has presence byte " + hasTotal);
        }
        DataIncrement data =
                new DataIncrement(
                        PaimonFileMetas.readDataFiles(in, types),
                        PaimonFileMetas.readDataFiles(in, types),
                        PaimonFileMetas.readDataFiles(in, types),
                        PaimonFileMetas.readIndexFiles(in, types),
                        PaimonFileMetas.readIndexFiles(in, types));
        CompactIncrement compact =
                new CompactIncrement(
                        PaimonFileMetas.readDataFiles(in, types),
                        PaimonFileMetas.readDataFiles(in, types),
                        PaimonFileMetas.readDataFiles(in, types),
                        PaimonFileMetas.readIndexFiles(in, types),
                        PaimonFileMetas.readIndexFiles(in, types));
        return new CommitMessageImpl(partition, bucket, total, data, compact);
    }

    private static int intValue(long v, String what) {
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new CorruptDataException(WHAT + " has " + what + " " + v);
        }
        return (int) v;
    }

    private static void checkVersion(int version) {
        if (version == PAIMON_SERIALIZED_VERSION) {
            throw new CorruptDataException(
                    WHAT
                            + " version 1 (Paimon's CommitMessageSerializer) comes from a tiering"
                            + " job older than this server, which does not read it: upgrade the"
                            + " tiering job to the server's release and run it again");
        }
        if (version != PAYLOAD_VERSION) {
            throw new CorruptDataException(
                    WHAT
                            + " version "
                            + Integer.toUnsignedString(version)
                            + " is not supported (this server reads version "
                            + PAYLOAD_VERSION
                            + "); run a tiering job of the server's release");
        }
    }
}
