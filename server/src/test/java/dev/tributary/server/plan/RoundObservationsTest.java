package dev.tributary.server.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.TieredRound;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.tiering.api.BucketPlan;
import dev.tributary.tiering.api.RoundPlan;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RoundObservationsTest {
    private final ManualClock clock = new ManualClock(1_000);

    @Test
    @DisplayName(
            "T44 a round's shape (log and snapshot buckets, its hottest bucket) and its lake commit"
                    + " time are observed for the planner's calibration")
    void shapeAndCommitTime() throws Exception {
        RoundObservations o = new RoundObservations(clock);
        TablePath path = TablePath.of("db", "t");
        RoundPlan plan =
                new RoundPlan(
                        7,
                        path,
                        TableDescriptor.builder(
                                        Schema.newBuilder().column("k", DataTypes.BIGINT()).build())
                                .bucketCount(3)
                                .build(),
                        0,
                        5,
                        11,
                        List.of(
                                BucketPlan.log(0, 100, 400),
                                BucketPlan.log(1, 0, 100),
                                BucketPlan.snapshot(2, 4, 900)),
                        Duration.ofSeconds(10));
        o.planned(plan);
        RoundObservations.Observed seen = o.round(7, 11).orElseThrow();
        assertThat(seen.logBuckets()).isEqualTo(2);
        assertThat(seen.snapshotBuckets()).isEqualTo(1);
        assertThat(seen.logRecords()).isEqualTo(400);
        assertThat(seen.skew()).isEqualTo(1.5);
        assertThat(seen.commitMillis()).isEqualTo(-1);

        LakeCommitStep lake =
                o.timing(
                        new LakeCommitStep() {
                            @Override
                            public LakeCommitResult commit(
                                    TablePath p,
                                    List<byte[]> r,
                                    TieringSnapshotProperties props,
                                    TieredRound base) {
                                clock.advance(Duration.ofMillis(740));
                                return LakeCommitResult.committed(3, 1, 1, 1);
                            }

                            @Override
                            public void abort(TablePath p, List<byte[]> r) {}

                            @Override
                            public List<String> deleteOrphanFiles(
                                    TablePath p, OrphanPolicy policy) {
                                return List.of();
                            }

                            @Override
                            public Optional<LakeSnapshot> latestTieringSnapshot(
                                    TablePath p, long id) {
                                return Optional.empty();
                            }
                        });
        lake.commit(
                path,
                List.of(),
                TieringSnapshotProperties.of(7, 5, 11, new TreeMap<>(), 1_000),
                TieredRound.NONE);
        assertThat(o.round(7, 11).orElseThrow().commitMillis()).isEqualTo(740);
        o.retainTables(java.util.Set.of());
        assertThat(o.round(7, 11)).isEmpty();
    }
}
