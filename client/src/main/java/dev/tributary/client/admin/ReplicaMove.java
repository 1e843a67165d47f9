package dev.tributary.client.admin;

import dev.tributary.common.id.TablePath;
import java.util.List;
import java.util.Optional;

/**
 * One bucket moving to other servers ({@link Admin#moveReplicas}): its new replicas copy its log
 * from the leader, and once they are all in sync they replace the old ones.
 *
 * @param table the bucket's table
 * @param partition the partition's name, or empty for an unpartitioned table
 * @param bucket the bucket number
 * @param from the replicas before the move, the preferred leader first
 * @param to the replicas after it, the preferred leader first
 */
public record ReplicaMove(
        TablePath table,
        Optional<String> partition,
        int bucket,
        List<Integer> from,
        List<Integer> to) {
    public ReplicaMove {
        from = List.copyOf(from);
        to = List.copyOf(to);
    }
}
