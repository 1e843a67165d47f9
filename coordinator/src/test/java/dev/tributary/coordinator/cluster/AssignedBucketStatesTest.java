package dev.tributary.coordinator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.TieringHarness;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.spi.BucketState;
import dev.tributary.coordinator.spi.KvSnapshotRef;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** T49: buckets of the coordinator's own server read locally, the others from heartbeats. */
class AssignedBucketStatesTest {
    private final TieringHarness h = new TieringHarness();
    private final ReportedBucketStates reported = new ReportedBucketStates();
    private final AssignedBucketStates states = new AssignedBucketStates(h.buckets, 0);

    @Test
    void ownBucketsAreLocalOthersReportedNeverReportedIsEmpty() {
        TableInfo unassigned = h.lakeTable("early", 2, Duration.ofMinutes(1));
        for (int id = 0; id < 3; id++) {
            h.store.putServer(new ServerRegistration(id, "h" + id + ":9123", "", 1));
        }
        TableInfo t = h.lakeTable("t", 3, Duration.ofMinutes(1));
        assertThat(
                        h.core.assignments()
                                .of(t.tableId(), TableBucket.NO_PARTITION)
                                .orElseThrow()
                                .servers())
                .containsExactly(0, 1, 2);
        h.buckets.write(t.tableId(), 0, 10);
        h.buckets.write(t.tableId(), 1, 99); // not this server's bucket: its local copy is ignored
        h.buckets.write(unassigned.tableId(), 1, 5);

        // before wiring: everything is local, as for a coordinator without membership
        assertThat(states.bucketStates(t.tableId(), t.path(), 3))
                .extracting(BucketState::endOffset)
                .containsExactly(10L, 99L, 0L);

        states.use(h.core.assignments(), reported);
        reported.report(
                1,
                "i",
                BucketReport.delta(
                        List.of(
                                new ReportedBucket(
                                        t.tableId(), -1, 1, 40, new KvSnapshotRef(3, 30)))));
        assertThat(states.bucketStates(t.tableId(), t.path(), 3))
                .containsExactly(
                        BucketState.log(0, 10),
                        new BucketState(1, 40, new KvSnapshotRef(3, 30)),
                        // server 2 reported nothing yet: nothing to tier, and not a bucket
                        // that really ends at 0
                        BucketState.notReported(2));
        // an expired server's last report still counts (up to what it reported)
        reported.markStale(List.of(1));
        assertThat(states.bucketStates(t.tableId(), t.path(), 3).get(1).endOffset()).isEqualTo(40);
        // a table assigned before any server registered is read locally
        assertThat(h.core.assignments().of(unassigned.tableId(), TableBucket.NO_PARTITION))
                .isEmpty();
        assertThat(states.bucketStates(unassigned.tableId(), unassigned.path(), 2))
                .extracting(BucketState::endOffset)
                .containsExactly(0L, 5L);
    }

    @Test
    void partitionsGrowingOnOtherServersAreDrained() {
        for (int id = 0; id < 2; id++) {
            h.store.putServer(new ServerRegistration(id, "h" + id + ":9123", "", 1));
        }
        states.use(h.core.assignments(), reported);
        reported.report(1, "i", BucketReport.delta(List.of(new ReportedBucket(7, 70, 0, 3, null))));
        // the own server's reports are in the local store's changes already
        reported.report(0, "j", BucketReport.delta(List.of(new ReportedBucket(7, 71, 0, 3, null))));
        assertThat(states.drainChangedPartitions(7)).containsExactly(70L);
        assertThat(states.drainChangedPartitions(7)).isEmpty();
    }
}
