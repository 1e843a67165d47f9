package dev.tributary.server.plan;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.TieredRound;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.tiering.api.BucketPlan;
import dev.tributary.tiering.api.RoundPlan;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the server sees of each tiering round besides the coordinator's summary, for the tiering
 * planner's calibration (T44): the round's shape as it was handed to the job (buckets with log and
 * snapshot work, records per bucket, so the split count and the hottest bucket are known) and how
 * long its lake commit took (timed around the lake step). The last {@link #PER_TABLE} rounds of
 * each table are kept; thread safe.
 */
public final class RoundObservations {
    /** Rounds kept per table, as many as the coordinator's round history. */
    static final int PER_TABLE = 64;

    private final Clock clock;
    private final Map<Long, LinkedHashMap<Long, Observed>> byTable = new HashMap<>();

    public RoundObservations(Clock clock) {
        this.clock = clock;
    }

    /**
     * One round as the server saw it.
     *
     * @param logBuckets buckets with log work
     * @param snapshotBuckets buckets whose split reads a KV snapshot
     * @param logRecords records of the log work over all buckets
     * @param maxBucketRecords records of the largest bucket's log work
     * @param commitMillis how long its lake commit took, -1 when it did not commit (yet)
     */
    public record Observed(
            int logBuckets,
            int snapshotBuckets,
            long logRecords,
            long maxBucketRecords,
            long commitMillis) {

        /** Largest bucket over the mean bucket with work, 1 when unknown or even. */
        public double skew() {
            if (logBuckets == 0 || logRecords == 0) {
                return 1;
            }
            return Math.max(1, maxBucketRecords / (logRecords / (double) logBuckets));
        }

        Observed withCommit(long millis) {
            return new Observed(logBuckets, snapshotBuckets, logRecords, maxBucketRecords, millis);
        }
    }

    /** A round was handed to a job. */
    public synchronized void planned(RoundPlan plan) {
        int log = 0;
        int snap = 0;
        long records = 0;
        long max = 0;
        for (BucketPlan w : plan.buckets()) {
            if (w.kind() == BucketPlan.Kind.SNAPSHOT) {
                snap++;
            } else {
                log++;
                long n = w.endOffset() - w.startOffset();
                records += n;
                max = Math.max(max, n);
            }
        }
        rounds(plan.tableId()).put(plan.roundId(), new Observed(log, snap, records, max, -1));
    }

    /** The observation of a table's round, if it was seen. */
    public synchronized Optional<Observed> round(long tableId, long roundId) {
        Map<Long, Observed> m = byTable.get(tableId);
        return m == null ? Optional.empty() : Optional.ofNullable(m.get(roundId));
    }

    private synchronized void committed(long tableId, long roundId, long millis) {
        LinkedHashMap<Long, Observed> m = rounds(tableId);
        Observed o = m.get(roundId);
        m.put(roundId, o == null ? new Observed(0, 0, 0, 0, millis) : o.withCommit(millis));
    }

    private LinkedHashMap<Long, Observed> rounds(long tableId) {
        return byTable.computeIfAbsent(
                tableId,
                id ->
                        new LinkedHashMap<>() {
                            @Override
                            protected boolean removeEldestEntry(Map.Entry<Long, Observed> e) {
                                return size() > PER_TABLE;
                            }
                        });
    }

    /** Forgets tables that are no longer lake tables. */
    public synchronized void retainTables(java.util.Set<Long> tableIds) {
        byTable.keySet().retainAll(tableIds);
    }

    /** The coordinator's lake step, timed: each commit's duration is recorded for its round. */
    public LakeCommitStep timing(LakeCommitStep lake) {
        return new LakeCommitStep() {
            @Override
            public LakeCommitResult commit(
                    TablePath path,
                    List<byte[]> writeResults,
                    TieringSnapshotProperties p,
                    TieredRound base)
                    throws Exception {
                long t0 = clock.nanoTime();
                LakeCommitResult r = lake.commit(path, writeResults, p, base);
                committed(p.tableId(), p.roundId(), (clock.nanoTime() - t0) / 1_000_000);
                return r;
            }

            @Override
            public void abort(TablePath path, List<byte[]> writeResults) throws Exception {
                lake.abort(path, writeResults);
            }

            @Override
            public List<String> deleteOrphanFiles(TablePath path, OrphanPolicy policy)
                    throws Exception {
                return lake.deleteOrphanFiles(path, policy);
            }

            @Override
            public Optional<LakeSnapshot> latestTieringSnapshot(TablePath path, long tableId)
                    throws Exception {
                return lake.latestTieringSnapshot(path, tableId);
            }
        };
    }
}
