package dev.tributary.common.types;

import dev.tributary.common.exception.InvalidInputException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Everything a user says when creating a table: schema, partition keys, bucket count, bucket keys,
 * properties and comment. For a primary-key table the bucket key defaults to the primary key
 * without the partition keys and must be a subset of it; a log table without a bucket key spreads
 * batches across buckets.
 *
 * <p>A partitioned table ({@code PARTITIONED BY (c1[, c2...])}, T30) splits its rows by the values
 * of the partition columns (STRING, INT, BIGINT or DATE); each partition has {@code bucket.num}
 * buckets with their own offsets. A primary-key table's key must include every partition column, so
 * that a key lives in one partition, and at least one other column, which buckets the keys within a
 * partition.
 */
public final class TableDescriptor {
    /** The largest bucket count a table may have. */
    public static final int MAX_BUCKETS = 1024;

    /** The types a partition column may have. */
    public static final Set<DataTypeRoot> PARTITION_KEY_TYPES =
            Set.of(DataTypeRoot.STRING, DataTypeRoot.INT, DataTypeRoot.BIGINT, DataTypeRoot.DATE);

    private final Schema schema;
    private final List<String> partitionKeys;
    private final int bucketCount;
    private final List<String> bucketKeys;
    private final Map<String, String> properties;
    private final String comment;

    private TableDescriptor(
            Schema schema,
            List<String> partitionKeys,
            int bucketCount,
            List<String> bucketKeys,
            Map<String, String> properties,
            String comment) {
        this.schema = Objects.requireNonNull(schema, "schema");
        this.partitionKeys = List.copyOf(partitionKeys);
        if (bucketCount < 1 || bucketCount > MAX_BUCKETS) {
            throw new InvalidInputException(
                    "invalid value '"
                            + bucketCount
                            + "' for 'bucket.num': expected an integer between 1 and "
                            + MAX_BUCKETS);
        }
        checkPartitionKeys(schema, this.partitionKeys, bucketKeys);
        List<String> keys = bucketKeys;
        if (keys.isEmpty() && schema.hasPrimaryKey()) {
            keys =
                    schema.primaryKey().stream()
                            .filter(k -> !this.partitionKeys.contains(k))
                            .toList();
        }
        for (String key : keys) {
            schema.indexOf(key);
            if (schema.hasPrimaryKey() && !schema.primaryKey().contains(key)) {
                throw new InvalidInputException(
                        "bucket key '"
                                + key
                                + "' must be part of the primary key "
                                + schema.primaryKey()
                                + " so that each key lives in one bucket");
            }
        }
        this.bucketCount = bucketCount;
        this.bucketKeys = List.copyOf(keys);
        this.properties = Map.copyOf(properties);
        this.comment = comment;
    }

    public static Builder builder(Schema schema) {
        return new Builder(schema);
    }

    private static void checkPartitionKeys(
            Schema schema, List<String> partitionKeys, List<String> bucketKeys) {
        if (partitionKeys.isEmpty()) {
            return;
        }
        Set<String> seen = new HashSet<>();
        for (String key : partitionKeys) {
            if (!seen.add(key)) {
                throw new InvalidInputException("PARTITIONED BY lists '" + key + "' twice");
            }
            int i;
            try {
                i = schema.indexOf(key);
            } catch (InvalidInputException e) {
                throw new InvalidInputException(
                        "partition key '"
                                + key
                                + "' is not a column of the table; columns are "
                                + schema.columnNames());
            }
            DataType type = schema.typeAt(i);
            if (!PARTITION_KEY_TYPES.contains(type.root())) {
                throw new InvalidInputException(
                        "partition key '"
                                + key
                                + "' is "
                                + type
                                + "; a partition column must be STRING, INT, BIGINT or DATE");
            }
            if (schema.hasPrimaryKey() && !schema.primaryKey().contains(key)) {
                throw new InvalidInputException(
                        "partition key '"
                                + key
                                + "' must be part of the primary key "
                                + schema.primaryKey()
                                + " so that each key lives in one partition; e.g. PRIMARY KEY ("
                                + String.join(", ", schema.primaryKey())
                                + ", "
                                + key
                                + ")");
            }
            if (bucketKeys.contains(key)) {
                throw new InvalidInputException(
                        "bucket key '"
                                + key
                                + "' is a partition key: all rows of a partition have the same"
                                + " value there, so it cannot spread them over buckets; bucket by"
                                + " other columns");
            }
        }
        if (partitionKeys.size() == schema.fieldCount()) {
            throw new InvalidInputException(
                    "every column is a partition key; a table needs at least one other column");
        }
        if (schema.hasPrimaryKey() && seen.containsAll(schema.primaryKey())) {
            throw new InvalidInputException(
                    "the primary key "
                            + schema.primaryKey()
                            + " has only partition keys; it needs at least one more column, which"
                            + " buckets the keys within a partition");
        }
    }

