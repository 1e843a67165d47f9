package dev.tributary.cli.input;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.record.WriteKind;
import java.util.Locale;

/**
 * The change a line of {@code tributary write --op-column} asks for: Flink's changelog notation
 * ({@code +I}, {@code +U}, {@code -D}) or words ({@code insert}, {@code update}, {@code upsert},
 * {@code delete}). A primary-key table upserts inserts and updates alike (the server finds out
 * which it was) and deletes by key.
 */
public final class ChangeOp {
    private ChangeOp() {}

    /**
     * @throws InvalidInputException for anything else, with the accepted spellings
     */
    public static WriteKind parse(String text, String column) {
        if (text == null) {
            throw new InvalidInputException(
                    "the op column '" + column + "' is empty; give +I, +U or -D");
        }
        switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "+i":
            case "+u":
            case "insert":
            case "update":
            case "upsert":
                return WriteKind.UPSERT;
            case "-d":
            case "delete":
                return WriteKind.DELETE;
            case "-u":
                throw new InvalidInputException(
                        "op '-U' (the old row of an update) cannot be written: give only the +U"
                                + " line of each update");
            default:
                throw new InvalidInputException(
                        "op '"
                                + text
                                + "' in column '"
                                + column
                                + "' is not one of +I, +U, -D (or insert, update, upsert,"
                                + " delete)");
        }
    }
}
