package dev.tributary.lake.api.maintenance;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The properties of a snapshot written by Tributary's maintenance: what it did and for which grant.
 * They share the {@code tributary.} prefix with the tiering properties but never contain their
 * keys, so {@link dev.tributary.lake.api.commit.TieringSnapshotProperties#fromProperties} sees no
 * tiering snapshot there and reconciliation (T21) passes over it.
 *
 * @param kind what the snapshot did, e.g. {@code compaction}
 * @param tableId the Tributary table id
 * @param maintenanceId the grant that wrote it
 */
public record MaintenanceSnapshotProperties(String kind, long tableId, long maintenanceId) {
    public static final String KIND = "tributary.maintenance.kind";
    public static final String TABLE_ID = "tributary.maintenance.table-id";
    public static final String MAINTENANCE_ID = "tributary.maintenance.id";

    /** The kind of a compaction snapshot. */
    public static final String COMPACTION = "compaction";

    public static MaintenanceSnapshotProperties compaction(long tableId, long maintenanceId) {
        return new MaintenanceSnapshotProperties(COMPACTION, tableId, maintenanceId);
    }

    public Map<String, String> toProperties() {
        Map<String, String> out = new LinkedHashMap<>();
        out.put(KIND, kind);
        out.put(TABLE_ID, Long.toString(tableId));
        out.put(MAINTENANCE_ID, Long.toString(maintenanceId));
        return out;
    }

    /**
     * The maintenance properties of a snapshot, empty for any other snapshot (or malformed ones).
     */
    public static Optional<MaintenanceSnapshotProperties> fromProperties(Map<String, String> p) {
        if (p == null || !p.containsKey(KIND)) {
            return Optional.empty();
        }
        try {
            return Optional.of(
                    new MaintenanceSnapshotProperties(
                            p.get(KIND),
                            Long.parseLong(p.getOrDefault(TABLE_ID, "-1")),
                            Long.parseLong(p.getOrDefault(MAINTENANCE_ID, "-1"))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
