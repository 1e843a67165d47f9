package dev.tributary.storage.log;

/** When an append counts as durable, and so when it is acknowledged. */
public enum FlushPolicy {
    /**
     * fsync before the ack; concurrent appends share one fsync (group commit). Survives power loss.
     */
    FSYNC,
    /**
     * Ack once the bytes are in the OS page cache. Survives a process crash, not a machine crash;
     * the file is still fsynced on segment roll and close.
     */
    OS_CACHE
}
