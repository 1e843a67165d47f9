package dev.tributary.lake.paimon;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageSerializer;

/**
 * The Paimon payload of a write result: Paimon's commit messages in Paimon's own versioned
 * serialization, framed by our payload version. Layout: varint payload version (1), varint Paimon
 * serializer version, varint count, then each message length-prefixed.
 */
final class PaimonCommitMessages {
    static final int PAYLOAD_VERSION = 1;

    private PaimonCommitMessages() {}

    static byte[] encode(List<CommitMessage> messages) {
        CommitMessageSerializer serializer = new CommitMessageSerializer();
        BinaryWriter w = new BinaryWriter(256);
        w.writeVarInt(PAYLOAD_VERSION);
        w.writeVarInt(serializer.getVersion());
        w.writeVarInt(messages.size());
        try {
            for (CommitMessage m : messages) {
                w.writeLengthPrefixed(serializer.serialize(m));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toByteArray();
    }

    static List<CommitMessage> decode(byte[] payload) {
        BinaryReader in = new BinaryReader(payload);
        int version = in.readVarInt();
        if (version != PAYLOAD_VERSION) {
            throw new CorruptDataException(
                    "Paimon write-result payload version "
                            + version
                            + " is not supported (expected "
                            + PAYLOAD_VERSION
                            + ")");
        }
        int paimonVersion = in.readVarInt();
        int n = in.readCount(1);
        CommitMessageSerializer serializer = new CommitMessageSerializer();
        List<CommitMessage> out = new ArrayList<>(n);
        try {
            for (int i = 0; i < n; i++) {
                out.add(serializer.deserialize(paimonVersion, in.readLengthPrefixed()));
            }
        } catch (IOException | RuntimeException e) {
            throw new CorruptDataException(
                    "cannot read Paimon commit messages (serializer version "
                            + paimonVersion
                            + "): "
                            + e.getMessage(),
                    e);
        }
        return out;
    }
}
