package dev.tributary.common.record;

import dev.tributary.common.exception.InvalidInputException;

/**
 * What a client asks for in one record of a {@link WriteBatch}. A log table accepts only {@link
 * #APPEND}; a primary-key table accepts {@link #UPSERT} and {@link #DELETE}.
 */
public enum WriteKind {
    /** Append the row to a log table. */
    APPEND((byte) 0),
    /** Insert the row, or replace the row with the same primary key. */
    UPSERT((byte) 1),
    /** Delete the row with this primary key; only the key fields are read. */
    DELETE((byte) 2);

    private static final WriteKind[] BY_VALUE = values();

    private final byte value;

    WriteKind(byte value) {
        this.value = value;
    }

    /** Stable wire value. */
    public byte toByteValue() {
        return value;
    }

    /**
     * The kind for a wire value.
     *
     * @throws InvalidInputException for an unknown value
     */
    public static WriteKind fromByteValue(byte b) {
        if (b < 0 || b >= BY_VALUE.length) {
            throw new InvalidInputException(
                    "unknown write kind "
                            + b
                            + " in a write batch: expected 0 (append), 1"
                            + " (upsert) or 2 (delete)");
        }
        return BY_VALUE[b];
    }
}
