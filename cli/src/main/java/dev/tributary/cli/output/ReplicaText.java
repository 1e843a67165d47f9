package dev.tributary.cli.output;

import dev.tributary.client.admin.BucketReplicaInfo;
import java.util.List;
import java.util.Optional;

/** Buckets' replicas (T50) as the CLI prints them. */
public final class ReplicaText {
    private ReplicaText() {}

    /** "6 buckets, 1 under-replicated, 0 without a leader". */
    public static String counts(List<BucketReplicaInfo> buckets) {
        long under = buckets.stream().filter(BucketReplicaInfo::underReplicated).count();
        long leaderless = buckets.stream().filter(b -> b.leader().isEmpty()).count();
        return buckets.size()
                + " buckets, "
                + under
                + " under-replicated, "
                + leaderless
                + " without a leader";
    }

    /**
     * One line for a replicated table (or partition): copies per bucket, the counts and each bucket
     * that is not fully in sync, e.g. "replicas: 3 per bucket, 6 buckets, 1 under-replicated, 0
     * without a leader; bucket 2: leader 1, in sync [1, 3] of [1, 2, 3]". Empty for buckets with
     * one copy each, which have nothing to say.
     */
    public static Optional<String> summary(List<BucketReplicaInfo> buckets) {
        int copies = buckets.stream().mapToInt(b -> b.replicas().size()).max().orElse(1);
        if (copies <= 1) {
            return Optional.empty();
        }
        StringBuilder line =
                new StringBuilder("replicas: ")
                        .append(copies)
                        .append(" per bucket, ")
                        .append(counts(buckets));
        for (BucketReplicaInfo b : buckets) {
            if (b.leader().isEmpty()) {
                line.append("; bucket ")
                        .append(b.bucket())
                        .append(": no leader, in sync ")
                        .append(b.inSyncReplicas());
            } else if (b.underReplicated()) {
                line.append("; bucket ")
                        .append(b.bucket())
                        .append(": leader ")
                        .append(b.leader().getAsInt())
                        .append(", in sync ")
                        .append(b.inSyncReplicas())
                        .append(" of ")
                        .append(b.replicas());
            }
        }
        return Optional.of(line.toString());
    }
}
