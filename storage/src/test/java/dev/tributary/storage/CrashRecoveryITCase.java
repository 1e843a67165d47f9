package dev.tributary.storage;

import static dev.tributary.storage.StoreTestSupport.LOG_SCHEMA;
import static dev.tributary.storage.StoreTestSupport.PK_SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.record.WriteBatchBuilder;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.TableDescriptor;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a writer process (SIGKILL) in the middle of appending and reopens its data: every batch
 * acknowledged before the kill is there, batches are whole, offsets are dense, and the PK bucket's
 * KV equals its changelog replayed from 0.
 */
class CrashRecoveryITCase {
    private static final long LOG_TABLE = 1;
    private static final long PK_TABLE = 2;
    private static final int KEYS = 50;

    @TempDir Path dir;

    static TableDescriptor logTable() {
        return TableDescriptor.builder(LOG_SCHEMA).bucketCount(1).build();
    }

    static TableDescriptor pkTable() {
        return TableDescriptor.builder(PK_SCHEMA).bucketCount(1).build();
    }

    static Configuration conf() {
        return new Configuration().setString("log.segment.size", "16kb");
    }

    /** Batch {@code i} of the log table: rows i*10 .. i*10+9. */
    static WriteBatch logBatch(int i) {
        WriteBatchBuilder b = WriteBatch.builder(LOG_TABLE, 0, 0, LOG_SCHEMA);
        for (int r = 0; r < 10; r++) {
            b.append(Row.of((long) i * 10 + r, "row", new byte[20]));
        }
        return b.build();
    }

    /** Batch {@code i} of the PK table: upserts and a delete over a small key space. */
    static WriteBatch pkBatch(int i) {
        WriteBatchBuilder b = WriteBatch.builder(PK_TABLE, 0, 0, PK_SCHEMA);
        for (int r = 0; r < 5; r++) {
            b.upsert(pkRow(i, r));
        }
        b.delete(Row.of((i * 7) % KEYS, null, null));
        return b.build();
    }

    static Row pkRow(int i, int r) {
        return Row.of((i * 5 + r) % KEYS, "v" + i + "." + r, (long) i);
    }

    /** The PK state after batches 0 .. n-1. */
    static TreeMap<Integer, Row> pkModel(int n) {
        TreeMap<Integer, Row> m = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            for (int r = 0; r < 5; r++) {
                Row row = pkRow(i, r);
                m.put((Integer) row.getField(0), row);
            }
            m.remove((i * 7) % KEYS);
        }
        return m;
    }

    /** The writer process: appends until killed, printing each acknowledged batch index. */
    public static void main(String[] args) throws Exception {
        BucketStore store = BucketStore.open(Path.of(args[0]), conf(), Clock.system());
        store.openTable(LOG_TABLE, logTable(), 0, LOG_SCHEMA);
        store.openTable(PK_TABLE, pkTable(), 0, PK_SCHEMA);
        for (int i = 0; ; i++) {
            store.append(logBatch(i)).join();
            store.append(pkBatch(i)).join();
            if (i % 25 == 24) {
                store.snapshot(new TableBucket(PK_TABLE, 0));
            }
            System.out.println("acked " + i);
            System.out.flush();
        }
    }

    @Test
    void acknowledgedBatchesSurviveAKilledWriter() throws Exception {
        Process p =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-cp",
                                System.getProperty("java.class.path"),
                                CrashRecoveryITCase.class.getName(),
                                dir.toString())
                        .redirectError(ProcessBuilder.Redirect.DISCARD)
                        .start();
        int lastAcked = -1;
        try (BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("acked ")) {
                    lastAcked = Integer.parseInt(line.substring(6));
                    if (lastAcked >= 120) {
                        p.destroyForcibly(); // SIGKILL while it keeps appending
                        break;
                    }
                }
            }
        } finally {
            p.destroyForcibly();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(lastAcked).isGreaterThanOrEqualTo(120);

        try (BucketStore store = BucketStore.open(dir, conf(), Clock.system())) {
            store.openTable(LOG_TABLE, logTable(), 0, LOG_SCHEMA);
            store.openTable(PK_TABLE, pkTable(), 0, PK_SCHEMA);
            TableBucket logBucket = new TableBucket(LOG_TABLE, 0);
            List<LogRecord> records = StoreTestSupport.readAll(store, logBucket, 0, LOG_SCHEMA);
            assertThat(records.size() % 10).as("whole batches only").isZero();
            assertThat(records.size() / 10).isGreaterThan(lastAcked);
            for (int i = 0; i < records.size(); i++) {
                assertThat(records.get(i).offset()).isEqualTo(i);
                assertThat(records.get(i).row().getField(0)).isEqualTo((long) i);
            }

            TableBucket pkBucket = new TableBucket(PK_TABLE, 0);
            TreeMap<Integer, Row> kv = new TreeMap<>();
            for (int k = 0; k < KEYS; k++) {
                Optional<Row> row = store.lookup(pkBucket, Row.of(k));
                row.ifPresent(r -> kv.put((Integer) r.getField(0), r));
            }
            List<LogRecord> changelog = StoreTestSupport.readAll(store, pkBucket, 0, PK_SCHEMA);
            assertThat(ChangelogPropertyTest.replay(changelog)).isEqualTo(kv);
            // the state is that of some whole prefix of batches, at least all acknowledged ones
            List<Integer> matching = new ArrayList<>();
            // the writer keeps appending until the SIGKILL lands, which on a loaded machine can be
            // many batches after the ack the test read
            for (int n = lastAcked + 1; n <= lastAcked + 200; n++) {
                if (pkModel(n).equals(kv)) {
                    matching.add(n);
                }
            }
            assertThat(matching).as("prefixes of batches matching the recovered KV").isNotEmpty();
        }
    }
}
