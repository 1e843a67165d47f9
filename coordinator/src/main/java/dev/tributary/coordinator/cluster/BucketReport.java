package dev.tributary.coordinator.cluster;

import dev.tributary.common.exception.InvalidInputException;
import java.util.List;

/**
 * The bucket states one heartbeat request carries (T49). A server sends a <em>full</em> report
 * (every bucket it holds) to a coordinator that has none from it yet, split into parts of at most
 * {@link #MAX_BUCKETS_PER_REQUEST} buckets sent one after the other; otherwise a <em>delta</em>:
 * the buckets whose state changed since its last accepted heartbeat, also split when larger.
 *
 * @param full whether this request is a part of a full report
 * @param part the part's number within a full report, from 0 (0 for a delta)
 * @param last whether this is the last part of a full report (true for a delta)
 * @param buckets the reported states, at most {@link #MAX_BUCKETS_PER_REQUEST}
 */
public record BucketReport(boolean full, int part, boolean last, List<ReportedBucket> buckets) {

    /**
     * Most buckets in one heartbeat request: about 40 bytes each on the wire, so a request stays
     * well under 100 KB (the gRPC limit is 64 MB) and its handling on the coordinator's event loop
     * stays short.
     */
    public static final int MAX_BUCKETS_PER_REQUEST = 2048;

    /**
     * @throws InvalidInputException for too many buckets or an inconsistent part number
     */
    public BucketReport {
        if (buckets.size() > MAX_BUCKETS_PER_REQUEST) {
            throw new InvalidInputException(
                    "a heartbeat reports at most "
                            + MAX_BUCKETS_PER_REQUEST
                            + " buckets, got "
                            + buckets.size()
                            + "; split the report into several requests");
        }
        if (part < 0 || (!full && (part != 0 || !last))) {
            throw new InvalidInputException(
                    "malformed heartbeat report: full=" + full + " part=" + part + " last=" + last);
        }
        buckets = List.copyOf(buckets);
    }

    /** A delta report of {@code buckets}. */
    public static BucketReport delta(List<ReportedBucket> buckets) {
        return new BucketReport(false, 0, true, buckets);
    }
}
