package dev.tributary.storage.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.exception.FencedException;
import dev.tributary.storage.log.LeaderEpochCache.Divergence;
import dev.tributary.storage.log.LeaderEpochCache.EpochEnd;
import dev.tributary.storage.log.LeaderEpochCache.EpochStart;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LeaderEpochCacheTest {
    @TempDir Path dir;

    private Path file() {
        return dir.resolve("leader-epochs");
    }

    @Test
    void epochsAreKeptOnDiskAndAnEpochWithoutRecordsIsReplaced() {
        LeaderEpochCache cache = LeaderEpochCache.open(file());
        assertThat(cache.latest()).isEmpty();
        cache.assign(1, 0);
        cache.assign(1, 5); // the same epoch again: its start stays
        cache.assign(3, 20);
        cache.assign(4, 20); // epoch 3 appended nothing
        cache.assign(6, 35);

        List<EpochStart> expected =
                List.of(new EpochStart(1, 0), new EpochStart(4, 20), new EpochStart(6, 35));
        assertThat(cache.entries()).isEqualTo(expected);
        assertThat(LeaderEpochCache.open(file()).entries()).isEqualTo(expected);
    }

    @Test
    void aDeposedLeadersEpochAndAStartBelowTheLatestAreRefused() {
        LeaderEpochCache cache = LeaderEpochCache.open(file());
        cache.assign(5, 100);
        assertThatThrownBy(() -> cache.assign(4, 200))
                .isInstanceOf(FencedException.class)
                .hasMessageContaining("older than this replica's latest epoch 5");
        assertThatThrownBy(() -> cache.assign(6, 99))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cut the log first");
        assertThat(LeaderEpochCache.open(file()).entries()).containsExactly(new EpochStart(5, 100));
    }

    @Test
    void theEndOfAnEpochIsTheNextOnesStartOrTheLogsEnd() {
        LeaderEpochCache cache = LeaderEpochCache.open(file());
        cache.assign(2, 10);
        cache.assign(4, 30);
        cache.assign(7, 50);

        assertThat(cache.endOffsetFor(1, 80)).isEqualTo(EpochEnd.UNKNOWN);
        assertThat(cache.endOffsetFor(2, 80)).isEqualTo(new EpochEnd(2, 30));
        assertThat(cache.endOffsetFor(3, 80)).isEqualTo(new EpochEnd(2, 30));
        assertThat(cache.endOffsetFor(5, 80)).isEqualTo(new EpochEnd(4, 50));
        assertThat(cache.endOffsetFor(7, 80)).isEqualTo(new EpochEnd(7, 80));
        assertThat(cache.endOffsetFor(9, 80)).isEqualTo(new EpochEnd(7, 80));
    }

    @Test
    void aReturningReplicaCutsWhereTheNewestEpochBothHaveEnds() {
        // the replica led epoch 3 from 40 and wrote to 70; nobody copied past 55
        LeaderEpochCache replica = LeaderEpochCache.open(file());
        replica.assign(1, 0);
        replica.assign(3, 40);
        // the new leader had epoch 3 up to 55, then led epoch 5 from there
        LeaderEpochCache leader = LeaderEpochCache.open(dir.resolve("leader"));
        leader.assign(1, 0);
        leader.assign(3, 40);
        leader.assign(5, 55);
        EpochEnd answer = leader.endOffsetFor(3, 90);
        assertThat(answer).isEqualTo(new EpochEnd(3, 55));
        assertThat(replica.divergence(answer, 70, 30)).isEqualTo(new Divergence(55, true));

        // a replica behind the leader's end of the epoch keeps all it has
        assertThat(replica.divergence(answer, 50, 30)).isEqualTo(new Divergence(50, true));

        // a leader that never had epoch 3 (it led epoch 2 from 35): the replica's epoch 3 goes
        // first, then its epoch 1 is compared: it ended at 40 here but at 35 on the leader
        LeaderEpochCache other = LeaderEpochCache.open(dir.resolve("other"));
        other.assign(1, 0);
        other.assign(2, 35);
        EpochEnd first = other.endOffsetFor(3, 90);
        assertThat(first).isEqualTo(new EpochEnd(2, 90));
        assertThat(replica.divergence(first, 70, 30)).isEqualTo(new Divergence(40, false));
        replica.truncateFromEnd(40);
        int latest = replica.latest().orElseThrow().epoch();
        assertThat(replica.divergence(other.endOffsetFor(latest, 90), 40, 30))
                .isEqualTo(new Divergence(35, true));

        // a leader with no epoch that old: everything above the high watermark is in doubt
        assertThat(replica.divergence(EpochEnd.UNKNOWN, 70, 30))
                .isEqualTo(new Divergence(30, true));
    }

    @Test
    void cuttingTheLogAtEitherEndCutsTheEpochs() {
        LeaderEpochCache cache = LeaderEpochCache.open(file());
        cache.assign(1, 0);
        cache.assign(2, 10);
        cache.assign(3, 20);
        cache.assign(4, 30);

        cache.truncateFromEnd(20);
        assertThat(cache.entries()).containsExactly(new EpochStart(1, 0), new EpochStart(2, 10));
        cache.assign(5, 20);
        cache.truncateFromStart(15);
        assertThat(cache.entries()).containsExactly(new EpochStart(2, 15), new EpochStart(5, 20));
        cache.truncateFromStart(20);
        assertThat(cache.entries()).containsExactly(new EpochStart(5, 20));
        assertThat(LeaderEpochCache.open(file()).entries()).containsExactly(new EpochStart(5, 20));
    }

    @Test
    void aDamagedFileIsRefusedWithWhatToDo() throws Exception {
        LeaderEpochCache cache = LeaderEpochCache.open(file());
        cache.assign(1, 0);
        cache.assign(2, 10);
        byte[] good = Files.readAllBytes(file());
        for (int i = 0; i < good.length; i++) {
            Files.write(file(), good);
            try (RandomAccessFile f = new RandomAccessFile(file().toFile(), "rw")) {
                f.seek(i);
                f.write(good[i] ^ 0x10);
            }
            assertThatThrownBy(() -> LeaderEpochCache.open(file()))
                    .as("byte %d flipped", i)
                    .isInstanceOf(CorruptDataException.class)
                    .hasMessageContaining("copies the bucket again");
        }
        Files.write(file(), new byte[] {1, 2, 3});
        assertThatThrownBy(() -> LeaderEpochCache.open(file()))
                .isInstanceOf(CorruptDataException.class);
    }
}
