package dev.tributary.tiering.testutil;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.Schema;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import java.io.File;
import java.util.List;
import java.util.Map;

/**
 * How a tiered table is laid out in the lake, read with the format's own API (T36, T37): the data
 * files each tiering round added per lake bucket, where the format places each live row, and what
 * the format's own planner opens for a key filter. Implementations: {@link PaimonLakeLayout},
 * {@link IcebergLakeLayout}.
 */
public interface LakeLayout {

    /** One committed tiering round. */
    record Round(
            long snapshotId,
            TieringSnapshotProperties properties,
            Map<Integer, Integer> addedDataFilesPerLakeBucket) {}

    /**
     * A live lake row: the Tributary columns, the store bucket it came from ({@code __bucket}) and
     * the lake bucket the format put it in (Paimon bucket, Iceberg bucket partition value).
     */
    record PlacedRow(Row row, int storeBucket, Integer lakeBucket) {}

    /**
     * The table's live files as the format's own planner sees them now.
     *
     * @param deleteFiles the live delete files (Iceberg delete files, Paimon deletion-vector files)
     * @param equalityDeleteFiles those of them that delete by key (Iceberg equality deletes), which
     *     readers such as PyIceberg and Snowflake refuse (T48); always 0 for Paimon
     * @param levels the LSM level of each live data file (Paimon); empty for Iceberg
     * @param readWithoutMerge whether every planned split reads its files as they are, with no
     *     merge of keys to do (Paimon's raw-convertible splits, deletion vectors applied; Iceberg
     *     tasks without equality deletes)
     */
    record LiveFiles(
            int dataFiles,
            int deleteFiles,
            int equalityDeleteFiles,
            List<Integer> levels,
            boolean readWithoutMerge) {}

    static LakeLayout of(String format, File warehouse) {
        return switch (format) {
            case "paimon" -> new PaimonLakeLayout(warehouse);
            case "iceberg" -> new IcebergLakeLayout(warehouse);
            default -> throw new IllegalArgumentException("no lake layout reader for " + format);
        };
    }

    /** Every tiering snapshot still in the table's history, oldest first. */
    List<Round> rounds(TablePath path) throws Exception;

    /** Every live row (deletes applied), with the format's placement. */
    List<PlacedRow> rows(TablePath path, Schema schema) throws Exception;

    /** The live files of the table's current snapshot. */
    LiveFiles liveFiles(TablePath path) throws Exception;

    /** Data files per lake bucket the format's planner opens for {@code column = value}. */
    Map<Integer, Integer> dataFilesPlannedFor(TablePath path, String column, Object value)
            throws Exception;

    /** The offsets of the newest tiering snapshot its readers see; empty before the first. */
    default Map<Integer, Long> committedOffsets(TablePath path) throws Exception {
        List<Round> rounds = rounds(path);
        return rounds.isEmpty()
                ? Map.of()
                : rounds.get(rounds.size() - 1).properties().bucketOffsets();
    }
}
