package dev.tributary.lake.paimon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.testing.S3Server;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.jdbc.JdbcCatalog;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole tiering contract with the warehouse on S3-compatible object storage (a real s3proxy
 * server) behind Paimon's JDBC catalog on PostgreSQL with its lock (T45, T46). File checks look at
 * the objects the bucket holds.
 */
class PaimonS3JdbcLakeTieringTest extends PaimonLakeTieringTest {
    @RegisterExtension static final PaimonS3Lake LAKE = PaimonS3Lake.shared();

    @Override
    protected Map<String, String> catalogOptions() {
        return LAKE.catalogOptions(warehouse);
    }

    @Override
    protected String warehouseLocation() {
        return PaimonS3Lake.warehouse(warehouse);
    }

    @Override
    protected Path warehouseDir() {
        return LAKE.warehouseDir(warehouse);
    }

    /**
     * Two committers (two catalogs over the same JDBC database and bucket, like a commit thread
     * taken over by another while it still runs) commit the same round at the same moment, round
     * after round: each round lands in exactly one snapshot and every offset is in the table once.
     * First, while a third catalog holds the table's JDBC lock, neither commit gets through: the
     * commits really go through the lock, not by a rename on the store, which is not atomic there
     * (without the lock, both write the same snapshot id and one can replace the other).
     */
    @Test
    void t46_committersRacingOnTheSameTableLandEachRoundOnce() throws Exception {
        TablePath path = TablePath.of("db", "raced");
        TableDescriptor table = logTable(2);
        storage.catalog().createTable(path, table);
        int rounds = 8;
        int perRound = 5;
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try (LakeStorage other = createStorage(warehouse)) {
            Map<Integer, Long> offsets = new TreeMap<>();
            for (int round = 1; round <= rounds; round++) {
                LakeWriteResult result;
                try (LakeWriter w =
                        storage.createWriter(
                                new LakeWriterContext(path, 7, table, 0, round, round))) {
                    for (int i = 0; i < perRound; i++) {
                        long offset = (long) (round - 1) * perRound + i;
                        w.write(
                                Row.of(offset, "r" + round),
                                ChangeType.APPEND_ONLY,
                                0,
                                offset,
                                BASE_TS + offset);
                    }
                    result = w.complete();
                }
                offsets.put(0, (long) round * perRound);
                TieringSnapshotProperties props =
                        TieringSnapshotProperties.of(7, round, round, offsets);
                CountDownLatch held = new CountDownLatch(1);
                CountDownLatch release = new CountDownLatch(1);
                Future<?> holder =
                        round == 1 ? pool.submit(() -> holdTableLock(path, held, release)) : null;
                if (holder != null && !held.await(60, TimeUnit.SECONDS)) {
                    holder.get(1, TimeUnit.SECONDS); // its error, if it failed
                    throw new AssertionError("the table's lock was not taken in 60 s");
                }
                CyclicBarrier together = new CyclicBarrier(2);
                List<Future<LakeCommitResult>> outcomes = new ArrayList<>();
                List<Thread> committers = new CopyOnWriteArrayList<>();
                for (LakeStorage committer : List.of(storage, other)) {
                    outcomes.add(
                            pool.submit(
                                    () -> {
                                        committers.add(Thread.currentThread());
                                        try (LakeCommitter c = committer.createCommitter(path)) {
                                            together.await();
                                            return c.commit(List.of(result), props);
                                        }
                                    }));
                }
                if (holder != null) {
                    awaitBothWaitingForTheLock(outcomes, committers);
                    release.countDown();
                    holder.get(60, TimeUnit.SECONDS);
                }
                for (Future<LakeCommitResult> f : outcomes) {
                    assertThat(f.get(120, TimeUnit.SECONDS).outcome())
                            .isIn(
                                    LakeCommitResult.Outcome.COMMITTED,
                                    LakeCommitResult.Outcome.ALREADY_COMMITTED);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        Map<Long, Integer> snapshotsPerRound = new TreeMap<>();
        try (Catalog catalog = nativeCatalog()) {
            FileStoreTable t =
                    (FileStoreTable)
                            catalog.getTable(Identifier.create(path.database(), path.table()));
            for (Snapshot s : t.snapshotManager().safelyGetAllSnapshots()) {
                TieringSnapshotProperties.fromProperties(s.properties())
                        .ifPresent(p -> snapshotsPerRound.merge(p.roundId(), 1, Integer::sum));
            }
        }
        Map<Long, Integer> once = new TreeMap<>();
        for (long r = 1; r <= rounds; r++) {
            once.put(r, 1);
        }
        assertThat(snapshotsPerRound).as("tiering snapshots per round").isEqualTo(once);
        List<Long> read = new ArrayList<>();
        for (Row r : readWithFormatReader(path)) {
            read.add((Long) r.getField(0));
        }
        read.sort(null);
        List<Long> expected = new ArrayList<>();
        for (long o = 0; o < (long) rounds * perRound; o++) {
            expected.add(o);
        }
        assertThat(read).as("every offset once").isEqualTo(expected);
        // what status shows of the lake table carries no credential
        assertThat(storage.catalog().describeTable(path).toString())
                .contains("s3://")
                .doesNotContain(S3Server.SECRET_KEY);
    }

    /**
     * Waits until both committers wait in Paimon's JDBC catalog lock (seen in their stacks),
     * failing as soon as one of them finished: a commit got through the held lock.
     */
    private static void awaitBothWaitingForTheLock(
            List<Future<LakeCommitResult>> outcomes, List<Thread> committers) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            for (Future<LakeCommitResult> f : outcomes) {
                assertThat(f.isDone())
                        .as("a commit went through while another catalog held the table's lock")
                        .isFalse();
            }
            long waiting = committers.stream().filter(t -> waitsForLock(t)).count();
            if (waiting == 2) {
                return;
            }
            assertThat(System.nanoTime())
                    .as("both committers wait for the lock")
                    .isLessThan(deadline);
            Thread.sleep(20); // polling for a state, not timing anything
        }
    }

    private static boolean waitsForLock(Thread t) {
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getClassName().equals("org.apache.paimon.jdbc.JdbcCatalogLock")
                    && e.getMethodName().equals("lock")) {
                return true;
            }
        }
        return false;
    }

    /** Holds the table's lock through Paimon's own JDBC catalog until {@code release}. */
    private Void holdTableLock(TablePath path, CountDownLatch held, CountDownLatch release)
            throws Exception {
        Map<String, String> options = new HashMap<>(catalogOptions());
        options.put("warehouse", warehouseLocation());
        options.put("cache-enabled", "false");
        try (Catalog catalog =
                CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(options)))) {
            return ((JdbcCatalog) catalog)
                    .runWithLock(
                            Identifier.create(path.database(), path.table()),
                            () -> {
                                held.countDown();
                                release.await();
                                return null;
                            });
        }
    }
}
