package dev.tributary.coordinator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.coordinator.spi.KvSnapshotRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The coordinator's memory of the bucket states servers report in heartbeats. */
class ReportedBucketStatesTest {
    private final ReportedBucketStates states = new ReportedBucketStates(8);

    private static ReportedBucket log(long table, int bucket, long end) {
        return new ReportedBucket(table, -1, bucket, end, null);
    }

    private static BucketReport full(ReportedBucket... buckets) {
        return new BucketReport(true, 0, true, List.of(buckets));
    }

    private static BucketReport delta(ReportedBucket... buckets) {
        return BucketReport.delta(List.of(buckets));
    }

    private long endOf(int server, long table, int bucket) {
        return states.state(server, new ReportedBucket.Key(table, -1, bucket))
                .orElseThrow()
                .bucket()
                .endOffset();
    }

    @Test
    void aFullReportReplacesTheSetAndDeltasUpdateIt() {
        assertThat(states.report(1, "a", full(log(10, 0, 5), log(10, 1, 7)))).isFalse();
        assertThat(states.report(1, "a", delta(log(10, 1, 9)))).isFalse();
        assertThat(endOf(1, 10, 0)).isEqualTo(5);
        assertThat(endOf(1, 10, 1)).isEqualTo(9);

        // a later full report drops what it does not name
        states.report(1, "a", full(log(10, 1, 9), log(11, 0, 1)));
        assertThat(states.state(1, new ReportedBucket.Key(10, -1, 0))).isEmpty();
        assertThat(states.states(1)).containsExactly(log(10, 1, 9), log(11, 0, 1));
        assertThat(states.reportedCounts()).isEqualTo(Map.of(1, 2));
    }

    @Test
    void aFullReportInPartsDropsOnlyAfterItsLastPart() {
        states.report(1, "a", full(log(10, 0, 5), log(10, 1, 7)));
        states.report(1, "a", new BucketReport(true, 0, false, List.of(log(10, 1, 8))));
        // bucket 0 is not named yet, but the report is not over: still known
        assertThat(endOf(1, 10, 0)).isEqualTo(5);
        states.report(1, "a", new BucketReport(true, 1, true, List.of(log(12, 0, 3))));
        assertThat(states.states(1)).containsExactly(log(10, 1, 8), log(12, 0, 3));
    }

    @Test
    void aPartOutOfOrderIsRefused() {
        assertThatThrownBy(() -> states.report(1, "a", new BucketReport(true, 1, true, List.of())))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("out of order");
        states.report(1, "a", new BucketReport(true, 0, false, List.of(log(1, 0, 1))));
        assertThatThrownBy(() -> states.report(1, "a", new BucketReport(true, 2, true, List.of())))
                .isInstanceOf(InvalidInputException.class);
    }

    @Test
    void aDeltaBeforeAnyFullReportAsksForOne() {
        assertThat(states.report(1, "a", delta(log(10, 0, 5)))).isTrue();
        // the delta still counts
        assertThat(endOf(1, 10, 0)).isEqualTo(5);
        assertThat(states.report(1, "a", full(log(10, 0, 5)))).isFalse();
        assertThat(states.report(1, "a", delta())).isFalse();
    }

    @Test
    void aNewInstanceReplacesTheOldOnesStates() {
        states.report(1, "a", full(log(10, 0, 5), log(10, 1, 7)));
        // a restart: the new instance's first delta starts from nothing and asks for a full report
        assertThat(states.report(1, "b", delta(log(10, 0, 2)))).isTrue();
        assertThat(states.states(1)).containsExactly(log(10, 0, 2));
    }

    @Test
    void anExpiredServersStatesAreKeptButStaleUntilItReportsAgain() {
        states.report(1, "a", full(log(10, 0, 5)));
        states.report(2, "x", full(log(10, 1, 3)));
        states.markStale(List.of(1));
        assertThat(states.state(1, new ReportedBucket.Key(10, -1, 0)).orElseThrow())
                .isEqualTo(new ReportedBucketStates.Reported(log(10, 0, 5), true));
        assertThat(states.stale(2)).isFalse();
        states.report(1, "a", delta());
        assertThat(states.stale(1)).isFalse();
    }

