package dev.tributary.client.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.rpc.proto.TableMaintenancePb;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LakeMaintenanceTest {

    @Test
    void liveDataFilesComeFromTheServerForPartitionedTables() {
        // two partitions x two buckets, three files each: per bucket number the worst partition
        TableMaintenancePb pb =
                TableMaintenancePb.newBuilder()
                        .setState("IDLE")
                        .putAllDataFilesPerBucket(Map.of(0, 3, 1, 3))
                        .setMaxFilesPerBucket(3)
                        .setLiveDataFiles(12)
                        .build();
        assertThat(LakeMaintenance.fromPb(pb).liveDataFiles()).isEqualTo(12);
    }

    @Test
    void aServerWithoutTheFieldHadOnlyUnpartitionedTablesSoTheBucketsAddUp() {
        TableMaintenancePb pb =
                TableMaintenancePb.newBuilder()
                        .setState("IDLE")
                        .putAllDataFilesPerBucket(Map.of(0, 3, 1, 2))
                        .setMaxFilesPerBucket(3)
                        .build();
        assertThat(LakeMaintenance.fromPb(pb).liveDataFiles()).isEqualTo(5);
    }
}
