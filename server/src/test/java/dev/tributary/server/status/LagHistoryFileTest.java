package dev.tributary.server.status;

import static dev.tributary.server.status.StatusViews.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.time.ManualClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LagHistoryFileTest {
    private static final Duration FIVE_S = Duration.ofSeconds(5);

    @TempDir Path dir;

    @Test
    void t43AHistoryWrittenAndReadBackIsTheSameAndCompact() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        LagHistory h = new LagHistory(FIVE_S, Duration.ofHours(1));
        long t0 = 1_700_000_000_000L;
        for (int i = 0; i < 720; i++) {
            h.record(
                    t0 + i * 5_000L,
                    List.of(
                            table(1, "db.a", 30_000, random.nextInt(60_000), random.nextInt(1000)),
                            table(2, "db.b", 60_000, i * 1000L, i)));
        }
        LagHistoryFile file = new LagHistoryFile(dir.resolve("status/lag-history.bin"));
        file.write(t0, h.view().tables());

        List<LagHistoryView.Series> back = file.read();
        List<LagHistoryView.Series> want = h.view().tables();
        assertThat(back).as("seed %d", seed).hasSize(2);
        for (int i = 0; i < 2; i++) {
            assertThat(back.get(i).tableId()).isEqualTo(want.get(i).tableId());
            assertThat(back.get(i).table()).isEqualTo(want.get(i).table());
            assertThat(back.get(i).freshnessMillis()).isEqualTo(want.get(i).freshnessMillis());
            assertThat(back.get(i).state()).isEqualTo(want.get(i).state());
            assertThat(back.get(i).timeMillis()).isEqualTo(want.get(i).timeMillis());
            assertThat(back.get(i).lagMillis()).isEqualTo(want.get(i).lagMillis());
            assertThat(back.get(i).lagRecords()).isEqualTo(want.get(i).lagRecords());
        }
        // an hour of 5 s samples of two tables: deltas and lags as varints, about 6 bytes a sample
        assertThat(Files.size(file.path())).isLessThan(2 * 720 * 8);
        assertThat(Files.exists(dir.resolve("status/lag-history.bin.tmp"))).isFalse();
    }

    @Test
    void t43ADamagedFileIsRefusedAndNoFileIsAnEmptyHistory() throws Exception {
        LagHistoryFile file = new LagHistoryFile(dir.resolve("lag-history.bin"));
        assertThat(file.read()).isEmpty();
        LagHistory h = new LagHistory(FIVE_S, Duration.ofHours(1));
        h.record(5_000, List.of(table(1, "db.a", 30_000, 100, 1)));
        file.write(5_000, h.view().tables());
        byte[] bytes = Files.readAllBytes(file.path());
        bytes[bytes.length / 2] ^= 0x40;
        Files.write(file.path(), bytes);
        assertThatThrownBy(file::read)
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("checksum");
        Files.write(file.path(), new byte[] {1, 2, 3});
        assertThatThrownBy(file::read).isInstanceOf(CorruptDataException.class);
    }

    @Test
    void t43RestoreKeepsTheRetentionWindowAndNothingInTheFuture() {
        // saved by a server that kept more (its retention was longer)
        LagHistory before = new LagHistory(FIVE_S, Duration.ofMinutes(10));
        for (long t = 0; t <= 120_000; t += 5_000) {
            before.record(t, List.of(table(1, "db.a", 30_000, t, t / 1000)));
        }
        LagHistory after = new LagHistory(FIVE_S, Duration.ofMinutes(1));
        // restarted at 100 s on a clock that went back: the last 20 s of samples lie ahead
        int kept = after.restore(before.view().tables(), 100_000);
        LagHistoryView.Series a = after.view().tables().get(0);
        assertThat(a.timeMillis()).startsWith(40_000).endsWith(100_000);
        assertThat(kept).isEqualTo(a.timeMillis().length).isEqualTo(13);
        assertThat(after.lastSampleMillis()).isEqualTo(100_000);
        // the first sample after the restart drops a table that no longer exists
        after.record(105_000, List.of(table(2, "db.b", 30_000, 0, 0)));
        assertThat(after.view().tables())
                .extracting(LagHistoryView.Series::table)
                .containsExactly("db.b");
    }

    @Test
    void t43BetweenGivesOnlyTheSamplesAPageLacks() {
        LagHistory h = new LagHistory(FIVE_S, Duration.ofMinutes(1));
        for (long t = 5_000; t <= 30_000; t += 5_000) {
            h.record(t, List.of(table(1, "db.a", 30_000, t, 0), table(2, "db.b", 30_000, 0, 0)));
        }
        List<LagHistoryView.Series> all = h.between(-1, 30_000, Set.of(1L, 2L), 100);
        assertThat(all.get(0).timeMillis())
                .containsExactly(5_000, 10_000, 15_000, 20_000, 25_000, 30_000);
        List<LagHistoryView.Series> newer = h.between(20_000, 25_000, Set.of(1L, 2L), 100);
        assertThat(newer).hasSize(2);
        assertThat(newer.get(0).timeMillis()).containsExactly(25_000);
        assertThat(newer.get(0).lagMillis()).containsExactly(25_000);
        assertThat(h.between(30_000, 40_000, Set.of(1L, 2L), 100).get(0).timeMillis()).isEmpty();
    }

    @Test
    void t43TheSaverWritesWhenTheClockSaysAndOnlyWhenSomethingIsNew() throws Exception {
        ManualClock clock = new ManualClock(1_000_000);
        LagHistory h = new LagHistory(FIVE_S, Duration.ofMinutes(10));
        LagHistoryFile file = new LagHistoryFile(dir.resolve("lag-history.bin"));
        LagHistorySaver saver = new LagHistorySaver(h, file, clock, Duration.ofMinutes(1));
        assertThat(saver.load()).isZero();

        h.record(clock.currentTimeMillis(), List.of(table(1, "db.a", 30_000, 7, 1)));
        saver.run();
        assertThat(Files.exists(file.path())).as("a minute has not passed").isFalse();
        clock.advance(Duration.ofMinutes(1));
        saver.run();
        assertThat(file.read().get(0).lagMillis()).containsExactly(7);
        long written = Files.getLastModifiedTime(file.path()).toMillis();
        Files.setLastModifiedTime(file.path(), java.nio.file.attribute.FileTime.fromMillis(0));
        clock.advance(Duration.ofMinutes(1));
        assertThat(saver.save()).as("no new sample since the last save").isFalse();
        assertThat(Files.getLastModifiedTime(file.path()).toMillis()).isZero();
        assertThat(written).isPositive();

        LagHistory restarted = new LagHistory(FIVE_S, Duration.ofMinutes(10));
        assertThat(new LagHistorySaver(restarted, file, clock, Duration.ofMinutes(1)).load())
                .isEqualTo(1);

        Files.write(file.path(), new byte[] {9, 9, 9, 9});
        LagHistory damaged = new LagHistory(FIVE_S, Duration.ofMinutes(10));
        assertThat(new LagHistorySaver(damaged, file, clock, Duration.ofMinutes(1)).load())
                .as("a damaged file is no reason not to start")
                .isZero();
    }
}