    @Test
    void anUnregisteredServerIsForgotten() {
        states.report(1, "a", full(log(10, 0, 5)));
        states.report(2, "x", full(log(10, 1, 3)));
        states.retainServers(Set.of(2));
        assertThat(states.reporters()).containsExactly(2);
        assertThat(states.states(1)).isEmpty();
    }

    @Test
    void anEndOffsetGoingBackwardsIsRefusedAsAWhole() {
        states.report(1, "a", full(log(10, 0, 5), log(10, 1, 7)));
        assertThatThrownBy(() -> states.report(1, "a", delta(log(10, 0, 6), log(10, 1, 6))))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("went back from 7 to 6");
        // nothing of the refused report was applied
        assertThat(endOf(1, 10, 0)).isEqualTo(5);
        // the same offset again, or another instance going lower, is fine
        states.report(1, "a", delta(log(10, 1, 7)));
        states.report(1, "b", full(log(10, 1, 1)));
        assertThat(endOf(1, 10, 1)).isEqualTo(1);
        // a full report is the instance's whole truth: a copy moved away and back starts lower
        states.report(1, "b", full(log(10, 1, 0)));
        assertThat(endOf(1, 10, 1)).isZero();
    }

    @Test
    void boundsAreEnforced() {
        List<ReportedBucket> nine = new ArrayList<>();
        for (int b = 0; b < 9; b++) {
            nine.add(log(10, b, 1));
        }
        assertThatThrownBy(() -> states.report(1, "a", BucketReport.delta(nine)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("more than 8 buckets");
        assertThat(states.states(1)).isEmpty();
        states.report(1, "a", BucketReport.delta(nine.subList(0, 8)));
        // an update of a known bucket does not grow the set
        states.report(1, "a", delta(log(10, 3, 2)));

        List<ReportedBucket> tooMany = new ArrayList<>();
        for (int b = 0; b <= BucketReport.MAX_BUCKETS_PER_REQUEST; b++) {
            tooMany.add(log(b, 0, 1));
        }
        assertThatThrownBy(() -> BucketReport.delta(tooMany))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> states.report(1, "a", delta(log(10, 0, 1), log(10, 0, 2))))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("twice");
        assertThatThrownBy(() -> log(10, -1, 0)).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> log(10, 0, -1)).isInstanceOf(InvalidInputException.class);
    }

    @Test
    void growingPartitionsAreDrainedOncePerServer() {
        states.report(
                1,
                "a",
                full(
                        new ReportedBucket(10, 100, 0, 4, null),
                        new ReportedBucket(10, 101, 0, 0, null),
                        log(11, 0, 3)));
        assertThat(states.drainChangedPartitions(1, 10)).containsExactly(100L);
        assertThat(states.drainChangedPartitions(1, 10)).isEmpty();
        states.report(1, "a", delta(new ReportedBucket(10, 101, 0, 1, null)));
        states.report(1, "a", delta(new ReportedBucket(10, 100, 0, 4, null)));
        assertThat(states.drainChangedPartitions(1, 10)).containsExactly(101L);
        assertThat(states.drainChangedPartitions(2, 10)).isEmpty();
    }

    @Test
    void randomReportsKeepTheLatestStatePerBucket() {
        long seed = new Random().nextLong();
        System.out.println("ReportedBucketStatesTest seed " + seed);
        Random rnd = new Random(seed);
        ReportedBucketStates big = new ReportedBucketStates();
        long[] expected = new long[32];
        big.report(1, "a", full());
        for (int i = 0; i < 500; i++) {
            List<ReportedBucket> delta = new ArrayList<>();
            for (int b = 0; b < expected.length; b++) {
                if (rnd.nextInt(4) == 0) {
                    expected[b] += rnd.nextInt(100);
                    delta.add(
                            new ReportedBucket(
                                    7, -1, b, expected[b], new KvSnapshotRef(i, expected[b])));
                }
            }
            assertThat(big.report(1, "a", BucketReport.delta(delta))).isFalse();
        }
        for (int b = 0; b < expected.length; b++) {
            var s = big.state(1, new ReportedBucket.Key(7, -1, b));
            if (expected[b] == 0) {
                // never reported, or reported at 0
                s.ifPresent(r -> assertThat(r.bucket().endOffset()).isZero());
            } else {
                assertThat(s.orElseThrow().bucket().endOffset())
                        .as("seed %d bucket %d", seed, b)
                        .isEqualTo(expected[b]);
            }
        }
    }
}
