package dev.tributary.common.types;

import dev.tributary.common.id.TablePath;
import java.util.Objects;

/** A named, typed column with an optional comment. */
public record Column(String name, DataType type, String comment) {
    public Column {
        TablePath.validateName("column", name);
        Objects.requireNonNull(type, "type");
    }

    public Column(String name, DataType type) {
        this(name, type, null);
    }

    public Column withType(DataType newType) {
        return new Column(name, newType, comment);
    }
}
