package dev.tributary.coordinator.tiering;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The properties every lake snapshot written by tiering carries, so the lake alone can rebuild the
 * coordinator's record (T21): table id, epoch, round id and every bucket's tiered offset.
 *
 * @param tableId the table id
 * @param epoch the round's epoch
 * @param roundId the round's id
 * @param tieredOffsets every bucket's tiered offset once the snapshot is committed
 * @param committedAtMillis wall time the commit was started
 */
public record TieringSnapshotProperties(
        long tableId,
        long epoch,
        long roundId,
        SortedMap<Integer, Long> tieredOffsets,
        long committedAtMillis) {

    public static final String TABLE_ID = "tributary.tiering.table-id";
    public static final String EPOCH = "tributary.tiering.epoch";
    public static final String ROUND_ID = "tributary.tiering.round-id";
    public static final String OFFSETS = "tributary.tiering.offsets";
    public static final String COMMITTED_AT = "tributary.tiering.committed-at";

    public TieringSnapshotProperties {
        tieredOffsets = new TreeMap<>(tieredOffsets);
    }

    public Map<String, String> toMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(TABLE_ID, Long.toString(tableId));
        m.put(EPOCH, Long.toString(epoch));
        m.put(ROUND_ID, Long.toString(roundId));
        StringBuilder sb = new StringBuilder();
        tieredOffsets.forEach(
                (b, o) -> {
                    if (sb.length() > 0) {
                        sb.append(',');
                    }
                    sb.append(b).append('=').append(o);
                });
        m.put(OFFSETS, sb.toString());
        m.put(COMMITTED_AT, Long.toString(committedAtMillis));
        return m;
    }

    /** Parses properties written by {@link #toMap()}; empty if the keys are missing or garbled. */
    public static Optional<TieringSnapshotProperties> parse(Map<String, String> props) {
        try {
            String table = props.get(TABLE_ID);
            String epoch = props.get(EPOCH);
            String round = props.get(ROUND_ID);
            String offsets = props.get(OFFSETS);
            if (table == null || epoch == null || round == null || offsets == null) {
                return Optional.empty();
            }
            SortedMap<Integer, Long> parsed = new TreeMap<>();
            if (!offsets.isEmpty()) {
                for (String part : offsets.split(",")) {
                    int eq = part.indexOf('=');
                    parsed.put(
                            Integer.parseInt(part.substring(0, eq).trim()),
                            Long.parseLong(part.substring(eq + 1).trim()));
                }
            }
            String at = props.get(COMMITTED_AT);
            return Optional.of(
                    new TieringSnapshotProperties(
                            Long.parseLong(table),
                            Long.parseLong(epoch),
                            Long.parseLong(round),
                            parsed,
                            at == null ? -1 : Long.parseLong(at)));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }
}
