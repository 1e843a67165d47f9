package dev.tributary.lake.api.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class LakeTableStatsTest {

    private static SortedMap<Integer, Integer> buckets(int... filesPerBucket) {
        SortedMap<Integer, Integer> out = new TreeMap<>();
        for (int b = 0; b < filesPerBucket.length; b++) {
            out.put(b, filesPerBucket[b]);
        }
        return out;
    }

    @Test
    void t38_aPartitionedTableIsMeasuredPerPartitionAndBucketNeverSummedOverPartitions() {
        SortedMap<String, SortedMap<Integer, Integer>> perPartition = new TreeMap<>();
        perPartition.put("dt=2026-12-01", buckets(7, 2));
        perPartition.put("dt=2026-12-02", buckets(5, 6));
        LakeTableStats s = LakeTableStats.of(3, 4, 100, perPartition, 1, 1000);

        assertThat(s.dataFilesPerBucket())
                .as("per bucket number: the most files one partition holds in it")
                .containsExactly(java.util.Map.entry(0, 7), java.util.Map.entry(1, 6));
        assertThat(s.maxDataFilesPerBucket()).isEqualTo(7);
        assertThat(s.dataFiles()).isEqualTo(7 + 2 + 5 + 6);
        assertThat(s.dataFilesPerPartition()).isEqualTo(perPartition);
    }

    @Test
    void anUnpartitionedTableIsOnePartition() {
        LakeTableStats s = new LakeTableStats(3, 4, 100, buckets(3, 4), 0, 10);
        assertThat(s.dataFilesPerPartition())
                .containsOnlyKeys(LakeTableStats.UNPARTITIONED)
                .containsEntry(LakeTableStats.UNPARTITIONED, buckets(3, 4));
        assertThat(s.dataFilesPerBucket()).isEqualTo(buckets(3, 4));
        assertThat(s.dataFiles()).isEqualTo(7);
        assertThat(LakeTableStats.EMPTY.dataFiles()).isZero();
        assertThat(LakeTableStats.EMPTY.dataFilesPerPartition()).isEmpty();
    }
}
