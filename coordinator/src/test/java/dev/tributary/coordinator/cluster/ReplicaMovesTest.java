package dev.tributary.coordinator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.cluster.ReplicaMoves.Move;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.BucketReplicas;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ReplicaMovesTest {

    private static BucketAssignment table(long id, List<List<Integer>> buckets) {
        List<BucketReplicas> rs = new ArrayList<>();
        buckets.forEach(b -> rs.add(BucketReplicas.initial(b)));
        return new BucketAssignment(id, TableBucket.NO_PARTITION, rs);
    }

    /** Replicas per server once every move is done. */
    private static Map<Integer, Integer> loadAfter(List<BucketAssignment> all, List<Move> moves) {
        Map<TableBucket, List<Integer>> to = new HashMap<>();
        moves.forEach(m -> to.put(m.bucket(), m.to()));
        Map<Integer, Integer> load = new HashMap<>();
        for (BucketAssignment a : all) {
            for (int b = 0; b < a.bucketCount(); b++) {
                TableBucket tb = new TableBucket(a.tableId(), a.partitionId(), b);
                to.getOrDefault(tb, a.replicasOf(b).replicas())
                        .forEach(s -> load.merge(s, 1, Integer::sum));
            }
        }
        return load;
    }

    @Test
    @DisplayName("a new server receives replicas until every server is within one of the others")
    void evensOutOntoANewServer() {
        List<BucketAssignment> all =
                List.of(
                        table(1, List.of(List.of(1, 2), List.of(2, 1), List.of(1, 2))),
                        table(2, List.of(List.of(2, 1), List.of(1, 2))));
        List<Move> moves = ReplicaMoves.plan(all, new TreeSet<>(Set.of(1, 2, 3)), Set.of());
        Map<Integer, Integer> load = loadAfter(all, moves);
        assertThat(load).containsEntry(3, 3);
        assertThat(load.values()).allMatch(n -> n >= 3 && n <= 4);
        assertThat(moves)
                .as("each move keeps two distinct replicas and moves followers before leaders")
                .allMatch(m -> m.to().size() == 2 && m.to().get(0).equals(m.from().get(0)));
        assertThat(ReplicaMoves.plan(all, new TreeSet<>(Set.of(1, 2)), Set.of()))
                .as("already even")
                .isEmpty();
    }

    @Test
    @DisplayName(
            "a drained server ends up with no replica; a bucket with nowhere else to go is an error"
                    + " that says to add a server")
    void drains() {
        List<BucketAssignment> all =
                List.of(table(1, List.of(List.of(1, 2), List.of(2, 3), List.of(3, 1))));
        List<Move> moves = ReplicaMoves.plan(all, new TreeSet<>(Set.of(2, 3)), Set.of(1));
        assertThat(loadAfter(all, moves))
                .doesNotContainKey(1)
                .containsEntry(2, 3)
                .containsEntry(3, 3);

        assertThatThrownBy(() -> ReplicaMoves.plan(all, new TreeSet<>(), Set.of(1, 2, 3)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("no server can receive replicas");
        assertThat(ReplicaMoves.plan(List.of(), new TreeSet<>(), Set.of(1))).isEmpty();

        List<BucketAssignment> full = List.of(table(1, List.of(List.of(1, 2, 3))));
        assertThatThrownBy(() -> ReplicaMoves.plan(full, new TreeSet<>(Set.of(2, 3)), Set.of(1)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("add a server first");
    }

    @Test
    @DisplayName("a bucket already moving is not planned again, and counts where it goes")
    void leavesMovingBucketsAlone() {
        BucketAssignment a = table(1, List.of(List.of(1), List.of(1)));
        BucketAssignment moving = a.withBucket(0, a.replicasOf(0).moveTo(List.of(2)));
        List<Move> moves =
                ReplicaMoves.plan(List.of(moving), new TreeSet<>(Set.of(1, 2)), Set.of());
        assertThat(moves).isEmpty();
    }

    @Test
    @DisplayName(
            "draining a server a move is going to plans that move again: onto another server, or"
                    + " back to the replica it was leaving")
    void drainingAMovesTargetRedirectsIt() {
        BucketAssignment a = table(1, List.of(List.of(1), List.of(3)));
        BucketAssignment moving = a.withBucket(0, a.replicasOf(0).moveTo(List.of(2)));
        TableBucket first = new TableBucket(1, TableBucket.NO_PARTITION, 0);
        assertThat(ReplicaMoves.plan(List.of(moving), new TreeSet<>(Set.of(1, 3)), Set.of(2)))
                .containsExactly(new Move(first, List.of(2), List.of(1)));
        assertThat(ReplicaMoves.plan(List.of(moving), new TreeSet<>(Set.of(3, 4)), Set.of(1, 2)))
                .contains(new Move(first, List.of(2), List.of(4)));
    }
}
