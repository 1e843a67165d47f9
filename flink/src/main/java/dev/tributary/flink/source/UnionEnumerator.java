package dev.tributary.flink.source;

import dev.tributary.client.Connection;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.union.BucketReadState;
import dev.tributary.union.UnionPlan;
import dev.tributary.union.UnionScan;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans the union read once per query (lake snapshot first, then the store's end offsets, see
 * {@link UnionScan#plan()}) and hands out one split per bucket on request. Planning runs on Flink's
 * worker pool ({@code callAsync}); everything else on the enumerator thread.
 */
final class UnionEnumerator implements SplitEnumerator<UnionSplit, UnionEnumeratorState> {
    private static final Logger LOG = LoggerFactory.getLogger(UnionEnumerator.class);

    private final SplitEnumeratorContext<UnionSplit> context;
    private final UnionSourceSpec spec;
    private final Deque<UnionSplit> unassigned = new ArrayDeque<>();
    private final Set<Integer> signalled = new LinkedHashSet<>();
    private boolean planned;

    UnionEnumerator(
            SplitEnumeratorContext<UnionSplit> context,
            UnionSourceSpec spec,
            UnionEnumeratorState restored) {
        this.context = context;
        this.spec = spec;
        if (restored != null) {
            this.planned = restored.planned();
            this.unassigned.addAll(restored.unassigned());
        }
    }

    @Override
    public void start() {
        if (!planned) {
            context.callAsync(this::plan, this::planned);
        }
    }

    private List<UnionSplit> plan() throws Exception {
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
                return splits;
            } finally {
                if (lake != null) {
                    lake.close();
                }
            }
        }
    }

    private void planned(List<UnionSplit> splits, Throwable error) {
        if (error != null) {
            throw new IllegalStateException(
                    "planning the union read of " + spec.table() + " failed: " + error.getMessage(),
                    error);
        }
        planned = true;
        unassigned.addAll(splits);
        assignPending();
    }

    /**
     * Pushes every split to its owner (bucket modulo parallelism) once the owner is registered: a
     * following split never ends, so waiting for requests would starve buckets beyond the
     * parallelism. Each reader then learns there is nothing more for it.
     */
    private void assignPending() {
        if (!planned) {
            return;
        }
        int parallelism = context.currentParallelism();
        for (int reader : context.registeredReaders().keySet()) {
            List<UnionSplit> mine = new ArrayList<>();
            for (UnionSplit s : new ArrayList<>(unassigned)) {
                if (s.state().bucket() % parallelism == reader) {
                    mine.add(s);
                    unassigned.remove(s);
                }
            }
            mine.forEach(s -> context.assignSplit(s, reader));
            if (!signalled.contains(reader)) {
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
        return new UnionEnumeratorState(planned, new ArrayList<>(unassigned));
    }

    @Override
    public void close() {}
}
