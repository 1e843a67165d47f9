package dev.tributary.common.row;

/**
 * The kind of a record in a log. Log tables hold {@link #APPEND_ONLY} records; a primary-key
 * table's log (its changelog) holds the other four, and replaying it on an empty state yields the
 * key-value state.
 */
public enum ChangeType {
    /** A row of an append-only log table. */
    APPEND_ONLY("+A", (byte) 0),
    /** A new key. */
    INSERT("+I", (byte) 1),
    /** The old row of an updated key (always followed by {@link #UPDATE_AFTER}). */
    UPDATE_BEFORE("-U", (byte) 2),
    /** The new row of an updated key. */
    UPDATE_AFTER("+U", (byte) 3),
    /** A deleted key, carrying its last row. */
    DELETE("-D", (byte) 4);

    private static final ChangeType[] BY_VALUE = values();

    private final String shortString;
    private final byte value;

    ChangeType(String shortString, byte value) {
        this.shortString = shortString;
        this.value = value;
    }

    public String shortString() {
        return shortString;
    }

    /** Stable on-disk/wire value. */
    public byte toByteValue() {
        return value;
    }

    public static ChangeType fromByteValue(byte b) {
        if (b < 0 || b >= BY_VALUE.length) {
            throw new IllegalArgumentException("unknown change type byte " + b);
        }
        return BY_VALUE[b];
    }

    /** True for records that add a row to the state ({@code +A}, {@code +I}, {@code +U}). */
    public boolean isAddition() {
        return this == APPEND_ONLY || this == INSERT || this == UPDATE_AFTER;
    }
}
