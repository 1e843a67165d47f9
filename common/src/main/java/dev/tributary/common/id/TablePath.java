package dev.tributary.common.id;

import dev.tributary.common.exception.InvalidInputException;
import java.util.Objects;
import java.util.regex.Pattern;

/** A table's name: {@code database.table}. Both parts are validated identifiers. */
public final class TablePath implements Comparable<TablePath> {
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]{0,127}");

    private final String database;
    private final String table;

    private TablePath(String database, String table) {
        this.database = database;
        this.table = table;
    }

    public static TablePath of(String database, String table) {
        validateName("database", database);
        validateName("table", table);
        return new TablePath(database, table);
    }

    /** Parses {@code db.table}. */
    public static TablePath parse(String qualified) {
        int dot = qualified == null ? -1 : qualified.indexOf('.');
        if (dot < 0 || qualified.indexOf('.', dot + 1) >= 0) {
            throw new InvalidInputException(
                    "invalid table path '"
                            + qualified
                            + "': expected <database>.<table>, e.g. shop.orders");
        }
        return of(qualified.substring(0, dot), qualified.substring(dot + 1));
    }

    /** Throws {@link InvalidInputException} unless {@code name} is a valid identifier. */
    public static void validateName(String what, String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new InvalidInputException(
                    "invalid "
                            + what
                            + " name '"
                            + name
                            + "': use 1-128 letters, digits, '_' or '-', starting with a letter"
                            + " or '_'");
        }
    }

    public String database() {
        return database;
    }

    public String table() {
        return table;
    }

    @Override
    public int compareTo(TablePath o) {
        int c = database.compareTo(o.database);
        return c != 0 ? c : table.compareTo(o.table);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TablePath p && p.database.equals(database) && p.table.equals(table);
    }

    @Override
    public int hashCode() {
        return Objects.hash(database, table);
    }

    @Override
    public String toString() {
        return database + "." + table;
    }
}
