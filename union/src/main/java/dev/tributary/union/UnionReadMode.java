package dev.tributary.union;

/** Whether a union read ends or follows the log. */
public enum UnionReadMode {
    /**
     * Reads up to each bucket's end offset taken when the read is planned: a consistent view of the
     * table at those offsets (PK tables: at those offsets or, after a retention race, a later one).
     */
    BATCH,
    /**
     * Reads what BATCH reads, then follows each bucket's log: new log records, and for a PK table
     * its changelog ({@code +I}, {@code -U/+U}, {@code -D}).
     */
    STREAMING
}
