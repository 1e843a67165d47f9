package dev.tributary.coordinator.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.coordinator.TieringHarness;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.store.TieringRecord;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.tiering.api.BucketPlan;
import dev.tributary.tiering.api.RoundPlan;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * T32-T34 in the coordinator: rounds, commits, reconciliation and removal per (partition, bucket).
 */
class PartitionTieringTest {
    private final TieringHarness h = new TieringHarness();
    private final Duration freshness = Duration.ofMinutes(1);

    private static PartitionBucket pb(long p, int b) {
        return new PartitionBucket(p, b);
    }

    @Test
    void t32_aRoundCoversExactlyThePartitionBucketsWithNewDataAndCommitsThemOnce() {
        TableInfo t = h.partitionedTable("events", 2, freshness);
        long p1 = h.addPartition(t, "2026-12-01");
        long p2 = h.addPartition(t, "2026-12-02");
        long p3 = h.addPartition(t, "2026-12-03");
        h.buckets.write(t.tableId(), p1, 0, 5);
        h.buckets.write(t.tableId(), p3, 1, 7);
        h.advance(freshness);

        RoundPlan plan = h.request("job");
        assertThat(plan.buckets())
                .containsExactlyInAnyOrder(
                        BucketPlan.log(p1, 0, 0, 5), BucketPlan.log(p3, 1, 0, 7));
        assertThat(plan.partitionNames())
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(p1, "dt=2026-12-01", p3, "dt=2026-12-03"));
        assertThat(h.commitPartitioned("job", plan, TieringHarness.fullPartitionEnds(plan), false))
                .isCompleted();

