package dev.tributary.server.cluster;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.coordinator.cluster.BucketReport;
import dev.tributary.coordinator.cluster.ReportedBucket;
import dev.tributary.coordinator.spi.KvSnapshotRef;
import dev.tributary.rpc.proto.BucketReportEntry;
import dev.tributary.rpc.proto.ServerHeartbeatRequest;
import java.util.ArrayList;
import java.util.List;

/** A heartbeat's bucket report to and from its protobuf fields (T49). */
public final class BucketReportCodec {
    private BucketReportCodec() {}

    /** Sets {@code report}'s fields on a heartbeat request. */
    public static ServerHeartbeatRequest.Builder write(
            BucketReport report, ServerHeartbeatRequest.Builder to) {
        to.setFullReport(report.full())
                .setFullReportPart(report.part())
                .setFullReportLast(report.last());
        for (ReportedBucket b : report.buckets()) {
            BucketReportEntry.Builder e =
                    BucketReportEntry.newBuilder()
                            .setTableId(b.tableId())
                            .setPartitionId(b.partitionId())
                            .setBucket(b.bucket())
                            .setEndOffset(b.endOffset());
            if (b.newestKvSnapshot() != null) {
                e.setHasKvSnapshot(true)
                        .setKvSnapshotId(b.newestKvSnapshot().snapshotId())
                        .setKvSnapshotLogOffset(b.newestKvSnapshot().logOffset());
            }
            to.addBuckets(e);
        }
        return to;
    }

    /**
     * The report a heartbeat request carries.
     *
     * @throws InvalidInputException for too many buckets or a malformed entry
     */
    public static BucketReport read(ServerHeartbeatRequest req) {
        if (req.getBucketsCount() > BucketReport.MAX_BUCKETS_PER_REQUEST) {
            throw new InvalidInputException(
                    "a heartbeat reports at most "
                            + BucketReport.MAX_BUCKETS_PER_REQUEST
                            + " buckets, got "
                            + req.getBucketsCount());
        }
        List<ReportedBucket> buckets = new ArrayList<>(req.getBucketsCount());
        for (BucketReportEntry e : req.getBucketsList()) {
            KvSnapshotRef snapshot = null;
            if (e.getHasKvSnapshot()) {
                if (e.getKvSnapshotLogOffset() < 0) {
                    throw new InvalidInputException(
                            "a KV snapshot's log offset is never negative: "
                                    + e.getKvSnapshotLogOffset());
                }
                snapshot = new KvSnapshotRef(e.getKvSnapshotId(), e.getKvSnapshotLogOffset());
            }
            buckets.add(
                    new ReportedBucket(
                            e.getTableId(),
                            e.getPartitionId(),
                            e.getBucket(),
                            e.getEndOffset(),
                            snapshot));
        }
        if (!req.getFullReport()) {
            return BucketReport.delta(buckets);
        }
        return new BucketReport(true, req.getFullReportPart(), req.getFullReportLast(), buckets);
    }
}
