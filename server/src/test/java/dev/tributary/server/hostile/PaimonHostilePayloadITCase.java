package dev.tributary.server.hostile;

import static dev.tributary.server.hostile.HostileRounds.allocatedBytes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.io.BinaryWriter;
import dev.tributary.tiering.api.CommitOutcome;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T55 against the real server over real gRPC with a Paimon lake: a version-1 Paimon payload
 * (Paimon's own serializer), a count of 2^31 - 1 messages, a 2 GB binary-row length and a partition
 * row of a field the table does not have are refused with a typed error without allocating what
 * they claim, and a normal round commits afterwards. The Iceberg twin is {@link
 * HostilePayloadITCase}.
 */
class PaimonHostilePayloadITCase {
    @TempDir Path dir;

    @Test
    void t55_hostilePaimonPayloadsAreRefusedWithoutAllocatingAndTheServerKeepsServing()
            throws Exception {
        try (HostileRounds rounds = HostileRounds.start("paimon", dir)) {
            // (a) version 1: Paimon's CommitMessageSerializer, refused before it is read
            BinaryWriter v1 = new BinaryWriter();
            v1.writeVarInt(1);
            v1.writeVarInt(9);
            v1.writeVarInt(1);
            v1.writeVarInt(Integer.MAX_VALUE);
            rounds.assertPayloadRefused(
                    v1.toByteArray(), "older than this server, which does not read it");

            // (b) a count of 2^31 - 1 messages, a 2 GB partition row, a partition row of a field
            // the unpartitioned table does not have
            BinaryWriter hugeCount = new BinaryWriter();
            hugeCount.writeVarInt(2);
            hugeCount.writeVarInt(Integer.MAX_VALUE);
            BinaryWriter hugeRow = new BinaryWriter();
            hugeRow.writeVarInt(2);
            hugeRow.writeVarInt(1);
            hugeRow.writeVarInt(0);
            hugeRow.writeVarInt(Integer.MAX_VALUE);
            BinaryWriter outside = new BinaryWriter();
            outside.writeVarInt(2);
            outside.writeVarInt(1);
            outside.writeVarInt(1);
            outside.writeLengthPrefixed(new byte[16]);

            long allocatedBefore = allocatedBytes();
            rounds.assertPayloadRefused(hugeCount.toByteArray(), "exceeds what the remaining");
            rounds.assertPayloadRefused(hugeRow.toByteArray(), "truncated");
            rounds.assertPayloadRefused(outside.toByteArray(), "partition has 1 fields");
            assertThat(allocatedBytes() - allocatedBefore)
                    .as("bytes the server allocated while refusing 2 GB claims")
                    .isLessThan(256L << 20);

            // the server keeps serving: a normal round with a real Paimon write result commits
            assertThat(rounds.commitRealRound()).isEqualTo(CommitOutcome.COMMITTED);
            assertThat(rounds.lakeRows()).isEqualTo(100);
        }
    }
}
