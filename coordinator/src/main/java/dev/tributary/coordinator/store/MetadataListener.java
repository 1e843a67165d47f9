package dev.tributary.coordinator.store;

import java.util.Optional;

/**
 * Told of the coordinator metadata as a store applies it (T49): how every server, not only the
 * coordinator's, learns its tables, partitions and bucket assignments from the metadata log instead
 * of from calls (KRaft's brokers applying metadata deltas).
 *
 * <p>Called on the store's apply thread, in log order, while the store holds its lock: keep the
 * work local (open or close buckets), never call back into the store or the coordinator. A
 * listener's exception is logged by the store and does not undo the record, which is already
 * durable; the listener has to heal itself later (see {@link #onReset}).
 */
public interface MetadataListener {

    /**
     * The whole applied metadata: once when the listener is set, and again whenever the store
     * replaced its image wholesale (a replicated store installing a snapshot). Every later {@link
     * #onTableChanged} is relative to it.
     */
    void onReset(StoredState state);

    /**
     * An applied record changed a table's definition, its partitions or the assignment of its
     * buckets.
     *
     * @param tableId the table
     * @param table the table as it is now, or empty when it was removed
     */
    void onTableChanged(long tableId, Optional<AppliedTable> table);
}
