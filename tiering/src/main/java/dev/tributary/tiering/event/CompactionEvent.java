package dev.tributary.tiering.event;

import dev.tributary.common.id.LakeBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.tiering.api.MaintenanceGrant;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Enumerator -> reader: compact one (partition, bucket) unit of a grant in the background of the
 * reader's tiering work (T38), or stop doing so.
 *
 * @param partition the unit's lake partition ({@link LakeBucket#partition()})
 * @param baseSnapshotId the lake snapshot the grant was planned on
 */
public record CompactionEvent(
        Kind kind,
        long tableId,
        String database,
        String table,
        long maintenanceId,
        String partition,
        int bucket,
        int maxFiles,
        long baseSnapshotId)
        implements SourceEvent {

    /** What the reader does. */
    public enum Kind {
        /** Compact the unit and report a {@link CompactionResultEvent}. */
        START,
        /** Stop the grant's compaction; its result, if any, is no longer wanted. */
        CANCEL
    }

    /** {@code kind} for {@code unit} of {@code grant}. */
    public static CompactionEvent of(Kind kind, MaintenanceGrant grant, LakeBucket unit) {
        return new CompactionEvent(
                kind,
                grant.tableId(),
                grant.path().database(),
                grant.path().table(),
                grant.maintenanceId(),
                unit.partition(),
                unit.bucket(),
                grant.maxFiles(),
                grant.baseSnapshotId());
    }

    public LakeBucket unit() {
        return new LakeBucket(partition, bucket);
    }

    public TablePath tablePath() {
        return TablePath.of(database, table);
    }
}
