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
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.testing.S3FaultProxy;
import dev.tributary.lake.api.testing.S3FaultProxy.Action;
import dev.tributary.lake.api.testing.S3FaultProxy.Fault;
import dev.tributary.lake.api.testing.S3Server;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T47 for Paimon on S3 at the lake SPI: Paimon's S3 file IO (its plugin's S3A) behind {@link
 * S3FaultProxy} meets 503 SlowDown, resets and latency on a seeded share of its requests. A round
 * that fails is aborted and retried with the next epoch, as the coordinator does (a commit whose
 * outcome is unknown is looked up first); at the end every row is in the table once, and after the
 * orphan sweep no data object under the table that the snapshot does not reference.
 */
class PaimonS3FaultsITCase {
    private static final int ROUNDS = 5;

    @TempDir Path dir;

    @Test
    void t47_throttlingResetsAndLatencyFailOrSlowRoundsButEveryRowLandsOnceAndNothingIsLeft()
            throws Exception {
        long seed = Long.getLong("t47.seed", new Random().nextLong());
        Random random = new Random(seed);
        try (io.zonky.test.db.postgres.embedded.EmbeddedPostgres database =
                        PaimonS3Lake.startDatabase();
                S3Server s3 = S3Server.start(dir.resolve("s3"), "lake");
                S3FaultProxy proxy = S3FaultProxy.start(s3)) {
            Configuration conf = new Configuration();
            conf.setString("warehouse", "s3://lake/wh");
            // on an object store only a catalog with a lock commits (PaimonCommitSafety)
            conf.setString("metastore", "jdbc");
            conf.setString("uri", database.getJdbcUrl("postgres", "postgres"));
            conf.setString("catalog-key", "t47");
            conf.setString("lock.enabled", "true");
            conf.setString("s3.endpoint", proxy.endpoint());
            conf.setString("s3.access-key", S3Server.ACCESS_KEY);
            conf.setString("s3.secret-key", S3Server.SECRET_KEY);
            conf.setString("s3.path.style.access", "true");
            // S3A's own retries, short: a fault fails a round often enough to matter
            conf.setString("s3.attempts.maximum", "2");
            conf.setString("s3.retry.limit", "2");
            conf.setString("s3.retry.interval", "50ms");
            conf.setString("s3.retry.throttle.limit", "2");
            conf.setString("s3.retry.throttle.interval", "50ms");
            TablePath path = TablePath.of("db", "faulty");
            TableDescriptor table =
                    TableDescriptor.builder(
                                    Schema.newBuilder()
                                            .column("id", DataTypes.BIGINT())
                                            .column("name", DataTypes.STRING())
                                            .build())
                            .bucketCount(2)
                            .build();
            String tablePrefix = "/lake/wh/db.db/faulty/";
            Function<S3FaultProxy.Request, Fault> faults =
                    S3FaultProxy.random(seed, 0.15, 0.1, 0.05, 100);
            List<Long> written = new ArrayList<>();
            int failedAttempts = 0;
            long epoch = 0;
            try (LakeStorage lake = new PaimonLakeStoragePlugin().createLakeStorage(conf)) {
                lake.catalog().createTable(path, table);
                proxy.rule(
                        r -> r.target().startsWith(tablePrefix) ? faults.apply(r) : Fault.FORWARD);
                long offset = 0;
                for (int round = 1; round <= ROUNDS; round++) {
                    List<Long> ids = new ArrayList<>();
                    for (int i = 0; i < 40; i++) {
                        ids.add(random.nextLong());
                    }
                    while (true) {
                        epoch++;
                        List<LakeWriteResult> results = new ArrayList<>();
                        try {
                            for (int bucket = 0; bucket < 2; bucket++) {
                                try (LakeWriter w =
                                        lake.createWriter(
                                                new LakeWriterContext(
                                                        path, 1, table, bucket, epoch, round))) {
                                    for (int i = bucket; i < ids.size(); i += 2) {
                                        w.write(
                                                Row.of(ids.get(i), "row"),
                                                ChangeType.APPEND_ONLY,
                                                bucket,
                                                offset + i / 2,
                                                1_700_000_000_000L);
                                    }
                                    results.add(w.complete());
                                }
                            }
                            long end = offset + ids.size() / 2;
                            try (LakeCommitter c = lake.createCommitter(path)) {
                                c.commit(
                                        results,
                                        TieringSnapshotProperties.of(
                                                1, epoch, round, Map.of(0, end, 1, end)));
                            }
                            break;
                        } catch (RuntimeException e) {
                            failedAttempts++;
                            if (landed(lake, path, epoch)) {
                                break; // the commit landed, its answer was lost
                            }
                            abortQuietly(lake, path, results);
                        }
                    }
                    written.addAll(ids);
                    offset += ids.size() / 2;
                }
                long faultsSeen = proxy.faults();
                proxy.rule(r -> Fault.FORWARD);
                try (LakeCommitter c = lake.createCommitter(path)) {
                    List<String> swept =
                            c.deleteOrphanFiles(new OrphanPolicy(Instant.now(), 1, epoch));
                    System.out.printf(
                            "t47 paimon faults %d (503 %d, reset %d, delay %d) of %d requests,"
                                    + " %d failed round attempts, %d orphans swept (seed %d)%n",
                            faultsSeen,
                            proxy.count(Action.SLOW_DOWN),
                            proxy.count(Action.RESET),
                            proxy.count(Action.DELAY),
                            proxy.requests(),
                            failedAttempts,
                            swept.size(),
                            seed);
                }
                assertThat(faultsSeen).as("seed %d", seed).isPositive();
            }

            Options direct = new Options();
            direct.set("warehouse", "s3://lake/wh");
            direct.set("s3.endpoint", s3.endpoint());
            direct.set("s3.access-key", S3Server.ACCESS_KEY);
            direct.set("s3.secret-key", S3Server.SECRET_KEY);
            direct.set("s3.path.style.access", "true");
            try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(direct))) {
                List<Long> ids = new ArrayList<>();
                for (Map<String, Object> row : PaimonReads.readNamed(catalog, path)) {
                    ids.add((Long) row.get("id"));
                }
                assertThat(ids)
                        .as("every row once (seed %d)", seed)
                        .hasSize(written.size())
                        .doesNotHaveDuplicates();
                assertThat(new HashSet<>(ids)).isEqualTo(new HashSet<>(written));

                FileStoreTable t = PaimonLakeStorage.loadTable(catalog, path);
                Set<String> referenced = new HashSet<>();
                for (Split split : t.newReadBuilder().newScan().plan().splits()) {
                    ((DataSplit) split).dataFiles().forEach(f -> referenced.add(f.fileName()));
                }
                List<String> unreferenced = new ArrayList<>();
                for (String key : s3.keys("lake", "wh/db.db/faulty/bucket-")) {
                    String name = key.substring(key.lastIndexOf('/') + 1);
                    if (!referenced.contains(name)) {
                        unreferenced.add(key);
                    }
                }
                assertThat(unreferenced)
                        .as("data objects no snapshot references (seed %d)", seed)
                        .isEmpty();
            }
        }
    }

    /** Whether the table's newest tiering snapshot is the one {@code epoch} committed. */
    private static boolean landed(LakeStorage lake, TablePath path, long epoch) {
        for (int i = 0; ; i++) {
            try (LakeCommitter c = lake.createCommitter(path)) {
                Optional<LakeSnapshot> s = c.latestTieringSnapshot(1);
                return s.isPresent() && s.get().properties().epoch() == epoch;
            } catch (RuntimeException e) {
                if (i >= 20) {
                    throw e;
                }
            }
        }
    }

    private static void abortQuietly(
            LakeStorage lake, TablePath path, List<LakeWriteResult> results) {
        try (LakeCommitter c = lake.createCommitter(path)) {
            c.abort(results);
        } catch (RuntimeException e) {
            // what stays goes with the orphan sweep
        }
    }
}
