package dev.tributary.tiering.event;

import dev.tributary.common.id.TablePath;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Enumerator -> reader: compact one bucket of a grant in the background of the reader's tiering
 * work (T38), or stop doing so.
 *
 * @param baseSnapshotId the lake snapshot the grant was planned on
 */
public record CompactionEvent(
        Kind kind,
        long tableId,
        String database,
        String table,
        long maintenanceId,
        int bucket,
        int maxFiles,
        long baseSnapshotId)
        implements SourceEvent {

    /** What the reader does. */
    public enum Kind {
        /** Compact the bucket and report a {@link CompactionResultEvent}. */
        START,
        /** Stop the grant's compaction; its result, if any, is no longer wanted. */
        CANCEL
    }

    public TablePath tablePath() {
        return TablePath.of(database, table);
    }
}
