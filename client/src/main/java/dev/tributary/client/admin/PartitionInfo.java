package dev.tributary.client.admin;

import dev.tributary.common.id.PartitionSpec;
import dev.tributary.rpc.proto.PartitionInfoPb;

/**
 * A partition of a partitioned table as the server describes it (T30).
 *
 * @param partitionId the server-assigned id; a dropped and re-added partition gets a new one
 * @param spec its values and Hive-style name ({@code dt=2026-12-01})
 * @param state {@code ACTIVE}, or {@code DROPPING}: dropped, refusing writes, and removed once it
 *     is tiered to its end (T33)
 * @param createdAtMillis creation time, epoch milliseconds
 * @param dropLakePartition DROPPING only: its lake partition is dropped too when it goes
 */
public record PartitionInfo(
        long partitionId,
        PartitionSpec spec,
        String state,
        long createdAtMillis,
        boolean dropLakePartition) {

    public String name() {
        return spec.name();
    }

    public boolean isDropping() {
        return "DROPPING".equals(state);
    }

    /** Decodes the wire form. */
    public static PartitionInfo fromPb(PartitionInfoPb pb) {
        return new PartitionInfo(
                pb.getPartitionId(),
                PartitionSpec.parse(pb.getName()),
                pb.getState(),
                pb.getCreatedAtMillis(),
                pb.getDropLakePartition());
    }
}
