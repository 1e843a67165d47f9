package dev.tributary.tiering.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.event.SplitResultEvent;
import dev.tributary.tiering.split.TieringSplit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RoundResultMergerTest {
    private static final TablePath PATH = TablePath.of("db", "t");

    private static TieringSplit log(int bucket, long from, long to) {
        return TieringSplit.log(1, PATH, 2, 3, bucket, from, to);
    }

    private static SplitResultEvent done(TieringSplit s, long reached, String file) {
        return new SplitResultEvent(
                s.splitId(),
                1,
                2,
                3,
                s.bucket(),
                reached,
                file == null ? null : file.getBytes(),
                reached - s.startOffset(),
                10,
                null);
    }

    @Test
    void finishedRangesOfABucketAdvanceItsOffsetToTheCutoff() {
        TieringSplit a = log(0, 0, 50);
        TieringSplit b = log(0, 50, 100);
        TieringSplit c = log(1, 7, 9);
        Map<String, SplitResultEvent> results = new HashMap<>();
        results.put(a.splitId(), done(a, 50, "a"));
        results.put(b.splitId(), done(b, 100, "b"));
        results.put(c.splitId(), done(c, 9, "c"));
        RoundCommit r =
                RoundResultMerger.merge("job", 1, 2, 3, false, List.of(b, c, a), results, Set.of());
        assertThat(r.bucketEndOffsets())
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(PartitionBucket.of(0), 100L, PartitionBucket.of(1), 9L));
        assertThat(r.writeResults())
                .extracting(String::new)
                .containsExactlyInAnyOrder("a", "b", "c");
        assertThat(r.discardedResults()).isEmpty();
        assertThat(r.stats().recordsRead()).isEqualTo(102);
        assertThat(r.stats().bytesRead()).isEqualTo(30);
    }

    @Test
    void t13_t5_forceFinishedRangeStopsTheBucketAndLaterRangesAreNotCommitted() {
        TieringSplit a = log(0, 0, 50);
        TieringSplit b = log(0, 50, 100);
        TieringSplit c = log(0, 100, 150);
        Map<String, SplitResultEvent> results = new HashMap<>();
        results.put(a.splitId(), done(a, 30, "a")); // force-finished at 30
        results.put(b.splitId(), done(b, 100, "b")); // finished, but after the gap
        RoundCommit r =
                RoundResultMerger.merge(
                        "job", 1, 2, 3, true, List.of(a, b, c), results, Set.of(c.splitId()));
        assertThat(r.bucketEndOffsets()).containsExactly(Map.entry(PartitionBucket.of(0), 30L));
        assertThat(r.writeResults()).extracting(String::new).containsExactly("a");
        assertThat(r.discardedResults()).extracting(String::new).containsExactly("b");
        assertThat(r.forceFinished()).isTrue();
    }

    @Test
    void t13_skippedFirstRangeLeavesTheBucketWhereItWas() {
        TieringSplit a = log(0, 0, 50);
        TieringSplit b = log(0, 50, 100);
        Map<String, SplitResultEvent> results = new HashMap<>();
        results.put(b.splitId(), done(b, 100, "b"));
        RoundCommit r =
                RoundResultMerger.merge(
                        "job", 1, 2, 3, true, List.of(a, b), results, Set.of(a.splitId()));
        assertThat(r.bucketEndOffsets()).isEmpty();
        assertThat(r.writeResults()).isEmpty();
        assertThat(r.discardedResults()).hasSize(1);
    }

    @Test
    void t7_snapshotSplitMovesTheBucketToTheSnapshotLogOffset() {
        TieringSplit s = TieringSplit.snapshot(1, PATH, 2, 3, 4, 77, 1234);
        RoundCommit r =
                RoundResultMerger.merge(
                        "job",
                        1,
                        2,
                        3,
                        false,
                        List.of(s),
                        Map.of(s.splitId(), done(s, 1234, "s")),
                        Set.of());
        assertThat(r.bucketEndOffsets()).containsExactly(Map.entry(PartitionBucket.of(4), 1234L));
        assertThat(r.writeResults()).hasSize(1);
    }

    @Test
    void t27_splitThatReadNothingStillRecordsItsProgressWithoutWriteResult() {
        TieringSplit a = log(0, 10, 20);
        RoundCommit r =
                RoundResultMerger.merge(
                        "job",
                        1,
                        2,
                        3,
                        false,
                        List.of(a),
                        Map.of(a.splitId(), done(a, 20, null)),
                        Set.of());
        assertThat(r.writeResults()).isEmpty();
        assertThat(r.isEmpty()).as("the offset moved: the coordinator must record it").isFalse();
        assertThat(r.bucketEndOffsets()).containsExactly(Map.entry(PartitionBucket.of(0), 20L));
    }
}
