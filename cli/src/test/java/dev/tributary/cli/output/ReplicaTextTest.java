package dev.tributary.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.client.admin.BucketReplicaInfo;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** T50: what `tiering status` and `table describe` say about buckets' replicas. */
class ReplicaTextTest {
    private static BucketReplicaInfo bucket(
            int bucket, Integer leader, List<Integer> replicas, List<Integer> isr) {
        return new BucketReplicaInfo(
                bucket,
                leader == null ? OptionalInt.empty() : OptionalInt.of(leader),
                Optional.empty(),
                replicas,
                isr,
                1,
                List.of());
    }

    @Test
    void aReplicatedTableNamesTheBucketsThatAreNotInSync() {
        List<BucketReplicaInfo> buckets =
                List.of(
                        bucket(0, 1, List.of(1, 2, 3), List.of(1, 2, 3)),
                        bucket(1, 2, List.of(2, 3, 1), List.of(2, 1)),
                        bucket(2, null, List.of(3, 1, 2), List.of(3)));
        assertThat(ReplicaText.summary(buckets))
                .hasValue(
                        "replicas: 3 per bucket, 3 buckets, 1 under-replicated, 1 without a"
                                + " leader; bucket 1: leader 2, in sync [2, 1] of [2, 3, 1];"
                                + " bucket 2: no leader, in sync [3]");
    }

    @Test
    void bucketsWithOneCopyHaveNothingToSay() {
        List<BucketReplicaInfo> buckets =
                List.of(bucket(0, 0, List.of(0), List.of(0)), bucket(1, 0, List.of(0), List.of(0)));
        assertThat(ReplicaText.summary(buckets)).isEmpty();
        assertThat(ReplicaText.counts(buckets))
                .isEqualTo("2 buckets, 0 under-replicated, 0 without a leader");
    }

    @Test
    void aMovingBucketSaysWhereToAndIsNotUnderReplicatedWhileItsNewReplicaCatchesUp() {
        BucketReplicaInfo moving =
                new BucketReplicaInfo(
                        1,
                        OptionalInt.of(1),
                        Optional.empty(),
                        List.of(1, 2, 4),
                        List.of(1, 2),
                        0,
                        List.of(1, 4));
        List<BucketReplicaInfo> buckets =
                List.of(bucket(0, 1, List.of(1, 2), List.of(1, 2)), moving);
        assertThat(moving.underReplicated()).isFalse();
        assertThat(ReplicaText.summary(buckets))
                .hasValue(
                        "replicas: 2 per bucket, 2 buckets, 0 under-replicated, 0 without a"
                                + " leader, 1 moving; bucket 1: moving to [1, 4], in sync [1, 2]"
                                + " of [1, 2, 4]");
    }
}
