package dev.tributary.lake.api.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.id.PartitionBucket;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** T32: every (partition, bucket) offset in the snapshot properties, compactly. */
class PartitionOffsetsPropertiesTest {

    private static TieringSnapshotProperties partitioned(
            int partitions, int buckets, Random random) {
        return partitioned(partitions, buckets, random, false);
    }

    /**
     * @param similar buckets of a partition hold similar counts (a hash spreads a day's rows
     *     evenly), partitions differ; otherwise every offset is independent (the worst case)
     */
    private static TieringSnapshotProperties partitioned(
            int partitions, int buckets, Random random, boolean similar) {
        SortedMap<PartitionBucket, Long> offsets = new TreeMap<>();
        Map<Long, String> names = new HashMap<>();
        LocalDate day = LocalDate.of(2024, 1, 1);
        for (int p = 0; p < partitions; p++) {
            long id = 1_000 + p * 3L; // ids of removed partitions leave gaps
            names.put(id, "dt=" + day.plusDays(p));
            // a day of up to 80M rows; a hash gives each bucket rows/16 +- about its square root
            long perBucket = random.nextInt(5_000_000);
            for (int b = 0; b < buckets; b++) {
                long offset =
                        similar
                                ? perBucket
                                        + Math.round(random.nextGaussian() * Math.sqrt(perBucket))
                                : random.nextInt(5_000_000);
                offsets.put(new PartitionBucket(id, b), Math.max(0, offset));
            }
        }
        return TieringSnapshotProperties.of(7, 3_000_000_012L, 41, offsets, names, 1_700_000_000L);
    }

    @Test
    void t32_everyPartitionBucketOffsetAndNameRoundTrips() {
        long seed = new Random().nextLong();
        TieringSnapshotProperties p = partitioned(37, 5, new Random(seed));
        Map<String, String> text = p.toProperties();
        assertThat(text).containsKey(TieringSnapshotProperties.PARTITION_OFFSETS);
        assertThat(text).doesNotContainKey(TieringSnapshotProperties.BUCKET_OFFSETS);
        TieringSnapshotProperties back =
                TieringSnapshotProperties.fromProperties(text).orElseThrow();
        assertThat(back).as("seed %s", seed).isEqualTo(p);
        assertThat(back.partitionOffsets(1_003)).hasSize(5);
        assertThat(back.bucketOffsets()).as("no unpartitioned buckets").isEmpty();
    }

    @Test
    void t32_aThousandPartitionsOfSixteenBucketsFitInAFewTensOfKilobytes() {
        long seed = new Random().nextLong();
        for (boolean similar : new boolean[] {true, false}) {
            TieringSnapshotProperties p = partitioned(1_000, 16, new Random(seed), similar);
            String encoded = p.toProperties().get(TieringSnapshotProperties.PARTITION_OFFSETS);
            StringBuilder plain = new StringBuilder();
            p.offsets().forEach((k, v) -> plain.append(k).append('=').append(v).append(','));
            p.partitionNames().forEach((k, v) -> plain.append(k).append('=').append(v).append(','));
            System.out.printf(
                    "1000 x 16 offsets up to 5M (%s) and names: %d chars encoded, %d as plain"
                            + " text%n",
                    similar ? "buckets of a partition spread like hashed rows" : "all independent",
                    encoded.length(),
                    plain.length());
            // a day's rows spread evenly over its buckets: their offsets differ little
            assertThat(encoded.length())
                    .as("seed %s", seed)
                    .isLessThan(similar ? 48 * 1024 : 96 * 1024);
            assertThat(encoded.length()).isLessThan(plain.length() / 2);
            assertThat(TieringSnapshotProperties.fromProperties(p.toProperties()).orElseThrow())
                    .isEqualTo(p);
        }
    }

    @Test
    void snapshotsWrittenBeforePartitionsStillRead() {
        Map<String, String> old =
                Map.of(
                        "tributary.table-id", "7",
                        "tributary.epoch", "3",
                        "tributary.round-id", "4",
                        "tributary.bucket-offsets", "0=12,1=40");
        TieringSnapshotProperties p = TieringSnapshotProperties.fromProperties(old).orElseThrow();
        assertThat(p.bucketOffsets()).containsExactly(Map.entry(0, 12L), Map.entry(1, 40L));
        assertThat(p.offsets()).containsOnlyKeys(PartitionBucket.of(0), PartitionBucket.of(1));
        assertThat(p.partitionNames()).isEmpty();
        // and an unpartitioned table's properties keep that form
        assertThat(TieringSnapshotProperties.of(7, 3, 4, Map.of(0, 12L)).toProperties())
                .containsEntry("tributary.bucket-offsets", "0=12")
                .doesNotContainKey(TieringSnapshotProperties.PARTITION_OFFSETS);
    }

    @Test
    void malformedPartitionOffsetsAreCorruptDataNotNothing() {
        Map<String, String> bad = new HashMap<>(partitioned(2, 2, new Random(1)).toProperties());
        bad.put(TieringSnapshotProperties.PARTITION_OFFSETS, "1:AAAA");
        assertThatThrownBy(() -> TieringSnapshotProperties.fromProperties(bad))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("partition offsets");
        bad.put(TieringSnapshotProperties.PARTITION_OFFSETS, "9:xyz");
        assertThatThrownBy(() -> TieringSnapshotProperties.fromProperties(bad))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("unknown layout");
    }
}
