package dev.tributary.coordinator.tiering;

import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.coordinator.spi.LakeSnapshotRecord;
import dev.tributary.coordinator.status.RoundSummary;
import dev.tributary.coordinator.store.TieringRecord;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciliation with the lake (T21). After a restart, or after a commit whose outcome is unknown,
 * the lake may hold a snapshot the coordinator never recorded; its properties ({@link
 * TieringSnapshotProperties}) carry everything the table's record needs, so it is adopted instead
 * of tiering the same offsets twice.
 *
 * <p>The read runs on the I/O pool and answers on the loop; the decision is a pure function of the
 * known record and the snapshot found, so the manager applies it on its own thread.
 */
final class LakeReconciler {
    private static final Logger LOG = LoggerFactory.getLogger(LakeReconciler.class);

    private final LakeCommitStep lake;
    private final Clock clock;
    private final Executor loop;
    private final Executor ioExecutor;

    LakeReconciler(LakeCommitStep lake, Clock clock, Executor loop, Executor ioExecutor) {
        this.lake = lake;
        this.clock = clock;
        this.loop = loop;
        this.ioExecutor = ioExecutor;
    }

    /**
     * Reads the table's newest tiering snapshot on the I/O pool. Exactly one of the callbacks runs,
     * on the loop: the lake is never read from the loop, and the manager's state is never touched
     * from the I/O pool.
     */
    void readLatest(
            TableInfo table,
            Consumer<Optional<LakeSnapshotRecord>> onRead,
            Consumer<Throwable> onFailed) {
        ioExecutor.execute(
                () -> {
                    Optional<LakeSnapshotRecord> found;
                    try {
                        found =
                                lake.latestTieringSnapshot(
                                        table.tableId(), table.path(), table.descriptor());
                    } catch (Throwable e) {
                        loop.execute(() -> onFailed.accept(e));
                        return;
                    }
                    loop.execute(() -> onRead.accept(found));
                });
    }

    /**
     * The record to adopt from {@code found}, or empty when there is nothing to adopt: no snapshot,
     * one not written by tiering (or garbled), another table's, the very snapshot the record names,
     * or one of an epoch not above the record's (the coordinator already moved past it).
     */
    Optional<TieringRecord> adoption(
            TableInfo table, TieringRecord known, Optional<LakeSnapshotRecord> found) {
        Optional<TieringSnapshotProperties> props =
                found.flatMap(r -> TieringSnapshotProperties.parse(r.properties()));
        if (props.isEmpty()
                || props.get().tableId() != table.tableId()
                || found.get().snapshotId() == known.lakeSnapshotId()
                || props.get().epoch() <= known.epoch()) {
            return Optional.empty();
        }
        TieringSnapshotProperties p = props.get();
        long snapshotId = found.get().snapshotId();
        // an older writer may not have stamped the commit time: the adoption time is the best bound
        long at = p.committedAtMillis() > 0 ? p.committedAtMillis() : clock.currentTimeMillis();
        TieringRecord adopted =
                known.afterCommit(
                        p.tieredOffsets(),
                        at,
                        snapshotId,
                        p.epoch(),
                        p.roundId(),
                        false,
                        RoundSummary.adopted(p.epoch(), p.roundId(), at, snapshotId));
        LOG.warn(
                "adopting lake snapshot {} of {} (epoch {}, round {}) that the coordinator had"
                        + " not recorded",
                snapshotId,
                table.path(),
                p.epoch(),
                p.roundId());
        return Optional.of(adopted);
    }
}
