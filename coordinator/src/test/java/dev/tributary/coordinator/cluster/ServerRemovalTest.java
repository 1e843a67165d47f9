package dev.tributary.coordinator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.TieringHarness;
import dev.tributary.coordinator.metadata.BucketAssignments;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.metadata.TableInfo;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A server leaves the registrations only once stopped and holding no replica (issue 23). */
class ServerRemovalTest {
    private final TieringHarness h = new TieringHarness();
    private final Set<Integer> expired = new HashSet<>();

    @Test
    void onlyAStoppedServerHoldingNoReplicaIsRemovedAndTheRemovalIsDurable() {
        for (int id = 1; id <= 2; id++) {
            h.store.putServer(new ServerRegistration(id, "h" + id + ":9123", "", 1));
        }
        TableInfo t = h.lakeTable("t", 2, Duration.ofMinutes(1)); // one copy per bucket
        BucketAssignments assignments = h.core.assignments();
        ServerRemoval removal = new ServerRemoval(assignments, h.store, expired::contains);

        assertThatThrownBy(() -> removal.remove(7, false))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("server 7 is not registered; the servers are [1, 2]");
        assertThatThrownBy(() -> removal.remove(2, false))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("server 2 is alive: stop it first");
        expired.add(2);
        assertThatThrownBy(() -> removal.remove(2, false))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("server 2 still holds replicas of 1 bucket")
                .hasMessageContaining("tributary cluster rebalance --drain 2");

        // a move onto it names it too, as a target
        TableBucket onTwo =
                new TableBucket(
                        t.tableId(),
                        TableBucket.NO_PARTITION,
                        assignments
                                .of(t.tableId(), TableBucket.NO_PARTITION)
                                .orElseThrow()
                                .servers()
                                .indexOf(2));
        assignments.changeBucket(onTwo, r -> r.moveTo(List.of(1)));
        assertThatThrownBy(() -> removal.remove(2, true))
                .hasMessageContaining("still holds replicas of 1 bucket");
        assignments.changeBucket(onTwo, r -> r.withIsr(0, List.of(2, 1)).finishMove(id -> true));
        assertThat(assignments.load()).doesNotContainKey(2);

        removal.remove(2, true);
        assertThat(h.store.servers()).as("a dry run removes nothing").containsKey(2);
        removal.remove(2, false);
        assertThat(h.store.servers()).containsOnlyKeys(1);
        h.restart();
        assertThat(h.store.servers()).as("durable").containsOnlyKeys(1);
    }
}
