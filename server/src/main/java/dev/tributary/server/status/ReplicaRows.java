package dev.tributary.server.status;

import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.server.store.LocalBuckets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The console's replicas of a table (T50): one row per bucket with its partition, leader, leader
 * epoch, replicas, in-sync replicas and the replicas it moves to (empty when it does not), in the
 * JSON shape the table page draws.
 */
public final class ReplicaRows {
    /** Partitions of a partitioned table whose buckets the table page lists. */
    public static final int MAX_PARTITIONS = 20;

    private ReplicaRows() {}

    public static List<Map<String, Object>> of(List<LocalBuckets.NamedLeaders> groups) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (LocalBuckets.NamedLeaders g : groups) {
            for (LocalBuckets.Leader l : g.leaders().leaders()) {
                BucketReplicas r = l.replicas();
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("partition", g.partition());
                row.put("bucket", l.bucket());
                row.put("leader", r.hasLeader() ? r.leader() : null);
                row.put("leaderEpoch", r.leaderEpoch());
                row.put("replicas", r.replicas());
                row.put("inSync", r.isr());
                row.put("moveTarget", r.target());
                rows.add(row);
            }
        }
        return rows;
    }
}
