package dev.tributary.planner.calibrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tributary.planner.workload.ReaderModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ReaderCalibrationTest {
    static final ReaderModel FALLBACK =
            new ReaderModel(20e6, 10e6, Duration.ofMillis(200), Duration.ofMillis(500), 1_000_000);

    /**
     * A round's duration under a known model: waves x overhead + critical bytes / rate + commit.
     */
    static RoundSample round(
            String table,
            boolean snap,
            int splits,
            int p,
            long bytes,
            double skew,
            double overheadMs,
            double rate,
            long commitMs,
            double noise) {
        RoundSample shape = new RoundSample(table, snap, splits, p, bytes, 0, commitMs, skew);
        // an unmeasured commit (-1) took the fallback's 500 ms
        double d =
                shape.waves() * overheadMs
                        + shape.criticalBytes() * 1000 / rate
                        + (commitMs < 0 ? 500 : commitMs);
        return new RoundSample(
                table, snap, splits, p, bytes, Math.round(d * (1 + noise)), commitMs, skew);
    }

    @Test
    @DisplayName(
            "T44 the reader model is recovered from rounds of tables with different bucket counts"
                    + " and sizes: per-split overhead, log and snapshot throughput, commit time")
    void recoversAKnownModel() {
        long seed = 20261201L;
        Random rnd = new Random(seed);
        List<RoundSample> rounds = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            int buckets = new int[] {16, 8, 12}[i % 3];
            long bytes = 2_000_000 + rnd.nextInt(6_000_000);
            rounds.add(
                    round(
                            "t" + buckets,
                            false,
                            buckets,
                            2,
                            bytes,
                            1.1,
                            40,
                            8e6,
                            120,
                            (rnd.nextDouble() - 0.5) * 0.04));
        }
        rounds.add(round("pk", true, 12, 2, 300_000_000, 1, 40, 3e6, 120, 0));
        ReaderCalibration.Result r = ReaderCalibration.fit(rounds, FALLBACK);
        assertThat(r.model().splitOverhead().toMillis())
                .as("seed %d", seed)
                .isCloseTo(40L, within(4L));
        assertThat(r.model().logBytesPerSecond()).isCloseTo(8e6, within(0.3e6));
        assertThat(r.model().snapshotBytesPerSecond()).isCloseTo(3e6, within(0.1e6));
        assertThat(r.model().commitTime()).isEqualTo(Duration.ofMillis(120));
        assertThat(r.logRounds()).isEqualTo(40);
        assertThat(r.snapshotRounds()).isEqualTo(1);
        assertThat(r.meanAbsoluteError()).isLessThan(0.03);
        assertThat(r.notes()).anyMatch(n -> n.contains("fitted over 40 log and 1 snapshot rounds"));
    }

    @Test
    @DisplayName(
            "T44 rounds too small to show the throughput say only a lower bound; the overhead is"
                    + " still fitted and the notes say what was assumed")
    void tinyRoundsBoundTheThroughputOnly() {
        List<RoundSample> rounds = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            int buckets = i % 2 == 0 ? 16 : 8;
            rounds.add(round("t", false, buckets, 2, 20_000, 1, 25, 50e6, -1, 0));
        }
        ReaderCalibration.Result r = ReaderCalibration.fit(rounds, FALLBACK);
        assertThat(r.model().splitOverhead().toMillis()).isCloseTo(25L, within(2L));
        assertThat(r.model().logBytesPerSecond()).isGreaterThanOrEqualTo(20e6);
        assertThat(r.model().commitTime()).isEqualTo(Duration.ofMillis(500));
        assertThat(r.notes())
                .anyMatch(n -> n.contains("show only that a reader moves at least"))
                .anyMatch(n -> n.contains("lake commit time not measured"))
                .anyMatch(n -> n.contains("no snapshot round measured"));
    }

    @Test
    @DisplayName(
            "T44 rounds scattered around the model (a shared machine) give the model's jitter: the"
                    + " standard deviation of ln(measured / modeled)")
    void jitterFromScatter() {
        long seed = 42;
        Random rnd = new Random(seed);
        List<RoundSample> rounds = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            int buckets = new int[] {16, 8, 12}[i % 3];
            RoundSample exact =
                    round("t" + buckets, false, buckets, 2, 4_000_000, 1, 40, 8e6, 100, 0);
            long scattered =
                    Math.round(exact.durationMillis() * Math.exp(0.3 * rnd.nextGaussian()));
            rounds.add(
                    new RoundSample(
                            exact.table(), false, buckets, 2, exact.bytes(), scattered, 100, 1));
        }
        ReaderCalibration.Result r = ReaderCalibration.fit(rounds, FALLBACK);
        assertThat(r.model().jitter()).as("seed %d", seed).isCloseTo(0.3, within(0.04));
        assertThat(r.notes()).anyMatch(n -> n.contains("scatter (jitter) 0.3"));
    }

    @Test
    @DisplayName("T44 without rounds the fallback model is used, and said so")
    void noRounds() {
        ReaderCalibration.Result r = ReaderCalibration.fit(List.of(), FALLBACK);
        assertThat(r.model()).isEqualTo(FALLBACK);
        assertThat(r.notes()).anyMatch(n -> n.contains("no committed round"));
    }
}
