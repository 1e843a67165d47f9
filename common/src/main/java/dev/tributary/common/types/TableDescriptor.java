package dev.tributary.common.types;

import dev.tributary.common.exception.InvalidInputException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a user says when creating a table: schema, bucket count, bucket keys, properties and
 * comment. For a primary-key table the bucket key defaults to the primary key and must be a subset
 * of it; a log table without a bucket key spreads batches across buckets.
 */
public final class TableDescriptor {
    /** The largest bucket count a table may have. */
    public static final int MAX_BUCKETS = 1024;

    private final Schema schema;
    private final int bucketCount;
    private final List<String> bucketKeys;
    private final Map<String, String> properties;
    private final String comment;

    private TableDescriptor(
            Schema schema,
            int bucketCount,
            List<String> bucketKeys,
            Map<String, String> properties,
            String comment) {
        this.schema = Objects.requireNonNull(schema, "schema");
        if (bucketCount < 1 || bucketCount > MAX_BUCKETS) {
            throw new InvalidInputException(
                    "invalid value '"
                            + bucketCount
                            + "' for 'bucket.num': expected an integer between 1 and "
                            + MAX_BUCKETS);
        }
        List<String> keys = bucketKeys;
        if (keys.isEmpty() && schema.hasPrimaryKey()) {
            keys = schema.primaryKey();
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

    public Schema schema() {
        return schema;
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

    /** A copy with a different schema (same buckets, properties and comment). */
    public TableDescriptor withSchema(Schema newSchema) {
        return new TableDescriptor(newSchema, bucketCount, bucketKeys, properties, comment);
    }

    /** A copy with the given properties replacing the current ones. */
    public TableDescriptor withProperties(Map<String, String> newProperties) {
        return new TableDescriptor(schema, bucketCount, bucketKeys, newProperties, comment);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableDescriptor d
                && d.schema.equals(schema)
                && d.bucketCount == bucketCount
                && d.bucketKeys.equals(bucketKeys)
                && d.properties.equals(properties)
                && Objects.equals(d.comment, comment);
    }

    @Override
    public int hashCode() {
        return Objects.hash(schema, bucketCount, bucketKeys, properties, comment);
    }

    @Override
    public String toString() {
        return "TableDescriptor{schema="
                + schema
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
        private int bucketCount = 1;
        private List<String> bucketKeys = List.of();
        private final Map<String, String> properties = new LinkedHashMap<>();
        private String comment;

        private Builder(Schema schema) {
            this.schema = schema;
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
            return new TableDescriptor(schema, bucketCount, bucketKeys, properties, comment);
        }
    }
}
