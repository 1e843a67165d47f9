package dev.tributary.lake.api.catalog;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.Schema;
import java.util.Map;
import java.util.Objects;

/**
 * A lake table as the lake sees it.
 *
 * @param tablePath the Tributary path (= lake database and table)
 * @param format the format identifier, e.g. {@code paimon}
 * @param schema the lake columns mapped back to Tributary types, system columns included, with the
 *     lake primary key. Some formats widen types (Iceberg stores TINYINT and SMALLINT as INT), so
 *     this may differ from the Tributary schema in such documented ways
 * @param location where the table's files live
 * @param properties the format-native table properties
 */
public record LakeTableInfo(
        TablePath tablePath,
        String format,
        Schema schema,
        String location,
        Map<String, String> properties) {
    public LakeTableInfo {
        Objects.requireNonNull(tablePath, "tablePath");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(schema, "schema");
        properties = Map.copyOf(properties);
    }
}
