package dev.tributary.coordinator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.TieringHarness;
import dev.tributary.coordinator.cluster.ReplicaMoves.Move;
import dev.tributary.coordinator.metadata.BucketAssignments;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.metadata.TableInfo;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Moves started as metadata records, ended once in sync, and finished by a new coordinator. */
class ReplicaMoverTest {
    private final TieringHarness h = new TieringHarness();
    private final Set<Integer> dead = new HashSet<>();

    private ReplicaMover mover(BucketAssignments assignments) {
        return new ReplicaMover(assignments, h.store, id -> !dead.contains(id));
    }

    @Test
    @DisplayName(
            "a drain starts each move as a record; the move ends once its new replica is in sync,"
                    + " and a coordinator that takes over ends what its predecessor left")
    void drainThenFinish() {
        for (int id = 1; id <= 2; id++) {
            h.store.putServer(new ServerRegistration(id, "h" + id + ":9123", "", 1));
        }
        TableInfo t = h.lakeTable("t", 2, Duration.ofMinutes(1)); // one copy per bucket
        BucketAssignments assignments = h.core.assignments();
        ReplicaMover mover = mover(assignments);
        assertThatThrownBy(() -> mover.rebalance(Set.of(7), Set.of(), false))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("server 7 is not registered");

        List<Move> dry = mover.rebalance(Set.of(1), Set.of(), true);
        assertThat(dry).hasSize(1);
        TableBucket moved = dry.get(0).bucket();
        assertThat(
                        assignments
                                .of(t.tableId(), TableBucket.NO_PARTITION)
                                .orElseThrow()
                                .replicasOf(moved.bucket())
                                .moving())
                .as("a dry run starts nothing")
                .isFalse();
        assertThat(h.store.servers().get(1).draining()).as("and marks nothing").isFalse();

        assertThat(mover.rebalance(Set.of(1), Set.of(), false)).isEqualTo(dry);
        BucketReplicas moving = replicas(assignments, moved);
        assertThat(moving.replicas()).containsExactly(1, 2);
        assertThat(moving.target()).containsExactly(2);
        assertThat(mover.finishMoves()).as("2 is not in sync yet").isZero();

        // the leader's in-sync change lands, but this coordinator stops before ending the move
        assignments.changeBucket(moved, r -> r.withIsr(0, List.of(1, 2)));
        h.restart();
        BucketAssignments after = h.core.assignments();
        assertThat(replicas(after, moved).moving()).as("durable").isTrue();
        assertThat(mover(after).finishMoves()).isEqualTo(1);
        assertThat(replicas(after, moved))
                .isEqualTo(new BucketReplicas(List.of(2), 2, 1, List.of(2)));
        assertThat(after.load()).containsEntry(2, 2).doesNotContainKey(1);
    }

    @Test
    @DisplayName(
            "a move onto a server that died is undone by draining that server: the bucket is back"
                    + " on its in-sync replica at once")
    void drainingADeadTargetUndoesTheMove() {
        for (int id = 1; id <= 2; id++) {
            h.store.putServer(new ServerRegistration(id, "h" + id + ":9123", "", 1));
        }
        h.lakeTable("t", 2, Duration.ofMinutes(1)); // one copy per bucket
        BucketAssignments assignments = h.core.assignments();
        ReplicaMover mover = mover(assignments);
        TableBucket moved = mover.rebalance(Set.of(1), Set.of(), false).get(0).bucket();
        assertThat(replicas(assignments, moved).replicas()).containsExactly(1, 2);

        dead.add(2);
        // (the bucket 2 held from the start moves too, and waits for 2: its only copy)
        // (1 is undrained: with both draining no server could receive anything)
        List<Move> undo = mover.rebalance(Set.of(2), Set.of(1), false);
        assertThat(undo).contains(new Move(moved, List.of(2), List.of(1)));
        assertThat(replicas(assignments, moved))
                .isEqualTo(new BucketReplicas(List.of(1), 1, 0, List.of(1)));
    }

    @Test
    @DisplayName(
            "a drained server stays drained, across its restart and a new coordinator: new tables"
                    + " and later rebalances place nothing on it until it is undrained")
    void aDrainPersistsUntilUndrained() {
        for (int id = 1; id <= 3; id++) {
            h.store.putServer(new ServerRegistration(id, "h" + id + ":9123", "", 1));
        }
        h.lakeTable("t", 3, Duration.ofMinutes(1)); // one copy per bucket, one per server
        ReplicaMover mover = mover(h.core.assignments());
        assertThatThrownBy(() -> mover.rebalance(Set.of(3), Set.of(3), false))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("server 3 is named to drain and to undrain");
        List<Move> drained = mover.rebalance(Set.of(3), Set.of(), false);
        assertThat(drained).hasSize(1);
        h.core.assignments().changeBucket(drained.get(0).bucket(), r -> r.withIsr(0, r.replicas()));
        assertThat(mover.finishMoves()).isEqualTo(1);

        // server 3 restarts (registers again) and a coordinator takes over
        h.store.putServer(new ServerRegistration(3, "h3:9124", "", 2, "disk-3"));
        h.restart();
        assertThat(h.store.servers().get(3).draining()).isTrue();
        ReplicaMover next = mover(h.core.assignments());
        assertThat(next.rebalance(Set.of(), Set.of(), false)).as("nothing moves back").isEmpty();
        h.lakeTable("u", 4, Duration.ofMinutes(1));
        assertThat(h.core.assignments().load()).containsEntry(1, 4).containsEntry(2, 3);
        assertThat(h.core.assignments().load()).doesNotContainKey(3);

        List<Move> back = next.rebalance(Set.of(), Set.of(3), false);
        assertThat(back).hasSize(2).allSatisfy(m -> assertThat(m.to()).containsExactly(3));
        assertThat(h.store.servers().get(3).draining()).isFalse();
    }

    @Test
    @DisplayName(
            "cancelling puts each moving bucket back on its replicas before, durably; the drain"
                    + " mark stays, and a dry run cancels nothing")
    void cancelMoves() {
        for (int id = 1; id <= 2; id++) {
            h.store.putServer(new ServerRegistration(id, "h" + id + ":9123", "", 1));
        }
        h.lakeTable("t", 2, Duration.ofMinutes(1)); // one copy per bucket
        BucketAssignments assignments = h.core.assignments();
        ReplicaMover mover = mover(assignments);
        assertThat(mover.cancelMoves(false)).as("nothing moves").isEmpty();
        TableBucket moved = mover.rebalance(Set.of(1), Set.of(), false).get(0).bucket();
        BucketReplicas moving = replicas(assignments, moved);

        List<Move> dry = mover.cancelMoves(true);
        assertThat(dry).containsExactly(new Move(moved, List.of(2), List.of(1)));
        assertThat(replicas(assignments, moved)).isEqualTo(moving);

        assertThat(mover.cancelMoves(false)).isEqualTo(dry);
        h.restart();
        assertThat(replicas(h.core.assignments(), moved))
                .isEqualTo(new BucketReplicas(List.of(1), 1, 0, List.of(1)));
        assertThat(h.store.servers().get(1).draining()).isTrue();
    }

    private static BucketReplicas replicas(BucketAssignments a, TableBucket bucket) {
        return a.of(bucket.tableId(), bucket.partitionId())
                .orElseThrow()
                .replicasOf(bucket.bucket());
    }
}
