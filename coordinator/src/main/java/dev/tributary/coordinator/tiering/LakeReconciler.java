package dev.tributary.coordinator.tiering;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.coordinator.status.RoundSummary;
import dev.tributary.coordinator.store.TieringRecord;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.LongPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciliation with the lake (T21). After a restart, or after a commit whose outcome is unknown,
 * the lake may hold a snapshot the coordinator never recorded; its properties carry everything the
 * table's record needs, so it is adopted instead of tiering the same offsets twice. A snapshot that
 * cannot be reconciled with the record (malformed properties, or a lake that is behind or ahead of
 * the record in a way no crash explains) is a {@link CorruptDataException}: the table stops tiering
 * and says why, since any round from there could lose or duplicate data.
 *
 * <p>The read runs on the I/O pool and answers on the loop; the decision is a pure function of the
 * known record and the snapshot found, so the manager applies it on its own thread.
 */
final class LakeReconciler {
    private static final Logger LOG = LoggerFactory.getLogger(LakeReconciler.class);

    private final LakeCommitStep lake;
    private final Clock clock;
    private final Executor loop;
    private final Executor io;

    LakeReconciler(LakeCommitStep lake, Clock clock, Executor loop, Executor io) {
        this.lake = lake;
        this.clock = clock;
        this.loop = loop;
        this.io = io;
    }

    /**
     * Reads the table's newest tiering snapshot on the I/O pool. Exactly one of the callbacks runs,
     * on the loop: the lake is never read from the loop, and the manager's state is never touched
     * from the I/O pool.
     */
    void readLatest(
            TableInfo table,
            Consumer<Optional<LakeSnapshot>> onRead,
            Consumer<Throwable> onFailed) {
        io.execute(
                () -> {
                    Optional<LakeSnapshot> found;
                    try {
                        found = lake.latestTieringSnapshot(table.path(), table.tableId());
                    } catch (Throwable e) {
                        loop.execute(() -> onFailed.accept(e));
                        return;
                    }
                    loop.execute(() -> onRead.accept(found));
                });
    }

    /**
     * The record to adopt from {@code found}, or empty when there is nothing to adopt: no snapshot,
     * or the very round the record already names.
     *
     * @param epochCeiling the first epoch this coordinator has not issued yet in any run (the next
     *     incarnation's base): a snapshot at or above it was written by another cluster
     * @param partitionExists whether a partition of the table still exists: offsets of removed
     *     partitions (T33) in the snapshot are not adopted
     * @throws CorruptDataException when the lake and the record disagree in a way that adopting or
     *     ignoring could turn into lost or duplicated data, or the snapshot is another cluster's
     *     (wall-clock times cannot tell: clocks step back, epochs never do)
     */
    Optional<TieringRecord> adoption(
            TableInfo table,
            TieringRecord known,
            Optional<LakeSnapshot> found,
            long epochCeiling,
            LongPredicate partitionExists) {
        if (found.isEmpty()) {
            if (known.lakeSnapshotId() >= 0) {
                // snapshots expired by another engine, or the lake table replaced: the record
                // stays the truth about what was tiered, and rounds go on from it
                LOG.warn(
                        "the lake table of {} holds no tiering snapshot although round {} was"
                                + " committed as snapshot {}; continuing from the coordinator's"
                                + " record",
                        table.path(),
                        known.roundId(),
                        known.lakeSnapshotId());
            }
            return Optional.empty();
        }
        LakeSnapshot snap = found.get();
        TieringSnapshotProperties p = snap.properties();
        if (p.epoch() >= epochCeiling) {
            // same table id and path, but an epoch this coordinator never handed out: another
            // cluster (or a lost metadata directory) tiered into this lake table
            throw inconsistent(
                    table,
                    snap,
                    "it was written by another Tributary cluster (epoch "
                            + p.epoch()
                            + "; epochs of this coordinator stay below "
                            + epochCeiling
                            + ")");
        }
        if (p.epoch() == known.epoch() && p.roundId() == known.roundId()) {
            return Optional.empty();
        }
        if (p.epoch() < known.epoch()
                || (p.epoch() == known.epoch() && p.roundId() < known.roundId())) {
            throw inconsistent(
                    table,
                    snap,
                    "its newest tiering snapshot is of epoch "
                            + p.epoch()
                            + " round "
                            + p.roundId()
                            + ", older than the coordinator's last commit (epoch "
                            + known.epoch()
                            + " round "
                            + known.roundId()
                            + "): the lake table was rolled back or replaced");
        }
        for (Map.Entry<PartitionBucket, Long> e : known.offsets().asSortedMap().entrySet()) {
            Long lakeOffset = p.offsets().get(e.getKey());
            if (lakeOffset == null || lakeOffset < e.getValue()) {
                throw inconsistent(
                        table,
                        snap,
                        "its newest tiering snapshot (epoch "
                                + p.epoch()
                                + ") has bucket "
                                + e.getKey()
                                + " at offset "
                                + lakeOffset
                                + ", behind the coordinator's "
                                + e.getValue());
            }
        }
        // an older writer may not have stamped the commit time: the adoption time is the best bound
        long at = p.committedAtMillis() > 0 ? p.committedAtMillis() : clock.currentTimeMillis();
        Map<PartitionBucket, Long> lakeOffsets = new java.util.HashMap<>();
        p.offsets()
                .forEach(
                        (pb, o) -> {
                            if (!pb.isPartitioned() || partitionExists.test(pb.partitionId())) {
                                lakeOffsets.put(pb, o);
                            }
                        });
        TieringRecord adopted =
                known.afterRound(
                        lakeOffsets,
                        at,
                        snap.snapshotId(),
                        p.epoch(),
                        p.roundId(),
                        false,
                        RoundSummary.adopted(p.epoch(), p.roundId(), at, snap.snapshotId()));
        LOG.warn(
                "adopting lake snapshot {} of {} (epoch {}, round {}) that the coordinator had"
                        + " not recorded",
                snap.snapshotId(),
                table.path(),
                p.epoch(),
                p.roundId());
        return Optional.of(adopted);
    }

    private static CorruptDataException inconsistent(
            TableInfo table, LakeSnapshot snap, String why) {
        return new CorruptDataException(
                "cannot reconcile "
                        + table.path()
                        + " with lake snapshot "
                        + snap.snapshotId()
                        + ": "
                        + why
                        + ". Tiering of this table stops until the lake table is repaired or the"
                        + " table is re-created; no round could run without losing or"
                        + " duplicating data.");
    }
}
