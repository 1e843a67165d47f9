package dev.tributary.lake.iceberg;

import dev.tributary.lake.api.catalog.LakeSystemColumns;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;

/**
 * Parquet settings of the data files Tributary writes (tiering and compaction), on top of the
 * table's own properties: no dictionary for the system columns {@code __offset} and {@code
 * __timestamp}. The offset is unique per row, so Parquet builds its dictionary on every file only
 * to give it up; the append timestamp repeats within a batch, but its plain runs compress as small
 * as a dictionary would (bench/README.md, T54). User columns keep the table's settings, and a table
 * that sets either column's dictionary itself keeps its setting.
 */
final class IcebergParquetProperties {
    private static final List<String> NO_DICTIONARY =
            List.of(LakeSystemColumns.OFFSET, LakeSystemColumns.TIMESTAMP);

    private IcebergParquetProperties() {}

    /** The writer properties for {@code GenericFileWriterFactory.Builder#writerProperties}. */
    static Map<String, String> of(Table table) {
        Map<String, String> p = new HashMap<>();
        for (String column : NO_DICTIONARY) {
            String key = TableProperties.PARQUET_DICT_ENCODING_ENABLED_COLUMN_PREFIX + column;
            if (!table.properties().containsKey(key)) {
                p.put(key, "false");
            }
        }
        return p;
    }
}
