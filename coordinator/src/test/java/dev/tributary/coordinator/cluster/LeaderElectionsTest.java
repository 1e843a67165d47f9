package dev.tributary.coordinator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.TieringHarness;
import dev.tributary.coordinator.metadata.BucketAssignments;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.metadata.TableInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** T51: which buckets the preferred-leader check hands back, and how many at once. */
class LeaderElectionsTest {
    private final TieringHarness h = new TieringHarness();
    private BucketAssignments assignments;
    private LeaderElections elections;
    private TableInfo t;

    /** Nine buckets with three replicas each on servers 1 to 3: each is first replica of three. */
    private void nineBucketsOnThreeServers() {
        for (int id = 1; id <= 3; id++) {
            h.store.putServer(new ServerRegistration(id, "h" + id + ":9123", "", 1));
        }
        t = h.table("t", 9, Duration.ofMinutes(1), false, Map.of("table.replication.factor", "3"));
        assignments = h.core.assignments();
        elections = new LeaderElections(assignments, id -> true);
        for (int id = 1; id <= 3; id++) {
            assertThat(preferredBy(id)).as("server %d is first replica of", id).hasSize(3);
        }
    }

    private List<TableBucket> preferredBy(int server) {
        List<TableBucket> buckets = new ArrayList<>();
        for (int b = 0; b < 9; b++) {
            if (replicas(b).replicas().get(0) == server) {
                buckets.add(new TableBucket(t.tableId(), b));
            }
        }
        return buckets;
    }

    private BucketReplicas replicas(int bucket) {
        return assignments
                .of(t.tableId(), TableBucket.NO_PARTITION)
                .orElseThrow()
                .replicasOf(bucket);
    }

    /** As a failover would: the bucket's second replica leads, in the next epoch. */
    private void secondReplicaLeads(TableBucket bucket) {
        assignments.changeBucket(
                bucket,
                r ->
                        new BucketReplicas(
                                r.replicas(), r.replicas().get(1), r.leaderEpoch() + 1, r.isr()));
    }

    private int notLedByFirstReplica() {
        int n = 0;
        for (int b = 0; b < 9; b++) {
            BucketReplicas r = replicas(b);
            n += r.leader() == r.replicas().get(0) ? 0 : 1;
        }
        return n;
    }

    @Test
    @DisplayName(
            "a server's leaderships go back only once more than the imbalance percentage of the"
                    + " buckets it is first replica of are led by others")
    void theImbalanceThresholdIsPerServer() {
        nineBucketsOnThreeServers();
        List<TableBucket> ofServer1 = preferredBy(1);
        secondReplicaLeads(ofServer1.get(0));
        // 1 of 3 (33%) is within 50%: nothing moves
        assertThat(elections.electPreferredLeaders(id -> true, 50, 100)).isZero();
        assertThat(notLedByFirstReplica()).isEqualTo(1);

        secondReplicaLeads(ofServer1.get(1));
        secondReplicaLeads(preferredBy(2).get(0));
        // server 1 at 2 of 3 (67%) is beyond 50%: both of its buckets move; server 2 at 33% stays
        assertThat(elections.electPreferredLeaders(id -> true, 50, 100)).isEqualTo(2);
        assertThat(replicas(ofServer1.get(0).bucket()).leader()).isEqualTo(1);
        assertThat(replicas(ofServer1.get(1).bucket()).leader()).isEqualTo(1);
        assertThat(replicas(preferredBy(2).get(0).bucket()).leader()).isNotEqualTo(2);

        // at 0% any bucket led by another moves, unless its first replica may not lead
        assertThat(elections.electPreferredLeaders(id -> id != 2, 0, 100)).isZero();
        assertThat(elections.electPreferredLeaders(id -> true, 0, 100)).isEqualTo(1);
        assertThat(notLedByFirstReplica()).isZero();
    }

    @Test
    @DisplayName("one check moves at most its maximum; the next check moves the rest")
    void aCheckMovesAtMostItsMaximum() {
        nineBucketsOnThreeServers();
        for (TableBucket b : preferredBy(3)) {
            secondReplicaLeads(b);
        }
        assertThat(elections.electPreferredLeaders(id -> true, 10, 2)).isEqualTo(2);
        assertThat(notLedByFirstReplica()).isEqualTo(1);
        // 1 of 3 is still beyond 10%
        assertThat(elections.electPreferredLeaders(id -> true, 10, 2)).isEqualTo(1);
        assertThat(notLedByFirstReplica()).isZero();
        assertThat(elections.electPreferredLeaders(id -> true, 10, 2)).isZero();
    }
}