        TieringRecord r = h.tiering().record(t.tableId()).orElseThrow();
        assertThat(r.offsets().asSortedMap())
                .containsExactlyEntriesOf(new TreeMap<>(Map.of(pb(p1, 0), 5L, pb(p3, 1), 7L)));
        assertThat(h.lake.commits()).hasSize(1);
        TieringSnapshotProperties props = h.lake.commits().get(0).props();
        assertThat(props.offsets()).isEqualTo(r.offsets().asSortedMap());
        assertThat(props.partitionNames())
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(p1, "dt=2026-12-01", p3, "dt=2026-12-03"));
        // the lake's own form of the properties reads back to the same offsets and names
        assertThat(TieringSnapshotProperties.fromProperties(props.toProperties()).orElseThrow())
                .isEqualTo(props);
        assertThat(p2).isPositive();

        // T34 late data: an older partition gets rows and is tiered in the same round as a new one
        h.buckets.write(t.tableId(), p1, 0, 3);
        h.buckets.write(t.tableId(), p2, 1, 4);
        h.advance(freshness);
        RoundPlan next = h.request("job");
        assertThat(next.buckets())
                .containsExactlyInAnyOrder(
                        BucketPlan.log(p1, 0, 5, 8), BucketPlan.log(p2, 1, 0, 4));
        h.commitPartitioned("job", next, TieringHarness.fullPartitionEnds(next), false).join();
        assertThat(h.lake.commits().get(1).props().offsets())
                .containsExactlyEntriesOf(
                        new TreeMap<>(Map.of(pb(p1, 0), 8L, pb(p2, 1), 4L, pb(p3, 1), 7L)));
    }

    @Test
    void t32_aRoundReadsOnlyPartitionsThatChangedOrAreStillBehind() {
        TableInfo t = h.partitionedTable("events", 4, freshness);
        long[] ids = new long[20];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = h.addPartition(t, "p" + i);
        }
        h.advance(freshness);
        assertThat(h.request("job")).as("nothing written: no round is handed out").isNull();
        // the first plan after a start looks at every partition once
        assertThat(h.buckets.partitionReads()).hasSize(20);
        h.buckets.clearPartitionReads();

        h.buckets.write(t.tableId(), ids[3], 2, 10);
        h.advance(freshness);
        RoundPlan plan = h.request("job");
        assertThat(h.buckets.partitionReads()).containsExactly(ids[3]);
        // force-finished part way: the rest stays behind and is planned next round without writes
        h.commitPartitioned("job", plan, Map.of(pb(ids[3], 2), 6L), true).join();
        h.buckets.clearPartitionReads();
        RoundPlan rest = h.request("job");
        assertThat(rest.buckets()).containsExactly(BucketPlan.log(ids[3], 2, 6, 10));
        assertThat(h.buckets.partitionReads()).containsExactly(ids[3]);
        h.commitPartitioned("job", rest, TieringHarness.fullPartitionEnds(rest), false).join();

        // caught up: seen once more, then no longer read until it is written again
        h.buckets.clearPartitionReads();
        h.advance(freshness);
        assertThat(h.request("job")).isNull();
        assertThat(h.buckets.partitionReads()).containsExactly(ids[3]);
        h.buckets.clearPartitionReads();
        h.advance(freshness);
        assertThat(h.request("job")).isNull();
        assertThat(h.buckets.partitionReads()).isEmpty();
    }

    @Test
    void t21_t32_theLakeAloneRebuildsPartitionedOffsetsAndRemovedPartitionsStayRemoved() {
        TableInfo t = h.partitionedTable("events", 2, freshness);
        long p1 = h.addPartition(t, "a");
        long p2 = h.addPartition(t, "b");
        h.buckets.write(t.tableId(), p1, 0, 5);
        h.buckets.write(t.tableId(), p2, 1, 5);
        h.advance(freshness);
        RoundPlan plan = h.request("job");
        h.commitPartitioned("job", plan, TieringHarness.fullPartitionEnds(plan), false).join();
        TieringRecord known = h.tiering().record(t.tableId()).orElseThrow();

        // a later commit landed in the lake but not in the record (crash between the two)
        TieringSnapshotProperties landed =
                TieringSnapshotProperties.of(
                        t.tableId(),
                        known.epoch() + 1,
                        known.roundId() + 1,
                        new TreeMap<>(Map.of(pb(p1, 0), 9L, pb(p2, 1), 5L, pb(77, 0), 3L)),
                        Map.of(p1, "dt=a", p2, "dt=b", 77L, "dt=gone"),
                        h.clock.currentTimeMillis());
        h.lake.append(landed);
        h.restart();
        h.buckets.write(t.tableId(), p1, 0, 4); // 9 in all
        h.advance(freshness);
        h.request("job");
        TieringRecord adopted = h.tiering().record(t.tableId()).orElseThrow();
        assertThat(adopted.offsets().asSortedMap())
                .as("partition 77 no longer exists: its offsets are not adopted")
                .containsExactlyEntriesOf(new TreeMap<>(Map.of(pb(p1, 0), 9L, pb(p2, 1), 5L)));
    }

    @Test
    void t33_aPartitionGoesOnlyOnceTieredToItsEndAndNotWhileARoundRuns() {
        TableInfo t = h.partitionedTable("events", 2, freshness);
        long p1 = h.addPartition(t, "a");
        long p2 = h.addPartition(t, "b");
        h.buckets.write(t.tableId(), p1, 0, 5);
        h.buckets.write(t.tableId(), p2, 0, 1);
        h.core.dropPartition(t.path(), PartitionSpec.of("dt", "a"), false, false);
        Map<Integer, Long> ends = Map.of(0, 5L, 1, 0L);
        assertThat(h.core.removePartition(t.tableId(), p1, ends, false))
                .hasValueSatisfying(why -> assertThat(why).contains("tiered to 0 of 5"));

        h.advance(freshness);
        RoundPlan plan = h.request("job");
        assertThat(plan.buckets()).extracting(BucketPlan::partitionId).contains(p1);
        assertThat(h.core.removePartition(t.tableId(), p1, ends, false))
                .hasValueSatisfying(why -> assertThat(why).contains("round"));
        h.commitPartitioned("job", plan, TieringHarness.fullPartitionEnds(plan), false).join();

        assertThat(h.core.removePartition(t.tableId(), p1, ends, true)).isEmpty();
        assertThat(h.core.partitions().byId(t.tableId(), p1)).as("check only").isPresent();
        assertThat(h.core.removePartition(t.tableId(), p1, ends, false))
                .isEqualTo(Optional.empty());
        assertThat(h.core.partitions().byId(t.tableId(), p1)).isEmpty();
        assertThat(h.tiering().record(t.tableId()).orElseThrow().offsets().partitionIds())
                .containsExactly(p2);
        assertThat(h.store.tieringRecord(t.tableId()).orElseThrow().offsets().partitionIds())
                .containsExactly(p2);

        // the next commit's properties no longer carry it
        h.buckets.write(t.tableId(), p2, 1, 2);
        h.advance(freshness);
        RoundPlan next = h.request("job");
        h.commitPartitioned("job", next, TieringHarness.fullPartitionEnds(next), false).join();
        assertThat(h.lake.commits().get(h.lake.commits().size() - 1).props().offsets())
                .containsOnlyKeys(pb(p2, 0), pb(p2, 1));
    }
}
