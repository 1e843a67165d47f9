package dev.tributary.flink.catalog;

import dev.tributary.client.admin.TableInfo;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.flink.types.FlinkTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.TableDistribution;

/**
 * Converts between Tributary table descriptors and Flink catalog tables. A Flink table of a
 * Tributary table carries the Tributary properties as options, plus {@code bucket.num} and {@code
 * bucket.key}; its distribution says the same ({@code DISTRIBUTED BY HASH(k) INTO n BUCKETS}).
 */
public final class FlinkTables {
    private FlinkTables() {}

    /** The Flink view of a Tributary table. */
    public static CatalogTable toFlink(TableInfo info) {
        TableDescriptor d = info.descriptor();
        org.apache.flink.table.api.Schema.Builder schema =
                org.apache.flink.table.api.Schema.newBuilder();
        for (Column c : d.schema().columns()) {
            schema.column(c.name(), FlinkTypes.toFlink(c.type()));
            if (c.comment() != null) {
                schema.withComment(c.comment());
            }
        }
        if (d.hasPrimaryKey()) {
            schema.primaryKeyNamed("PK_" + info.path().table(), d.schema().primaryKey());
        }
        Map<String, String> options = new LinkedHashMap<>(d.properties());
        options.put(TributaryTableOptions.BUCKET_NUM.key(), Integer.toString(d.bucketCount()));
        if (!d.bucketKeys().isEmpty()) {
            options.put(TributaryTableOptions.BUCKET_KEY.key(), String.join(",", d.bucketKeys()));
        }
        CatalogTable.Builder b =
                CatalogTable.newBuilder()
                        .schema(schema.build())
                        .comment(d.comment().orElse(null))
                        .options(options);
        if (!d.bucketKeys().isEmpty()) {
            b.distribution(TableDistribution.ofHash(d.bucketKeys(), d.bucketCount()));
        }
        return b.build();
    }

    /**
     * The Tributary descriptor of a Flink table (CREATE TABLE): physical columns, primary key,
     * buckets from the distribution or {@code bucket.num}/{@code bucket.key}, every other option as
     * a table property.
     *
     * @throws InvalidInputException for what Tributary cannot store: computed or metadata columns,
     *     partitions, watermarks, unsupported types, a distribution other than hash
     */
    public static TableDescriptor toDescriptor(ResolvedCatalogTable table) {
        if (table.isPartitioned()) {
            throw new InvalidInputException(
                    "creating a partitioned Tributary table from Flink is not supported yet;"
                            + " drop PARTITIONED BY, or create it with 'tributary table create"
                            + " ... --schema \"..., PARTITIONED BY (c)\"'");
        }
        if (!table.getResolvedSchema().getWatermarkSpecs().isEmpty()) {
            throw new InvalidInputException(
                    "a Tributary table has no watermark in its definition; declare the watermark"
                            + " on a view or in the query");
        }
        Schema.Builder s = Schema.newBuilder();
        for (org.apache.flink.table.catalog.Column c : table.getResolvedSchema().getColumns()) {
            if (!c.isPhysical()) {
                throw new InvalidInputException(
                        "column '"
                                + c.getName()
                                + "' is computed or metadata; Tributary tables store physical"
                                + " columns only");
            }
            s.column(
                    c.getName(),
                    FlinkTypes.fromFlink(c.getName(), c.getDataType().getLogicalType()),
                    c.getComment().orElse(null));
        }
        table.getResolvedSchema().getPrimaryKey().ifPresent(pk -> s.primaryKey(pk.getColumns()));
        Map<String, String> options = new LinkedHashMap<>(table.getOptions());
        String bucketNum = options.remove(TributaryTableOptions.BUCKET_NUM.key());
        String bucketKey = options.remove(TributaryTableOptions.BUCKET_KEY.key());
        options.keySet().removeIf(k -> k.startsWith("scan.") || k.equals("connector"));
        TableDescriptor.Builder d = TableDescriptor.builder(s.build()).properties(options);
        int buckets = bucketNum == null ? 1 : parseBuckets(bucketNum);
        List<String> keys =
                bucketKey == null || bucketKey.isBlank()
                        ? List.of()
                        : Arrays.stream(bucketKey.split(",")).map(String::trim).toList();
        if (table.getDistribution().isPresent()) {
            TableDistribution dist = table.getDistribution().get();
            if (dist.getKind() != TableDistribution.Kind.HASH
                    && dist.getKind() != TableDistribution.Kind.UNKNOWN) {
                throw new InvalidInputException(
                        "Tributary buckets by hash: use DISTRIBUTED BY HASH(...) INTO n BUCKETS");
            }
            if (dist.getBucketCount().isPresent()) {
                buckets = dist.getBucketCount().get();
            }
            if (!dist.getBucketKeys().isEmpty()) {
                keys = new ArrayList<>(dist.getBucketKeys());
            }
        }
        d.bucketCount(buckets).bucketKeys(keys);
        if (table.getComment() != null && !table.getComment().isEmpty()) {
            d.comment(table.getComment());
        }
        return d.build();
    }

    private static int parseBuckets(String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new InvalidInputException(
                    "invalid value '" + value + "' for 'bucket.num': expected an integer");
        }
    }
}
