package dev.tributary.server.hostile;

import static dev.tributary.server.hostile.HostileRounds.allocatedBytes;
import static dev.tributary.server.hostile.HostileRounds.withLastFieldLength;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.io.BinaryWriter;
import dev.tributary.tiering.api.CommitOutcome;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T55 against the real server over real gRPC with an Iceberg lake: a Java-serialized object graph
 * where an Iceberg write result goes, and 2 GB length prefixes, are refused with a typed error;
 * nothing is instantiated or allocated, and a normal round commits afterwards. The Paimon twin is
 * {@link PaimonHostilePayloadITCase}.
 */
class HostilePayloadITCase {
    @TempDir Path dir;

    @Test
    void t55_javaSerializedPayloadsAndHugeLengthPrefixesAreRefusedAndTheServerKeepsServing()
            throws Exception {
        Tripwire.instantiated = false;
        try (HostileRounds rounds = HostileRounds.start("iceberg", dir)) {
            // (a) a version-1 payload: Java serialization of an object whose readObject trips
            BinaryWriter javaSerialized = new BinaryWriter();
            javaSerialized.writeVarInt(1);
            javaSerialized.writeLengthPrefixed(serialize(new Tripwire()));
            rounds.assertPayloadRefused(
                    javaSerialized.toByteArray(), "older than this server, which does not read it");
            // the same object graph as the whole committable
            rounds.assertRefused(serialize(new Tripwire()), null);

            // (b) 2 GB length prefixes: of one Iceberg file inside the payload, of the payload in
            // the committable, and a count of 2^31 - 1 files
            BinaryWriter hugeFile = new BinaryWriter();
            hugeFile.writeVarInt(3); // the Iceberg payload version
            hugeFile.writeVarInt(1);
            hugeFile.writeVarInt(Integer.MAX_VALUE);
            hugeFile.writeString("{}");
            BinaryWriter hugeCount = new BinaryWriter();
            hugeCount.writeVarInt(3);
            hugeCount.writeVarInt(Integer.MAX_VALUE);

            long allocatedBefore = allocatedBytes();
            rounds.assertPayloadRefused(hugeFile.toByteArray(), "truncated");
            rounds.assertPayloadRefused(hugeCount.toByteArray(), "exceeds what the remaining");
            // the payload is the committable's last field: point its length prefix at 2 GB
            rounds.assertRefused(
                    withLastFieldLength(
                            rounds.committable(new byte[] {3, 0, 0, 0, 0}), 5, Integer.MAX_VALUE),
                    "truncated");
            assertThat(allocatedBytes() - allocatedBefore)
                    .as("bytes the server allocated while refusing three 2 GB claims")
                    .isLessThan(256L << 20);
            assertThat(Tripwire.instantiated).as("a Java-serialized object was read").isFalse();

            // the server keeps serving: a normal round with a real Iceberg write result commits
            assertThat(rounds.commitRealRound()).isEqualTo(CommitOutcome.COMMITTED);
            assertThat(rounds.lakeRows()).isEqualTo(100);
            assertThat(Tripwire.instantiated).isFalse();
        }
    }

    private static byte[] serialize(Object o) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new ArrayList<>(List.of(o, new HashMap<>(Map.of("k", o)))));
        }
        return bytes.toByteArray();
    }

    /** Records whether Java deserialization ever ran on it, in the server's JVM. */
    static final class Tripwire implements Serializable {
        private static final long serialVersionUID = 1L;
        static volatile boolean instantiated;

        private void readObject(java.io.ObjectInputStream in)
                throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            instantiated = true;
        }
    }
}
