package dev.tributary.storage.kv;

/**
 * How a bucket's KV state stands against its log. Both states other than {@link #CURRENT} are
 * replaced by a rebuild (the newest snapshot and the log) at the next catch-up or lead, on the
 * thread of that call; until then the state takes no lookups, writes or snapshots.
 */
enum KvStateHealth {
    /** Holds exactly the log's changes below its applied offset. */
    CURRENT,
    /**
     * May hold changes past the high watermark: it led and stepped down before they were
     * acknowledged, or it replayed its whole log at a restart. Only a follower is stale.
     */
    STALE,
    /** A change failed half way (the state and the log may disagree). */
    FAILED;

    /** After a step down past the high watermark: a failed state stays failed. */
    KvStateHealth stale() {
        return this == FAILED ? FAILED : STALE;
    }

    boolean needsRebuild() {
        return this != CURRENT;
    }
}
