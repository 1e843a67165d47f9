package dev.tributary.coordinator.store;

/**
 * How far a server has applied its metadata log. After a restart a replicated store applies the
 * changes it applied before once more, old ones included, until its applied index reaches the last
 * index its log held at the start: a state seen on the way may already be undone by a later change.
 */
public interface MetadataLog {
    /** The index of the newest metadata change this server's log holds, applied or not. */
    long lastLogIndex();

    /** The index of the newest metadata change applied here. */
    long appliedIndex();
}
