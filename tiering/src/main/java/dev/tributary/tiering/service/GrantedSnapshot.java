package dev.tributary.tiering.service;

/**
 * A KV snapshot the server chose and leased (T52): a snapshot split that lost its snapshot with its
 * server's leadership reads this one instead.
 *
 * @param lease the lease that keeps it from retention
 * @param snapshotId the snapshot, on the server that granted it
 * @param logOffset the log offset the snapshot is consistent at
 */
public record GrantedSnapshot(SnapshotLease lease, long snapshotId, long logOffset) {}
