package dev.tributary.cli.output;

import dev.tributary.client.admin.BucketReplicaInfo;
import java.util.List;
import java.util.Optional;

/** Buckets' replicas (T50) as the CLI prints them. */
public final class ReplicaText {
    private ReplicaText() {}

    /** "6 buckets, 1 under-replicated, 0 without a leader" (and ", 2 moving" if any are). */
    public static String counts(List<BucketReplicaInfo> buckets) {
        long under = buckets.stream().filter(BucketReplicaInfo::underReplicated).count();
        long leaderless = buckets.stream().filter(b -> b.leader().isEmpty()).count();
        long moving = buckets.stream().filter(BucketReplicaInfo::moving).count();
        return buckets.size()
                + " buckets, "
                + under
                + " under-replicated, "
                + leaderless
                + " without a leader"
                + (moving > 0 ? ", " + moving + " moving" : "");
    }

    /**
     * One line for a replicated table (or partition): copies per bucket, the counts and each bucket
     * that is not fully in sync, e.g. "replicas: 3 per bucket, 6 buckets, 1 under-replicated, 0
     * without a leader; bucket 2: leader 1, in sync [1, 3] of [1, 2, 3]". A moving bucket says
     * where to, e.g. "bucket 4: moving to [1, 4], in sync [1, 2] of [1, 2, 4]". Empty for buckets
     * with one copy each and none moving, which have nothing to say.
     */
    public static Optional<String> summary(List<BucketReplicaInfo> buckets) {
        int copies =
                buckets.stream()
                        .mapToInt(b -> b.moving() ? b.moveTarget().size() : b.replicas().size())
                        .max()
                        .orElse(1);
        if (copies <= 1 && buckets.stream().noneMatch(BucketReplicaInfo::moving)) {
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
            } else if (b.moving()) {
                line.append("; bucket ")
                        .append(b.bucket())
                        .append(": moving to ")
                        .append(b.moveTarget())
                        .append(", in sync ")
                        .append(b.inSyncReplicas())
                        .append(" of ")
                        .append(b.replicas());
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
