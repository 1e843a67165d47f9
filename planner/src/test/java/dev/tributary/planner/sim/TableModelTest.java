package dev.tributary.planner.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.coordinator.spi.BucketState;
import dev.tributary.planner.workload.ReaderModel;
import dev.tributary.planner.workload.TableLoad;
import dev.tributary.tiering.api.BucketPlan;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TableModelTest {
    static final ReaderModel READER =
            new ReaderModel(10e6, 5e6, Duration.ofMillis(200), Duration.ofMillis(300), 1_000_000);

    @Test
    @DisplayName("T44 each bucket's log grows at its share of the rate; write times invert offsets")
    void offsetsAndWriteTimes() {
        // 4,000 records/s over 4 buckets, the hottest with twice the mean: 2000, 666.7 x 3
        TableLoad load =
                new TableLoad(
                        "t",
                        null,
                        4,
                        Duration.ofSeconds(10),
                        null,
                        false,
                        4000,
                        100,
                        2,
                        0,
                        true,
                        null,
                        null);
        TableModel m = new TableModel(load, 7, 1_000);
        assertThat(m.endOffset(0, 11_000)).isEqualTo(20_000);
        assertThat(m.endOffset(1, 11_000)).isEqualTo(6_666);
        assertThat(m.writeTime(0, 20_000)).isEqualTo(11_000);
        assertThat(m.writeTime(1, 0)).isEqualTo(1_000);
        List<BucketState> states = m.bucketStates(11_000);
        assertThat(states)
                .extracting(BucketState::endOffset)
                .containsExactly(20_000L, 6_666L, 6_666L, 6_666L);
        assertThat(states).allMatch(s -> s.newestKvSnapshot() == null);
    }

    @Test
    @DisplayName(
            "T44 a split takes overhead + bytes / throughput: log records times their size, a"
                    + " snapshot its bucket's share of the state at the snapshot throughput")
    void splitDurations() {
        TableLoad pk =
                new TableLoad(
                        "t",
                        null,
                        4,
                        Duration.ofSeconds(10),
                        null,
                        true,
                        4000,
                        100,
                        1,
                        40_000_000,
                        false,
                        null,
                        null);
        TableModel m = new TableModel(pk, 7, 0);
        BucketPlan log = BucketPlan.log(1, 1_000, 51_000);
        // 50,000 records x 100 B = 5 MB at 10 MB/s = 500 ms, + 200 ms
        assertThat(m.splitMillis(READER, log, 1_000, 51_000, 2)).isEqualTo(700);
        // a quarter of 40 MB at 5 MB/s = 2 s, + 200 ms
        BucketPlan snap = BucketPlan.snapshot(1, 3, 500);
        assertThat(m.splitMillis(READER, snap, 0, 500, 1)).isEqualTo(2_200);
        // never tiered: its buckets offer a KV snapshot
        List<BucketState> states = m.bucketStates(90_000);
        assertThat(states).allMatch(s -> s.newestKvSnapshot() != null);
        assertThat(states.get(0).newestKvSnapshot().logOffset()).isEqualTo(m.endOffset(0, 60_000));
    }

    @Test
    @DisplayName(
            "T44 fixed durations: the first round's, then the later rounds', whatever the data")
    void fixedDurations() {
        TableLoad f =
                TableLoad.fixed(
                        "c",
                        12,
                        Duration.ofMinutes(5),
                        true,
                        Duration.ofSeconds(100),
                        Duration.ofSeconds(20));
        TableModel m = new TableModel(f, 1, 0);
        BucketPlan w = BucketPlan.log(0, 0, 10);
        assertThat(m.splitMillis(READER, w, 0, 10, 1)).isEqualTo(100_000);
        assertThat(m.splitMillis(READER, w, 0, 10, 2)).isEqualTo(20_000);
        assertThat(m.overheadMillis(READER)).isZero();
    }
}
