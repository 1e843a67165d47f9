package dev.tributary.cli.demo;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.time.Duration;
import java.util.List;

/**
 * The blog's three lake tables: two append-only logs and one primary-key table; {@code shop.orders}
 * is partitioned by day (auto-partitioned on the server's clock, T30/T31), so its lake table is
 * too.
 */
public final class DemoTables {
    public static final String DATABASE = "shop";
    public static final TablePath CLICKS = TablePath.of(DATABASE, "clicks");
    public static final TablePath ORDERS = TablePath.of(DATABASE, "orders");
    public static final TablePath CUSTOMERS = TablePath.of(DATABASE, "customers");

    public static final Schema CLICKS_SCHEMA =
            Schema.of(
                    List.of(
                            new Column("user_id", DataTypes.BIGINT(), null),
                            new Column("url", DataTypes.STRING(), null),
                            new Column("ts", DataTypes.BIGINT(), null)),
                    List.of());
    public static final Schema ORDERS_SCHEMA =
            Schema.of(
                    List.of(
                            new Column("order_id", DataTypes.BIGINT(), null),
                            new Column("customer_id", DataTypes.BIGINT(), null),
                            new Column("amount_cents", DataTypes.INT(), null),
                            new Column("ts", DataTypes.BIGINT(), null),
                            new Column("dt", DataTypes.STRING(), null)),
                    List.of());
    public static final Schema CUSTOMERS_SCHEMA =
            Schema.of(
                    List.of(
                            new Column("id", DataTypes.BIGINT(), null),
                            new Column("name", DataTypes.STRING(), null),
                            new Column("city", DataTypes.STRING(), null),
                            new Column("updated_at", DataTypes.BIGINT(), null)),
                    List.of("id"));

    /** Table property naming the lake format of a table's lake copy. */
    public static final String FORMAT_PROPERTY = "table.datalake.format";

    /**
     * One demo table: where, what, and how fresh its lake copy must be.
     *
     * @param partitionKey the day column of a table partitioned by day (STRING yyyy-MM-dd, UTC), or
     *     null
     */
    public record Spec(
            TablePath path, Schema schema, int buckets, Duration freshness, String partitionKey) {
        /**
         * The table with its lake copy in {@code format}; the format is explicit so that a server
         * tiering into another format refuses the table instead of tiering it elsewhere.
         */
        public TableDescriptor descriptor(DemoLakeFormat format) {
            TableDescriptor.Builder b =
                    TableDescriptor.builder(schema)
                            .bucketCount(buckets)
                            .property("table.datalake.enabled", "true")
                            .property("table.datalake.freshness", freshness.toMillis() + "ms")
                            .property(FORMAT_PROPERTY, format.identifier());
            if (partitionKey != null) {
                // today and tomorrow exist ahead of the writes; a week of days is kept
                b.partitionKeys(partitionKey)
                        .property("table.auto-partition.enabled", "true")
                        .property("table.auto-partition.time-unit", "DAY")
                        .property("table.auto-partition.time-zone", "UTC")
                        .property("table.auto-partition.num-retention", "7");
            }
            return b.build();
        }

        public String kind() {
            return schema.primaryKey().isEmpty() ? "log" : "primary key";
        }
    }

    private DemoTables() {}

    /**
     * The blog's setup (1, 2 and 5 minutes); {@code fast} shortens freshness to 10, 20 and 30
     * seconds so rounds show within half a minute.
     */
    public static List<Spec> specs(boolean fast) {
        return List.of(
                new Spec(CLICKS, CLICKS_SCHEMA, 16, fast ? secs(10) : Duration.ofMinutes(1), null),
                new Spec(ORDERS, ORDERS_SCHEMA, 8, fast ? secs(20) : Duration.ofMinutes(2), "dt"),
                new Spec(
                        CUSTOMERS,
                        CUSTOMERS_SCHEMA,
                        12,
                        fast ? secs(30) : Duration.ofMinutes(5),
                        null));
    }

    /** The day partition value of {@code millis}: yyyy-MM-dd in UTC. */
    public static String day(long millis) {
        return java.time.Instant.ofEpochMilli(millis)
                .atZone(java.time.ZoneOffset.UTC)
                .toLocalDate()
                .toString();
    }

    private static Duration secs(long s) {
        return Duration.ofSeconds(s);
    }
}
