package dev.tributary.common.types;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.row.Row;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The columns of a table and its optional primary key. Primary-key columns are always NOT NULL (the
 * builder makes them so). Immutable.
 */
public final class Schema {
    private final List<Column> columns;
    private final List<String> primaryKey;
    private final Map<String, Integer> indexByName;

    private Schema(List<Column> columns, List<String> primaryKey) {
        if (columns.isEmpty()) {
            throw new InvalidInputException("a schema needs at least one column");
        }
        Map<String, Integer> index = new LinkedHashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            if (index.put(columns.get(i).name(), i) != null) {
                throw new InvalidInputException("duplicate column '" + columns.get(i).name() + "'");
            }
        }
        Set<String> seen = new HashSet<>();
        List<Column> fixed = new ArrayList<>(columns);
        for (String key : primaryKey) {
            Integer i = index.get(key);
            if (i == null) {
                throw new InvalidInputException(
                        "primary key column '" + key + "' is not a column of the schema");
            }
            if (!seen.add(key)) {
                throw new InvalidInputException("primary key lists '" + key + "' twice");
            }
            fixed.set(i, fixed.get(i).withType(fixed.get(i).type().notNull()));
        }
        this.columns = Collections.unmodifiableList(fixed);
        this.primaryKey = List.copyOf(primaryKey);
        this.indexByName = Collections.unmodifiableMap(index);
    }

    public static Builder newBuilder() {
        return new Builder();
    }

    public static Schema of(List<Column> columns, List<String> primaryKey) {
        return new Schema(columns, primaryKey == null ? List.of() : primaryKey);
    }

    public List<Column> columns() {
        return columns;
    }

    public int fieldCount() {
        return columns.size();
    }

    public DataType typeAt(int i) {
        return columns.get(i).type();
    }

    public List<String> columnNames() {
        return columns.stream().map(Column::name).toList();
    }

    /** Primary key column names, empty for a log table. */
    public List<String> primaryKey() {
        return primaryKey;
    }

    public boolean hasPrimaryKey() {
        return !primaryKey.isEmpty();
    }

    /** Index of the named column; throws {@link InvalidInputException} when absent. */
    public int indexOf(String column) {
        Integer i = indexByName.get(column);
        if (i == null) {
            throw new InvalidInputException(
                    "unknown column '" + column + "'; columns are " + columnNames());
        }
        return i;
    }

    public int[] indexesOf(List<String> names) {
        return names.stream().mapToInt(this::indexOf).toArray();
    }

    public int[] primaryKeyIndexes() {
        return indexesOf(primaryKey);
    }

    /**
     * A schema with one more nullable column at the end. Rows written under this schema can be read
     * under the new one with NULL in the new column.
     */
    public Schema addColumn(Column column) {
        if (!column.type().isNullable()) {
            throw new InvalidInputException(
                    "added column '"
                            + column.name()
                            + "' must be nullable: old rows have no value");
        }
        List<Column> next = new ArrayList<>(columns);
        next.add(column);
        return new Schema(next, primaryKey);
    }

    /**
     * Checks that {@code row} fits this schema: arity, value classes, NOT NULL, decimal precision
     * and scale, and temporal precision.
     *
     * @throws InvalidInputException naming the column and the problem
     */
    public void validate(Row row) {
        if (row.arity() != columns.size()) {
            throw new InvalidInputException(
                    "row has "
                            + row.arity()
                            + " fields but the schema has "
                            + columns.size()
                            + " columns "
                            + columnNames());
        }
        for (int i = 0; i < columns.size(); i++) {
            ValueChecks.check(columns.get(i), row.getField(i));
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Schema s
                && s.columns.equals(columns)
                && s.primaryKey.equals(primaryKey);
    }

    @Override
    public int hashCode() {
        return Objects.hash(columns, primaryKey);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(columns.get(i).name()).append(' ').append(columns.get(i).type());
        }
        if (hasPrimaryKey()) {
            sb.append(", PRIMARY KEY (").append(String.join(", ", primaryKey)).append(')');
        }
        return sb.append(')').toString();
    }

    /** Builds a {@link Schema}. */
    public static final class Builder {
        private final List<Column> columns = new ArrayList<>();
        private List<String> primaryKey = List.of();

        public Builder column(String name, DataType type) {
            columns.add(new Column(name, type));
            return this;
        }

        public Builder column(String name, DataType type, String comment) {
            columns.add(new Column(name, type, comment));
            return this;
        }

        public Builder primaryKey(String... keys) {
            this.primaryKey = List.of(keys);
            return this;
        }

        public Builder primaryKey(List<String> keys) {
            this.primaryKey = List.copyOf(keys);
            return this;
        }

        public Schema build() {
            return new Schema(columns, primaryKey);
        }
    }
}
