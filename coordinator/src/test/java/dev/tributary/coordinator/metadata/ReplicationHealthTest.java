package dev.tributary.coordinator.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The under-replicated, leaderless and preferred-leader counts an operator alerts on. */
class ReplicationHealthTest {

    @Test
    void countsBucketsOutsideFullSyncWithoutALeaderAndOffTheirPreferredLeader() {
        BucketReplicas three = BucketReplicas.initial(List.of(1, 2, 3));
        BucketReplicas followerDown = three.afterServerDied(3, Set.of(1, 2)::contains);
        // every in-sync replica down: no leader, the in-sync set kept as it was; counted as
        // leaderless, not as under-replicated
        BucketReplicas allDown =
                BucketReplicas.initial(List.of(2, 3)).afterServerDied(2, Set.of(1)::contains);
        allDown = allDown.afterServerDied(3, Set.of(1)::contains);
        assertThat(allDown.hasLeader()).isFalse();

        // its first replica down: led by the next, off its preferred leader (and under-replicated)
        BucketReplicas failedOver = three.afterServerDied(1, Set.of(2, 3)::contains);

        BucketAssignment table =
                new BucketAssignment(7, -1, List.of(three, followerDown, allDown, failedOver));
        BucketAssignment partition = new BucketAssignment(8, 4, List.of(BucketReplicas.single(1)));

        assertThat(ReplicationHealth.of(List.of(table, partition)))
                .isEqualTo(new ReplicationHealth(5, 2, 1, 0, 1));
        assertThat(ReplicationHealth.of(List.of())).isEqualTo(new ReplicationHealth(0, 0, 0, 0, 0));
    }
}
