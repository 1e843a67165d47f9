package dev.tributary.bench.cluster;

import dev.tributary.cluster.ClusterConfig;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.store.TieringRecord;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** The metadata the cluster benches write, and their small shared helpers. */
final class MetadataBenchData {
    /** Applied entries between two Raft snapshots in the benches (the option's default). */
    static final long SNAPSHOT_THRESHOLD = 10_000;

    /** The Raft log segment size in the benches (the option's default, 8 MiB). */
    static final long SEGMENT_BYTES = 8L << 20;

    private static final Schema SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("user_id", DataTypes.INT())
                    .column("amount", DataTypes.DOUBLE())
                    .column("payload", DataTypes.STRING())
                    .primaryKey("id")
                    .build();

    private MetadataBenchData() {}

    /** A lake-enabled PK table of 4 buckets, about what {@code CREATE TABLE} stores. */
    static TableInfo table(long id) {
        TableDescriptor d =
                TableDescriptor.builder(SCHEMA)
                        .bucketCount(4)
                        .property("table.datalake.enabled", "true")
                        .property("table.datalake.freshness", "1min")
                        .build();
        return TableInfo.create(id, TablePath.of("bench", "t" + id), d, 1_764_000_000_000L + id);
    }

    /** A round's commit record for a table of 4 buckets, all at {@code offset}. */
    static TieringRecord record(long tableId, long offset) {
        Map<PartitionBucket, Long> offsets =
                Map.of(
                        new PartitionBucket(-1, 0), offset,
                        new PartitionBucket(-1, 1), offset,
                        new PartitionBucket(-1, 2), offset,
                        new PartitionBucket(-1, 3), offset);
        return TieringRecord.initial(tableId, 1)
                .afterRound(offsets, 1_764_000_000_000L + offset, offset, 1L << 32, 1, false, null);
    }

    /** {@code count} voters on loopback, each on a free port. */
    static List<ClusterConfig.Voter> loopbackVoters(int count) throws IOException {
        List<ClusterConfig.Voter> voters = new ArrayList<>();
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int i = 1; i <= count; i++) {
                // held open together so the ports differ
                ServerSocket s = new ServerSocket(0);
                held.add(s);
                voters.add(new ClusterConfig.Voter(i, "127.0.0.1", s.getLocalPort()));
            }
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
        return voters;
    }

    static ClusterConfig config(
            String clusterId,
            int serverId,
            List<ClusterConfig.Voter> voters,
            Duration electionTimeout,
            Duration requestTimeout) {
        return new ClusterConfig(
                clusterId,
                serverId,
                voters,
                electionTimeout,
                requestTimeout,
                SNAPSHOT_THRESHOLD,
                SEGMENT_BYTES);
    }

    /** p50/p99/max of some durations in nanoseconds. */
    record Percentiles(long p50, long p99, long max, int count) {
        static Percentiles of(long[] nanos) {
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            int n = sorted.length;
            if (n == 0) {
                return new Percentiles(0, 0, 0, 0);
            }
            return new Percentiles(rank(sorted, 0.50), rank(sorted, 0.99), sorted[n - 1], n);
        }

        /** Nearest-rank percentile. */
        private static long rank(long[] sorted, double q) {
            int idx = (int) Math.ceil(q * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, idx))];
        }
    }

    /** The 1-minute load average, or "?" if the system does not say. */
    static String loadAverage() {
        double l =
                java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                        .getSystemLoadAverage();
        return l < 0 ? "?" : String.format(java.util.Locale.ROOT, "%.2f", l);
    }
}
