package dev.tributary.flink.source;

import dev.tributary.client.Connection;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.union.BucketReadState;
import dev.tributary.union.UnionPlan;
import dev.tributary.union.UnionScan;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans the union read once per query (lake snapshot first, then the store's end offsets, see
 * {@link UnionScan#plan()}) and hands out one split per bucket, per (partition, bucket) for a
 * partitioned table. A streaming read of a partitioned table also lists the table's partitions
 * every {@code scan.partition.discovery-interval} and plans each new one the same way (the lake's
 * newest snapshot, then its end offsets); a dropped partition's splits end on their readers.
 * Planning and discovery run on Flink's worker pool ({@code callAsync}); everything else on the
 * enumerator thread.
 */
final class UnionEnumerator implements SplitEnumerator<UnionSplit, UnionEnumeratorState> {
    private static final Logger LOG = LoggerFactory.getLogger(UnionEnumerator.class);

    private final SplitEnumeratorContext<UnionSplit> context;
    private final UnionSourceSpec spec;
    private final Deque<UnionSplit> unassigned = new ArrayDeque<>();
    private final Set<Integer> signalled = new LinkedHashSet<>();
    // written on the enumerator thread, read by discovery on the worker pool
    private final Set<Long> knownPartitions = ConcurrentHashMap.newKeySet();
    private boolean planned;
    private boolean partitioned;
    // discovery's connection, used on the worker pool only (calls there run one at a time)
    private volatile Discovery discovery;

    UnionEnumerator(
            SplitEnumeratorContext<UnionSplit> context,
            UnionSourceSpec spec,
            UnionEnumeratorState restored) {
        this.context = context;
        this.spec = spec;
        if (restored != null) {
            this.planned = restored.planned();
            this.partitioned = restored.partitioned();
            this.knownPartitions.addAll(restored.knownPartitions());
            this.unassigned.addAll(restored.unassigned());
        }
    }

    /** What planning found: the splits and whether the table is partitioned. */
    private record Planned(List<UnionSplit> splits, boolean partitioned) {}

    @Override
    public void start() {
        if (!planned) {
            context.callAsync(this::plan, this::planned);
        } else {
            startDiscovery();
        }
    }

    private Planned plan() throws Exception {
        try (Connection conn = spec.connection().connect()) {
            LakeStorage lake = spec.connection().openLake(conn).orElse(null);
            try (UnionScan scan = spec.scan(conn, lake)) {
                UnionPlan plan = scan.plan();
                LOG.info(
                        "union read of {}: lake snapshot {}, {} records from the lake, {} from"
                                + " the store; buckets {}",
                        spec.table(),
                        plan.snapshot().map(s -> Long.toString(s.snapshotId())).orElse("none"),
                        plan.lakeRecords(),
                        plan.storeRecords(),
                        plan.buckets());
                List<UnionSplit> splits = new ArrayList<>();
                for (BucketReadState b : plan.buckets()) {
                    splits.add(new UnionSplit(b));
                }
                return new Planned(splits, scan.table().descriptor().isPartitioned());
            } finally {
                if (lake != null) {
                    lake.close();
                }
            }
        }
    }

    private void planned(Planned result, Throwable error) {
        if (error != null) {
            throw new IllegalStateException(
                    "planning the union read of " + spec.table() + " failed: " + error.getMessage(),
                    error);
        }
        planned = true;
        partitioned = result.partitioned();
        addSplits(result.splits());
        assignPending();
        startDiscovery();
    }

    private boolean discovers() {
        return planned && partitioned && spec.follow();
    }

    private void startDiscovery() {
        if (!discovers()) {
            return;
        }
        long every = Math.max(1, spec.partitionDiscoveryInterval().toMillis());
        context.callAsync(this::discover, this::discovered, every, every);
    }

    /** Splits of partitions not planned yet (worker pool). */
    private List<UnionSplit> discover() throws Exception {
        if (discovery == null) {
            discovery = new Discovery(spec);
        }
        try {
            return discovery.newSplits(Set.copyOf(knownPartitions));
        } catch (RuntimeException e) {
            // a server that is briefly away fails one listing, not the job: try again next time
            LOG.warn("listing the partitions of {} failed: {}", spec.table(), e.toString());
            discovery.close();
            discovery = null;
            return List.of();
        }
    }

    private void discovered(List<UnionSplit> splits, Throwable error) {
        if (error != null) {
            throw new IllegalStateException(
                    "discovering partitions of " + spec.table() + " failed: " + error.getMessage(),
                    error);
        }
        List<UnionSplit> fresh = new ArrayList<>();
        for (UnionSplit s : splits) {
            // an earlier listing whose result came in meanwhile may have planned it already
            if (!knownPartitions.contains(s.state().partitionId())) {
                fresh.add(s);
            }
        }
        if (fresh.isEmpty()) {
            return;
        }
        Set<Long> ids = new TreeSet<>();
        fresh.forEach(s -> ids.add(s.state().partitionId()));
        LOG.info("union read of {}: new partitions {}", spec.table(), ids);
        addSplits(fresh);
        assignPending();
    }

    private void addSplits(List<UnionSplit> splits) {
        for (UnionSplit s : splits) {
            if (s.state().isPartitioned()) {
                knownPartitions.add(s.state().partitionId());
            }
            unassigned.add(s);
        }
    }

    /**
     * Pushes every split to its owner ({@link UnionSplit#owner}) once the owner is registered: a
     * following split never ends, so waiting for requests would starve buckets beyond the
     * parallelism. Each reader then learns there is nothing more for it, unless partitions are
     * discovered (their splits come later).
     */
    private void assignPending() {
        if (!planned) {
            return;
        }
        int parallelism = context.currentParallelism();
        for (int reader : context.registeredReaders().keySet()) {
            List<UnionSplit> mine = new ArrayList<>();
            for (UnionSplit s : new ArrayList<>(unassigned)) {
                if (s.owner(parallelism) == reader) {
                    mine.add(s);
                    unassigned.remove(s);
                }
            }
            mine.forEach(s -> context.assignSplit(s, reader));
            if (!discovers() && !signalled.contains(reader)) {
                signalled.add(reader);
                context.signalNoMoreSplits(reader);
            }
        }
    }

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {
        // splits are pushed to their owners, see assignPending
    }

    @Override
    public void addSplitsBack(List<UnionSplit> splits, int subtaskId) {
        splits.forEach(unassigned::addFirst);
        signalled.remove(subtaskId);
    }

    @Override
    public void addReader(int subtaskId) {
        assignPending();
    }

    @Override
    public UnionEnumeratorState snapshotState(long checkpointId) {
        return new UnionEnumeratorState(
                planned, partitioned, new TreeSet<>(knownPartitions), new ArrayList<>(unassigned));
    }

    @Override
    public void close() {
        Discovery d = discovery;
        if (d != null) {
            d.close();
        }
    }

    /** The connection and lake that partition discovery keeps open between listings. */
    private static final class Discovery implements AutoCloseable {
        private final Connection connection;
        private final LakeStorage lake;
        private final UnionScan scan;

        Discovery(UnionSourceSpec spec) {
            this.connection = spec.connection().connect();
            this.lake = spec.connection().openLake(connection).orElse(null);
            this.scan = spec.scan(connection, lake);
        }

        /** Start states of the partitions that exist and are not in {@code known}. */
        List<UnionSplit> newSplits(Set<Long> known) {
            // the snapshot first: its offsets never exceed the end offsets planning reads after
            Optional<LakeSnapshot> snapshot = scan.latestTieringSnapshot();
            SortedMap<Long, String> partitions = scan.listPartitions();
            partitions.keySet().removeAll(known);
            List<UnionSplit> out = new ArrayList<>();
            for (BucketReadState b : scan.planPartitions(snapshot, partitions)) {
                out.add(new UnionSplit(b));
            }
            return out;
        }

        @Override
        public void close() {
            scan.close();
            if (lake != null) {
                lake.close();
            }
            connection.close();
        }
    }
}
