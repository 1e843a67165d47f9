package dev.tributary.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.coordinator.cluster.BucketReport;
import dev.tributary.coordinator.cluster.ReportedBucket;
import dev.tributary.coordinator.cluster.ReportedBucketStates;
import dev.tributary.coordinator.spi.KvSnapshotRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The heartbeater's bookkeeping of what the coordinator already knows about its buckets. */
class HeartbeatReportsTest {
    private final HeartbeatReports reports = new HeartbeatReports(3);

    private static ReportedBucket log(int bucket, long end) {
        return new ReportedBucket(10, -1, bucket, end, null);
    }

    private void acceptAll(List<BucketReport> parts, long incarnation) {
        parts.forEach(p -> reports.accepted(p, incarnation, false));
    }

    @Test
    void firstAFullReportThenOnlyChanges() {
        List<BucketReport> first = reports.next(List.of(log(0, 5), log(1, 7)));
        assertThat(first)
                .containsExactly(new BucketReport(true, 0, true, List.of(log(0, 5), log(1, 7))));
        acceptAll(first, 4);

        assertThat(reports.next(List.of(log(0, 5), log(1, 9))))
                .containsExactly(BucketReport.delta(List.of(log(1, 9))));
        // nothing changed: an empty delta still heartbeats
        acceptAll(reports.next(List.of(log(0, 5), log(1, 9))), 4);
        assertThat(reports.next(List.of(log(0, 5), log(1, 9))))
                .containsExactly(BucketReport.delta(List.of()));
    }

    @Test
    void aBucketWhoseCopyWasMadeAgainGoesInAFullReport() {
        acceptAll(reports.next(List.of(log(0, 5), log(1, 7))), 4);
        // bucket 1 moved away (its copy deleted) and back: its new copy is still catching up
        assertThat(reports.next(List.of(log(0, 5), log(1, 2))))
                .containsExactly(new BucketReport(true, 0, true, List.of(log(0, 5), log(1, 2))));
    }

    @Test
    void aBucketNoLongerHeldHereMakesTheNextReportFull() {
        acceptAll(reports.next(List.of(log(0, 5), log(1, 7))), 4);
        // bucket 1's copy was deleted (moved away): the coordinator must forget it, or a copy
        // made here again later would look like its end offset went back
        assertThat(reports.next(List.of(log(0, 5))))
                .containsExactly(new BucketReport(true, 0, true, List.of(log(0, 5))));
    }

    @Test
    void aFailedHeartbeatIsResent() {
        acceptAll(reports.next(List.of(log(0, 5))), 4);
        List<BucketReport> lost = reports.next(List.of(log(0, 6)));
        // not accepted: the same change goes again, merged with what changed since
        assertThat(reports.next(List.of(log(0, 8), log(1, 1))))
                .containsExactly(BucketReport.delta(List.of(log(0, 8), log(1, 1))));
        assertThat(lost).containsExactly(BucketReport.delta(List.of(log(0, 6))));
    }

    @Test
    void aNewCoordinatorIncarnationGetsAFullReport() {
        acceptAll(reports.next(List.of(log(0, 5), log(1, 7))), 4);
        // a failover: the delta reached incarnation 5, which has none of the rest
        acceptAll(reports.next(List.of(log(0, 6), log(1, 7))), 5);
        assertThat(reports.fullNeeded()).isTrue();
        assertThat(reports.next(List.of(log(0, 6), log(1, 7))))
                .containsExactly(new BucketReport(true, 0, true, List.of(log(0, 6), log(1, 7))));
    }

    @Test
    void aCoordinatorAskingForAFullReportGetsOne() {
        acceptAll(reports.next(List.of(log(0, 5))), 4);
        for (BucketReport p : reports.next(List.of(log(0, 5)))) {
            reports.accepted(p, 4, true);
        }
        assertThat(reports.next(List.of(log(0, 5))).get(0).full()).isTrue();
    }

    @Test
    void aLargeReportIsSplitAndCountsOnlyWhenWhole() {
        List<ReportedBucket> seven = new ArrayList<>();
        for (int b = 0; b < 7; b++) {
            seven.add(log(b, b + 1));
        }
        List<BucketReport> parts = reports.next(seven);
        assertThat(parts).hasSize(3);
        assertThat(parts).extracting(BucketReport::part).containsExactly(0, 1, 2);
        assertThat(parts).extracting(BucketReport::last).containsExactly(false, false, true);
        // the second part failed: the full report starts over
        reports.accepted(parts.get(0), 4, false);
        assertThat(reports.next(seven)).isEqualTo(parts);
        // parts answered by two incarnations: starts over too
        reports.accepted(parts.get(0), 4, false);
        reports.accepted(parts.get(1), 5, false);
        reports.accepted(parts.get(2), 5, false);
        assertThat(reports.fullNeeded()).isTrue();
        acceptAll(parts, 5);
        assertThat(reports.fullNeeded()).isFalse();
        // deltas are split too
        List<ReportedBucket> grown = seven.stream().map(b -> log(b.bucket(), 100)).toList();
        assertThat(reports.next(grown)).hasSize(3).allMatch(p -> !p.full());
    }

    @Test
    void theCoordinatorEndsUpWithTheServersStatesDespiteLostHeartbeats() {
        long seed = new Random().nextLong();
        System.out.println("HeartbeatReportsTest seed " + seed);
        Random rnd = new Random(seed);
        ReportedBucketStates coordinator = new ReportedBucketStates();
        long incarnation = 1;
        long[] end = new long[10];
        for (int round = 0; round < 300; round++) {
            List<ReportedBucket> current = new ArrayList<>();
            for (int b = 0; b < end.length; b++) {
                end[b] += rnd.nextInt(3);
                current.add(
                        new ReportedBucket(
                                10, -1, b, end[b], new KvSnapshotRef(round, end[b] / 2)));
            }
            if (rnd.nextInt(20) == 0) {
                // a failover: the new coordinator knows nothing
                incarnation++;
                coordinator = new ReportedBucketStates();
            }
            for (BucketReport part : reports.next(current)) {
                if (rnd.nextInt(5) == 0) {
                    break; // lost
                }
                boolean full = coordinator.report(0, "i", part);
                reports.accepted(part, incarnation, full);
            }
        }
        // two calm beats: the first may be the full report a failover asked for
        List<ReportedBucket> last = new ArrayList<>();
        for (int b = 0; b < end.length; b++) {
            last.add(new ReportedBucket(10, -1, b, end[b], null));
        }
        for (int i = 0; i < 3; i++) {
            for (BucketReport part : reports.next(last)) {
                reports.accepted(part, incarnation, coordinator.report(0, "i", part));
            }
        }
        assertThat(coordinator.states(0)).as("seed %d", seed).isEqualTo(last);
    }
}
