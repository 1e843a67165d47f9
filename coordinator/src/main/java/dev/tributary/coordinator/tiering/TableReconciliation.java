package dev.tributary.coordinator.tiering;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.metadata.PartitionRegistry;
import dev.tributary.coordinator.runtime.LakeIo;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.coordinator.store.MetadataStore;
import dev.tributary.coordinator.store.TieringRecord;
import dev.tributary.lake.api.commit.LakeSnapshot;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a table's record in line with the lake before its next round (T21): after a start, or
 * after a commit whose outcome is unknown, reads the lake's newest tiering snapshot of the table
 * (through {@link LakeReconciler}, on the lake I/O pool), adopts it durably when the lake is ahead
 * of the record, and retries with backoff when the lake cannot be read or its snapshot is refused.
 *
 * <p>Separate from {@link TieringManager} because it is the one place where the lake, not a job,
 * changes a table's record, epoch and round numbering; the manager only decides when a table needs
 * it and what happens next, reached through {@link Rounds}. Not thread safe: runs on the
 * coordinator's event loop like the manager; the lake read posts its outcome back to the loop.
 */
final class TableReconciliation {
    private static final Logger LOG = LoggerFactory.getLogger(TableReconciliation.class);

    /** What reconciliation needs from the table state machine; every call on the loop. */
    interface Rounds {
        /** The table's current state, or {@code null} if it is not a lake table now. */
        TableTiering current(long tableId);

        /** Scheduled/Failed -> Pending: the record agrees with the lake now. */
        void enterPending(TableTiering t);

        /** Tries the table again (reconciliation first) after {@code delayMillis}. */
        void retryAfter(TableTiering t, long delayMillis);
    }

    private final LakeReconciler reconciler;
    private final MetadataStore store;
    private final PartitionRegistry partitions;
    private final TieringConfig config;
    private final Rounds rounds;

    /** Epochs at or above this one were written by another cluster (the next incarnation's). */
    private final long foreignEpochBase;

    /**
     * @param epochBase the first epoch of this incarnation
     */
    TableReconciliation(
            LakeCommitStep lake,
            Clock clock,
            Executor loop,
            LakeIo io,
            MetadataStore store,
            PartitionRegistry partitions,
            TieringConfig config,
            long epochBase,
            Rounds rounds) {
        this.reconciler = new LakeReconciler(lake, clock, loop, io);
        this.store = store;
        this.partitions = partitions;
        this.config = config;
        this.foreignEpochBase = Math.addExact(epochBase, TieringManager.EPOCH_STRIDE);
        this.rounds = rounds;
    }

    /** Reads the lake for {@code t}; the table enters Pending, or retries, once it answered. */
    void start(TableTiering t) {
        t.reconciling = true;
        reconciler.readLatest(
                t.table, found -> onReconciled(t, found), e -> onReconcileFailed(t, e));
    }

    private void onReconciled(TableTiering t, Optional<LakeSnapshot> found) {
        if (rounds.current(t.tableId()) != t) {
            return;
        }
        Optional<TieringRecord> adopted;
        try {
            adopted =
                    reconciler.adoption(
                            t.table,
                            t.record,
                            found,
                            foreignEpochBase,
                            id -> partitions.byId(t.tableId(), id).isPresent());
        } catch (CorruptDataException e) {
            onReconcileFailed(t, e);
            return;
        }
        t.reconciling = false;
        if (adopted.isPresent()) {
            TieringRecord r = adopted.get();
            store.putTieringRecord(r);
            t.record = r;
            t.rounds.add(r.lastRound());
            t.nextRoundId = Math.max(t.nextRoundId, r.roundId() + 1);
            t.epoch = Math.max(t.epoch, r.epoch());
        }
        t.needsReconcile = false;
        rounds.enterPending(t);
    }

    private void onReconcileFailed(TableTiering t, Throwable e) {
        if (rounds.current(t.tableId()) != t) {
            return;
        }
        t.reconciling = false;
        t.totalFailures++;
        t.consecutiveFailures++;
        t.lastFailure =
                e instanceof CorruptDataException
                        ? e.getMessage()
                        : "reading the lake for reconciliation failed: " + e;
        LOG.warn("reconciling {} with the lake failed; retrying with backoff", t.table.path(), e);
        rounds.retryAfter(t, config.backoffMillis(t.consecutiveFailures));
    }
}
