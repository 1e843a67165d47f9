package dev.tributary.lake.paimon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.io.ObjectStoreCounts;
import dev.tributary.lake.api.io.ObjectStoreRequest;
import dev.tributary.lake.api.io.ObjectStoreRequests;
import dev.tributary.lake.api.testing.S3Server;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * T47 for Paimon on S3 (its S3 plugin over s3proxy), at the lake SPI: the file-IO operations of a
 * tiering round (write one bucket's split, commit it) stay flat as the table ages by 30 rounds. A
 * JDBC catalog on PostgreSQL with its lock, as Paimon on an object store requires.
 */
class PaimonS3RoundRequestsTest {
    private static final int ROUNDS = 30;

    @RegisterExtension static final PaimonS3Lake LAKE = PaimonS3Lake.shared();

    /** Names this test's warehouse prefix and catalog key. */
    @TempDir Path dir;

    private static long max(List<ObjectStoreCounts> rounds, int from, int to) {
        return rounds.subList(from, to).stream()
                .mapToLong(ObjectStoreCounts::totalRequests)
                .max()
                .orElseThrow();
    }

    @Test
    void t47_aRoundsFileOperationsDoNotGrowWithTheTablesAge() throws Exception {
        try (dev.tributary.lake.api.testing.S3FaultProxy proxy =
                dev.tributary.lake.api.testing.S3FaultProxy.start(LAKE.s3())) {
            java.util.List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
            proxy.rule(
                    r -> {
                        seen.add(r.method() + " " + r.target());
                        return dev.tributary.lake.api.testing.S3FaultProxy.Fault.FORWARD;
                    });
            Configuration conf = new Configuration();
            conf.setString("warehouse", PaimonS3Lake.warehouse(dir));
            // on an object store only a catalog with a lock commits (PaimonCommitSafety)
            conf.setString("metastore", "jdbc");
            conf.setString("uri", LAKE.jdbcUrl());
            conf.setString("catalog-key", dir.getFileName().toString());
            conf.setString("lock.enabled", "true");
            conf.setString("s3.endpoint", proxy.endpoint());
            conf.setString("s3.access-key", S3Server.ACCESS_KEY);
            conf.setString("s3.secret-key", S3Server.SECRET_KEY);
            conf.setString("s3.path.style.access", "true");
            TablePath path = TablePath.of("db", "aging");
            TableDescriptor table =
                    TableDescriptor.builder(
                                    Schema.newBuilder()
                                            .column("id", DataTypes.BIGINT())
                                            .column("name", DataTypes.STRING())
                                            .build())
                            .bucketCount(2)
                            .build();
            // Paimon reads every manifest of the table when it opens a bucket's writer and
            // merges them once there are this many: a round's reads grow until then
            conf.setString("table.manifest.merge-min-count", "5");
            List<ObjectStoreCounts> rounds = new ArrayList<>();
            List<Long> http = new ArrayList<>();
            try (LakeStorage lake = new PaimonLakeStoragePlugin().createLakeStorage(conf)) {
                lake.catalog().createTable(path, table);
                long offset = 0;
                for (int round = 1; round <= ROUNDS; round++) {
                    ObjectStoreCounts before = ObjectStoreRequests.global().snapshot(path);
                    seen.clear();
                    List<LakeWriteResult> results = new ArrayList<>();
                    for (int bucket = 0; bucket < 2; bucket++) {
                        try (LakeWriter w =
                                lake.createWriter(
                                        new LakeWriterContext(
                                                path, 1, table, bucket, round, round))) {
                            for (int i = 0; i < 20; i++) {
                                w.write(
                                        Row.of(offset + i, "row " + (offset + i)),
                                        ChangeType.APPEND_ONLY,
                                        bucket,
                                        offset + i,
                                        1_700_000_000_000L + offset + i);
                            }
                            results.add(w.complete());
                        }
                    }
                    offset += 20;
                    try (LakeCommitter c = lake.createCommitter(path)) {
                        c.commit(
                                results,
                                TieringSnapshotProperties.of(
                                        1, round, round, Map.of(0, offset, 1, offset)));
                    }
                    rounds.add(ObjectStoreRequests.global().snapshot(path).minus(before));
                    http.add((long) seen.size());
                }
            }
            for (int i = 0; i < rounds.size(); i++) {
                System.out.printf(
                        "t47 paimon round %d: %s, %d HTTP requests%n",
                        i + 1, rounds.get(i), http.get(i));
            }
            // the merge cycle repeats every few rounds: compare a window of the young table with
            // one of the old, each holding a whole cycle
            long early = max(rounds, 2, 12);
            long late = max(rounds, ROUNDS - 10, ROUNDS);
            assertThat(rounds.get(2).requests(ObjectStoreRequest.PUT)).isPositive();
            assertThat(late)
                    .as("most file operations of rounds 21-30 vs rounds 3-12: %s", rounds)
                    .isLessThanOrEqualTo(early + 2);
        }
    }
}
