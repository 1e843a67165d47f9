package dev.tributary.storage.kv;

/** A KV snapshot and the lease that keeps it from retention. */
public record LeasedSnapshot(KvSnapshotInfo snapshot, SnapshotLease lease) {}
