package dev.tributary.coordinator.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.coordinator.status.RoundSummary;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class MetadataCodecTest {

    @Test
    void aRecordWrittenWithTheFirstRoundLayoutIsStillRead() {
        BinaryWriter w = new BinaryWriter(128);
        w.writeLong(7); // table id
        w.writeVarInt(1);
        w.writeVarInt(0);
        w.writeLong(40); // bucket 0 tiered to 40
        w.writeLong(1_000); // last tiered
        w.writeLong(10); // enabled since
        w.writeLong(3); // lake snapshot
        w.writeLong(1_000_000_005L); // epoch
        w.writeLong(2); // round
        w.writeByte(0); // not force-finished
        w.writeByte(1); // first round layout
        w.writeLong(1_000_000_005L);
        w.writeLong(2);
        w.writeLong(900);
        w.writeLong(1_000);
        w.writeLong(40); // rows
        w.writeLong(4_000); // bytes
        w.writeLong(2); // files
        w.writeByte(1); // force-finished
        w.writeLong(3); // snapshot

        TieringRecord r = MetadataCodec.readTiering(new BinaryReader(w.toByteArray()), 1);

        assertThat(r.tieredOffsets()).isEqualTo(new TreeMap<>(Map.of(0, 40L)));
        assertThat(r.lastRound())
                .isEqualTo(
                        new RoundSummary(
                                1_000_000_005L,
                                2,
                                null,
                                -1,
                                900,
                                1_000,
                                RoundSummary.Outcome.COMMITTED,
                                40,
                                4_000,
                                2,
                                40,
                                4_000,
                                true,
                                3,
                                null));
    }

    @Test
    void everyOutcomeAndAFailureMessageRoundTrip() {
        for (RoundSummary.Outcome o : RoundSummary.Outcome.values()) {
            RoundSummary s =
                    new RoundSummary(
                            5,
                            6,
                            o == RoundSummary.Outcome.ADOPTED ? null : "job-1",
                            4,
                            7,
                            8,
                            o,
                            9,
                            10,
                            11,
                            12,
                            13,
                            o == RoundSummary.Outcome.NOTHING_NEW,
                            14,
                            o == RoundSummary.Outcome.FAILED
                                    ? "lake commit failed: disk full"
                                    : null);
            TieringRecord in =
                    TieringRecord.initial(1, 2).afterCommit(Map.of(0, 3L), 4, 14, 5, 6, false, s);
            BinaryWriter w = new BinaryWriter(64);
            MetadataCodec.writeTiering(w, in);
            assertThat(MetadataCodec.readTiering(new BinaryReader(w.toByteArray()))).isEqualTo(in);
        }
    }
}
