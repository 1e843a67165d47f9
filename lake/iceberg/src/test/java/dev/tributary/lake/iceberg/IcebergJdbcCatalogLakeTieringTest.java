package dev.tributary.lake.iceberg;

import java.util.Map;

/**
 * The whole lake contract again through Iceberg's JDBC catalog (on SQLite), configured only with
 * Iceberg's own catalog properties passed through Tributary's configuration.
 */
class IcebergJdbcCatalogLakeTieringTest extends IcebergLakeTieringTest {

    @Override
    protected Map<String, String> catalogProperties() {
        return Map.of("type", "jdbc", "uri", "jdbc:sqlite:" + warehouse.resolve("catalog.db"));
    }
}
