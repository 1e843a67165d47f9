package dev.tributary.tiering.event;

import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Reader -> enumerator: a split ended. Tagged with the attempt's (table id, epoch, round id) so the
 * enumerator drops results of stale rounds (T20).
 *
 * @param offsetReached exclusive end offset actually tiered: the range end for a finished log
 *     split, less for a force-finished one, the snapshot's log offset for a snapshot split
 * @param writeResult the serialized lake write result, {@code null} when nothing was written
 * @param error why the split failed, {@code null} on success
 */
public record SplitResultEvent(
        String splitId,
        long tableId,
        long epoch,
        long roundId,
        int bucket,
        long offsetReached,
        byte[] writeResult,
        long records,
        long bytes,
        String error)
        implements SourceEvent {

    public boolean failed() {
        return error != null;
    }
}
