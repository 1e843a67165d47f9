package dev.tributary.lake.api.maintenance;

/**
 * Compacts one lake bucket: reads the bucket's small files (applying deletes where the format has
 * them) and writes fewer, larger ones, with the format's own machinery (Paimon's compaction of
 * sorted runs and small append files; Iceberg data file rewrites). Nothing becomes visible until
 * the coordinator commits the result through {@link LakeMaintainer#commitCompaction}. Used by one
 * thread.
 */
public interface LakeCompactor extends AutoCloseable {

    /**
     * Runs the compaction. Blocking; an interrupt of the calling thread stops it with a {@link
     * dev.tributary.common.exception.RetriableException}, after which {@link #close()} deletes what
     * it wrote.
     *
     * @return what was rewritten; {@link LakeCompactionResult#isEmpty() empty} when the bucket
     *     needed nothing after all (it changed since it was planned)
     * @throws dev.tributary.common.exception.StorageException when the lake could not be read or
     *     written
     */
    LakeCompactionResult compact();

    /** Deletes every file this compactor wrote and that is not committed; idempotent. */
    void abort();

    /** Releases resources; deletes the files of a compaction that did not complete. */
    @Override
    void close();
}
