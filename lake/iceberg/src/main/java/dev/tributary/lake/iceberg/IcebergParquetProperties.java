package dev.tributary.lake.iceberg;

import dev.tributary.lake.api.catalog.LakeSystemColumns;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;

/**
 * Parquet settings of the data files Tributary writes (tiering and compaction), on top of the
 * table's own properties. The log offset and the append timestamp are (nearly) unique per row, so a
 * dictionary for them is built on every file only to be abandoned: their dictionary encoding is
 * off. User columns keep the table's settings, and a table that sets either column's dictionary
 * itself keeps its setting.
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
