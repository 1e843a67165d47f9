package dev.tributary.tiering.commit;

/** When a table's finished round is handed to the coordinator for its commit (T25). */
public enum CommitOrder {
    /**
     * As soon as the round's last split ends, concurrently with other tables' commits (T24). Like
     * Fluss, this is completion order, not queue order.
     */
    COMPLETION,
    /** In the order the job was assigned the tables, one commit at a time. */
    ASSIGNMENT
}
