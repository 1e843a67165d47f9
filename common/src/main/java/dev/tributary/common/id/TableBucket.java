package dev.tributary.common.id;

/**
 * One bucket of one table. The table id (not the path) identifies the table, so a dropped and
 * re-created table with the same name never shares buckets with its predecessor.
 */
public record TableBucket(long tableId, int bucket) implements Comparable<TableBucket> {
    public TableBucket {
        if (tableId < 0) {
            throw new IllegalArgumentException("table id must be >= 0: " + tableId);
        }
        if (bucket < 0) {
            throw new IllegalArgumentException("bucket must be >= 0: " + bucket);
        }
    }

    @Override
    public int compareTo(TableBucket o) {
        int c = Long.compare(tableId, o.tableId);
        return c != 0 ? c : Integer.compare(bucket, o.bucket);
    }

    @Override
    public String toString() {
        return tableId + "/" + bucket;
    }
}
