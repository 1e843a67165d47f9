package dev.tributary.coordinator.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.id.TableBucket;
import dev.tributary.common.time.ManualClock;
import dev.tributary.coordinator.TieringHarness;
import dev.tributary.coordinator.store.FileMetadataStore;
import dev.tributary.coordinator.tiering.TieringConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** T49: buckets assigned to the registered servers, balanced by count, durable, gone with drops. */
class BucketAssignmentsTest {
    @TempDir Path dir;

    @Test
    void t49_eachBucketGoesToTheServerHoldingFewestTiesToTheLowestId() {
        assertThat(
                        BucketAssignments.balance(
                                6, 1, new TreeSet<>(List.of(1, 2, 3)), Map.of(), Map.of()))
                .containsExactly(
                        List.of(1), List.of(2), List.of(3), List.of(1), List.of(2), List.of(3));
        assertThat(
                        BucketAssignments.balance(
                                4,
                                1,
                                new TreeSet<>(List.of(1, 2, 3)),
                                Map.of(1, 4, 3, 1, 9, 100),
                                Map.of()))
                .as("what servers already hold counts; unknown servers do not")
                .containsExactly(List.of(2), List.of(2), List.of(3), List.of(2));
        assertThatThrownBy(
                        () -> BucketAssignments.balance(1, 1, new TreeSet<>(), Map.of(), Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void eachBucketsReplicasLandOnDistinctServersBalancedByReplicasHeld() {
        SortedSet<Integer> three = new TreeSet<>(List.of(1, 2, 3));
        assertThat(BucketAssignments.balance(3, 3, three, Map.of(), Map.of()))
                .as("every server holds every bucket, and each leads one")
                .containsExactly(List.of(1, 2, 3), List.of(2, 1, 3), List.of(3, 1, 2));
        assertThat(BucketAssignments.balance(1, 3, three, Map.of(), Map.of(1, 1, 2, 1)))
                .as("the replica leading fewest buckets leads")
                .containsExactly(List.of(3, 1, 2));
        SortedSet<Integer> four = new TreeSet<>(List.of(1, 2, 3, 4));
        List<List<Integer>> placed = BucketAssignments.balance(8, 3, four, Map.of(1, 2), Map.of());
        assertThat(placed).allSatisfy(r -> assertThat(r).doesNotHaveDuplicates().hasSize(3));
        Map<Integer, Integer> held = new java.util.HashMap<>(Map.of(1, 2));
        placed.forEach(r -> r.forEach(s -> held.merge(s, 1, Integer::sum)));
        assertThat(held).as("26 replicas over 4 servers").containsValues(6, 7);
        assertThat(held.values()).allSatisfy(n -> assertThat(n).isBetween(6, 7));
        assertThatThrownBy(() -> BucketAssignments.balance(1, 4, three, Map.of(), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("4 replicas per bucket need as many servers");
    }

    @Test
    void t49_expiredServersGetNoNewBucketsWhileAnotherServerIsLeft() {
        TieringHarness h = new TieringHarness();
        for (int id = 0; id < 3; id++) {
            h.store.putServer(new ServerRegistration(id, "h" + id + ":9123", "", 1));
        }
        Set<Integer> expired = new HashSet<>(List.of(1));
        h.core.assignments().skipServersWhen(expired::contains);
        TableInfo a = h.lakeTable("a", 4, Duration.ofMinutes(1));
        assertThat(
                        h.core.assignments()
                                .of(a.tableId(), TableBucket.NO_PARTITION)
                                .orElseThrow()
                                .servers())
                .containsExactly(0, 2, 0, 2);
        expired.addAll(List.of(0, 2));
        TableInfo b = h.lakeTable("b", 2, Duration.ofMinutes(1));
        assertThat(
                        h.core.assignments()
                                .of(b.tableId(), TableBucket.NO_PARTITION)
                                .orElseThrow()
                                .servers())
                .as("every server expired: the buckets still need one")
                .containsExactly(1, 1);
    }

    @Test
    void t49_tablesAndPartitionsAreAssignedOnceServersRegisterAndTheAssignmentsAreDurable() {
        FileMetadataStore store = FileMetadataStore.open(dir);
        ManualClock clock = new ManualClock(1_000_000_000L);
        TieringHarness h = new TieringHarness(TieringConfig.defaults(), store, clock);
        BucketAssignments assignments = h.core.assignments();

        TableInfo early = h.lakeTable("early", 4, Duration.ofMinutes(1));
        assertThat(assignments.of(early.tableId(), TableBucket.NO_PARTITION))
                .as("no server registered yet")
                .isEmpty();
        store.putServer(new ServerRegistration(0, "h0:9123", "", 1));
        assertThat(h.core.assignMissingBuckets()).isEqualTo(1);
        assertThat(
                        assignments
                                .of(early.tableId(), TableBucket.NO_PARTITION)
                                .orElseThrow()
                                .servers())
                .as("a lone server holds every bucket")
                .containsExactly(0, 0, 0, 0);
        assertThat(h.core.assignMissingBuckets()).as("nothing left to assign").isZero();

        // two more servers: new buckets go to them first, until the counts are even
        store.putServer(new ServerRegistration(1, "h1:9123", "", 2));
        store.putServer(new ServerRegistration(2, "h2:9123", "", 3));
        TableInfo wide = h.lakeTable("wide", 10, Duration.ofMinutes(1));
        assertThat(assignments.of(wide.tableId(), TableBucket.NO_PARTITION).orElseThrow().servers())
                .containsExactly(1, 2, 1, 2, 1, 2, 1, 2, 0, 1);
        assertThat(assignments.load()).containsExactlyInAnyOrderEntriesOf(Map.of(0, 5, 1, 5, 2, 4));

        TableInfo events = h.partitionedTable("events", 3, Duration.ofMinutes(1));
        assertThat(assignments.of(events.tableId(), TableBucket.NO_PARTITION))
                .as("a partitioned table's buckets are its partitions'")
                .isEmpty();
        long day1 = h.addPartition(events, "2026-12-01");
        long day2 = h.addPartition(events, "2026-12-02");
        assertThat(assignments.of(events.tableId(), day1).orElseThrow().servers())
                .containsExactly(2, 0, 1);
        assertThat(assignments.of(events.tableId(), day2).orElseThrow().servers())
                .containsExactly(2, 0, 1);

        // durable: a restarted coordinator finds the same assignments, in the same order
        List<BucketAssignment> before = assignments.all();
        assertThat(before).hasSize(4);
        h.store.close();
        h.restart(FileMetadataStore.open(dir));
        assertThat(h.core.assignments().all()).isEqualTo(before);
        assertThat(h.store.load().assignments().values()).containsExactlyElementsOf(before);

        // gone with the partition and with the table, in memory and in the store
        assertThat(
                        h.core.removePartition(
                                events.tableId(), day1, Map.of(0, 0L, 1, 0L, 2, 0L), false))
                .isEmpty();
        assertThat(h.core.assignments().of(events.tableId(), day1)).isEmpty();
        h.core.dropTable(wide.path(), false);
        assertThat(h.core.assignments().of(wide.tableId(), TableBucket.NO_PARTITION)).isEmpty();
        assertThat(h.store.load().assignments().values())
                .extracting(BucketAssignment::group)
                .containsExactly(
                        new BucketAssignment.Group(early.tableId(), TableBucket.NO_PARTITION),
                        new BucketAssignment.Group(events.tableId(), day2));
        h.store.close();
    }
}