    public Schema schema() {
        return schema;
    }

    /** Partition key columns in order; empty for an unpartitioned table. */
    public List<String> partitionKeys() {
        return partitionKeys;
    }

    public boolean isPartitioned() {
        return !partitionKeys.isEmpty();
    }

    public int bucketCount() {
        return bucketCount;
    }

    /** Bucket key columns; empty means a log table spreads batches across buckets. */
    public List<String> bucketKeys() {
        return bucketKeys;
    }

    public boolean hasPrimaryKey() {
        return schema.hasPrimaryKey();
    }

    public Map<String, String> properties() {
        return properties;
    }

    public Optional<String> comment() {
        return Optional.ofNullable(comment);
    }

    /** A copy with a different schema (same partitions, buckets, properties and comment). */
    public TableDescriptor withSchema(Schema newSchema) {
        return new TableDescriptor(
                newSchema, partitionKeys, bucketCount, bucketKeys, properties, comment);
    }

    /** A copy with the given properties replacing the current ones. */
    public TableDescriptor withProperties(Map<String, String> newProperties) {
        return new TableDescriptor(
                schema, partitionKeys, bucketCount, bucketKeys, newProperties, comment);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableDescriptor d
                && d.schema.equals(schema)
                && d.partitionKeys.equals(partitionKeys)
                && d.bucketCount == bucketCount
                && d.bucketKeys.equals(bucketKeys)
                && d.properties.equals(properties)
                && Objects.equals(d.comment, comment);
    }

    @Override
    public int hashCode() {
        return Objects.hash(schema, partitionKeys, bucketCount, bucketKeys, properties, comment);
    }

    @Override
    public String toString() {
        return "TableDescriptor{schema="
                + schema
                + (partitionKeys.isEmpty() ? "" : ", partitionKeys=" + partitionKeys)
                + ", buckets="
                + bucketCount
                + ", bucketKeys="
                + bucketKeys
                + ", properties="
                + properties
                + (comment == null ? "" : ", comment=" + comment)
                + '}';
    }

    /** Builds a {@link TableDescriptor}; the bucket count defaults to 1. */
    public static final class Builder {
        private final Schema schema;
        private List<String> partitionKeys = List.of();
        private int bucketCount = 1;
        private List<String> bucketKeys = List.of();
        private final Map<String, String> properties = new LinkedHashMap<>();
        private String comment;

        private Builder(Schema schema) {
            this.schema = schema;
        }

        /** {@code PARTITIONED BY (keys...)}; none (the default) makes an unpartitioned table. */
        public Builder partitionKeys(String... keys) {
            this.partitionKeys = List.of(keys);
            return this;
        }

        public Builder partitionKeys(List<String> keys) {
            this.partitionKeys = List.copyOf(keys);
            return this;
        }

        public Builder bucketCount(int n) {
            this.bucketCount = n;
            return this;
        }

        public Builder bucketKeys(String... keys) {
            this.bucketKeys = List.of(keys);
            return this;
        }

        public Builder bucketKeys(List<String> keys) {
            this.bucketKeys = List.copyOf(keys);
            return this;
        }

        public Builder property(String key, String value) {
            properties.put(key, value);
            return this;
        }

        public Builder properties(Map<String, String> props) {
            properties.putAll(props);
            return this;
        }

        public Builder comment(String text) {
            this.comment = text;
            return this;
        }

        public TableDescriptor build() {
            return new TableDescriptor(
                    schema, partitionKeys, bucketCount, bucketKeys, properties, comment);
        }
    }
}
