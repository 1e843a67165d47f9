package dev.tributary.coordinator.metadata;

import dev.tributary.common.types.Column;
import java.util.Objects;

/** One ALTER TABLE step; a list of them is applied atomically. */
public sealed interface TableChange {

    /** Sets (or replaces) a property. */
    record SetProperty(String key, String value) implements TableChange {
        public SetProperty {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }
    }

    /** Removes a property so that its default applies. */
    record ResetProperty(String key) implements TableChange {
        public ResetProperty {
            Objects.requireNonNull(key, "key");
        }
    }

    /** Appends a nullable column; creates a new schema id. */
    record AddColumn(Column column) implements TableChange {
        public AddColumn {
            Objects.requireNonNull(column, "column");
        }
    }

    static TableChange set(String key, String value) {
        return new SetProperty(key, value);
    }

    static TableChange reset(String key) {
        return new ResetProperty(key);
    }

    static TableChange addColumn(Column column) {
        return new AddColumn(column);
    }
}
