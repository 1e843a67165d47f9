package dev.tributary.planner.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tributary.common.exception.InvalidInputException;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TableLoadTest {
    static TableLoad skewed(int buckets, double skew) {
        return new TableLoad(
                "t",
                null,
                buckets,
                Duration.ofSeconds(30),
                null,
                false,
                1600,
                100,
                skew,
                0,
                true,
                null,
                null);
    }

    @Test
    @DisplayName(
            "T44 the hottest bucket gets skew times the mean share, the others the rest evenly")
    void bucketShares() {
        assertThat(skewed(16, 1).bucketShares()).containsOnly(1.0 / 16);
        double[] s = skewed(16, 4).bucketShares();
        assertThat(s[0]).isCloseTo(0.25, within(1e-12));
        assertThat(Arrays.copyOfRange(s, 1, 16)).containsOnly(0.05);
        assertThat(Arrays.stream(s).sum()).isCloseTo(1.0, within(1e-12));
        // every write in one bucket
        assertThat(skewed(4, 4).bucketShares()).containsExactly(1.0, 0.0, 0.0, 0.0);
    }

    @Test
    @DisplayName("T44 invalid shapes are refused with the field and the allowed range")
    void validation() {
        assertThatThrownBy(() -> skewed(4, 5))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("hot-bucket-skew")
                .hasMessageContaining("4");
        assertThatThrownBy(() -> skewed(4, 0.5)).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(
                        () ->
                                new TableLoad(
                                        "t",
                                        null,
                                        0,
                                        Duration.ofSeconds(1),
                                        null,
                                        false,
                                        1,
                                        1,
                                        1,
                                        0,
                                        true,
                                        null,
                                        null))
                .hasMessageContaining("buckets");
        assertThatThrownBy(
                        () ->
                                new TableLoad(
                                        "t",
                                        null,
                                        2,
                                        Duration.ofSeconds(1),
                                        null,
                                        false,
                                        1,
                                        1,
                                        1,
                                        0,
                                        true,
                                        null,
                                        Duration.ofSeconds(3)))
                .hasMessageContaining("first-round-duration needs round-duration");
    }

    @Test
    @DisplayName("T44 the lag target is the table's, else twice its freshness")
    void lagTarget() {
        assertThat(skewed(4, 1).effectiveLagTarget()).isEqualTo(Duration.ofMinutes(1));
        assertThat(skewed(4, 1).withLagTarget(Duration.ofSeconds(45)).effectiveLagTarget())
                .isEqualTo(Duration.ofSeconds(45));
        assertThat(skewed(4, 1).withFreshness(Duration.ofMinutes(2)).effectiveLagTarget())
                .isEqualTo(Duration.ofMinutes(4));
    }

    @Test
    @DisplayName("T44 more buckets keep the writes, and the hottest bucket's ratio to the mean")
    void moreBuckets() {
        TableLoad t = skewed(8, 2).withBuckets(32);
        assertThat(t.buckets()).isEqualTo(32);
        assertThat(t.hotBucketSkew()).isEqualTo(2);
        assertThat(t.writeBytesPerSecond()).isEqualTo(160_000);
        assertThat(skewed(8, 8).withBuckets(4).hotBucketSkew()).isEqualTo(4);
    }
}
