package dev.tributary.tiering.process;

import dev.tributary.client.Connection;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Writes a log table and a PK table (upserts and deletes over a small key space) with seeded
 * randomness: a bulk preload, then a steady trickle on its own thread while jobs come and go. The
 * store's log is the truth the verifier compares the lake with, so nothing needs remembering here
 * except that every write was acknowledged.
 */
final class ContinuousWriter implements AutoCloseable {
    private static final int PK_KEYS = 2_000;

    private final AppendWriter log;
    private final UpsertWriter pk;
    private final Random random;
    private final List<CompletableFuture<?>> acks = new ArrayList<>();
    private final ScheduledExecutorService thread =
            Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread t = new Thread(r, "continuous-writer");
                        t.setDaemon(true);
                        return t;
                    });
    private ScheduledFuture<?> ticks;
    private long logRows;
    private long pkOps;

    ContinuousWriter(Connection conn, TablePath logTable, TablePath pkTable, long seed) {
        this.log = conn.appendWriter(logTable);
        this.pk = conn.upsertWriter(pkTable);
        this.random = new Random(seed);
    }

    /** Writes and waits for the acknowledgements (before {@link #start}). */
    void preload(int logCount, int pkCount) throws Exception {
        write(logCount, pkCount);
        flushAndAwait();
    }

    /** From now on {@code logPerTick} log rows and {@code pkPerTick} PK changes every 100 ms. */
    void start(int logPerTick, int pkPerTick) {
        ticks =
                thread.scheduleAtFixedRate(
                        () -> write(logPerTick, pkPerTick), 0, 100, TimeUnit.MILLISECONDS);
    }

    /** Stops writing and waits until everything written is acknowledged. */
    void stop() throws Exception {
        ticks.cancel(false);
        thread.submit(
                        () -> {
                            flushAndAwait();
                            return null;
                        })
                .get(60, TimeUnit.SECONDS);
    }

    long logRows() {
        return logRows;
    }

    long pkOps() {
        return pkOps;
    }

    private void write(int logCount, int pkCount) {
        for (int i = 0; i < logCount; i++) {
            long id = random.nextLong();
            acks.add(log.append(Row.of(id, "click-" + id)));
        }
        for (int i = 0; i < pkCount; i++) {
            long key = random.nextInt(PK_KEYS);
            Row row = Row.of(key, "c" + key, random.nextInt(1000));
            acks.add(random.nextInt(6) == 0 ? pk.delete(row) : pk.upsert(row));
        }
        logRows += logCount;
        pkOps += pkCount;
        // keep the list short: failures surface in flushAndAwait, successes can be forgotten
        acks.removeIf(f -> f.isDone() && !f.isCompletedExceptionally());
    }

    private void flushAndAwait() throws Exception {
        log.flush();
        pk.flush();
        // throws if any write failed: every row the verifier expects must have been accepted
        CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get(60, TimeUnit.SECONDS);
        acks.clear();
    }

    @Override
    public void close() {
        thread.shutdownNow();
        try {
            log.close();
        } finally {
            pk.close();
        }
    }
}
