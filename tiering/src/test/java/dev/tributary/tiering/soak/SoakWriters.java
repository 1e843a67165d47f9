package dev.tributary.tiering.soak;

import dev.tributary.client.Connection;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * The soak's clients: idempotent writers (the client's defaults) on a connection through the soak's
 * proxy, writing every log table and the primary-key table on a steady pace from one thread while
 * faults happen. Every row carries a unique number (the log row's id, the upsert's name {@code
 * op-<n>}), and every acknowledgement or failure is recorded per number, so the audit can tell
 * acknowledged rows (exactly once in the store) from rows in doubt (at most once).
 */
public final class SoakWriters implements AutoCloseable {
    /** A row's fate as the writer saw it. */
    public static final byte SENT = 0;

    public static final byte ACKED = 1;
    public static final byte FAILED = 2;

    /** Keys of the primary-key table: few enough that rows are updated and deleted often. */
    public static final int PK_KEYS = 2_000;

    /** What one table's writer sent and heard back. */
    public static final class Ledger {
        private byte[] states = new byte[1 << 16];
        private int count;

        synchronized int next() {
            if (count == states.length) {
                states = java.util.Arrays.copyOf(states, states.length * 2);
            }
            return count++;
        }

        synchronized void mark(int n, byte state) {
            states[n] = state;
        }

        public synchronized int count() {
            return count;
        }

        public synchronized byte state(int n) {
            return n < count ? states[n] : -1;
        }

        public synchronized int countOf(byte state) {
            int c = 0;
            for (int i = 0; i < count; i++) {
                if (states[i] == state) {
                    c++;
                }
            }
            return c;
        }
    }

    private final List<AppendWriter> logWriters = new ArrayList<>();
    private final List<Ledger> logLedgers = new ArrayList<>();
    private final UpsertWriter pk;
    private final Ledger pkLedger = new Ledger();
    private final Random random;
    private final ScheduledExecutorService thread =
            Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread t = new Thread(r, "soak-writers");
                        t.setDaemon(true);
                        return t;
                    });
    private volatile ScheduledFuture<?> ticks;
    private long deletes;
    private final Map<String, Integer> errors = new java.util.concurrent.ConcurrentHashMap<>();

    public SoakWriters(Connection conn, List<TablePath> logTables, TablePath pkTable, long seed) {
        for (TablePath t : logTables) {
            logWriters.add(conn.appendWriter(t));
            logLedgers.add(new Ledger());
        }
        this.pk = conn.upsertWriter(pkTable);
        this.random = new Random(seed);
    }

    /** Every 100 ms: {@code logPerTick} rows into each log table, {@code pkPerTick} PK changes. */
    public void start(int logPerTick, int pkPerTick) {
        ticks =
                thread.scheduleAtFixedRate(
                        () -> {
                            try {
                                write(logPerTick, pkPerTick);
                            } catch (RuntimeException e) {
                                System.out.println("soak writer: " + e);
                            }
                        },
                        0,
                        100,
                        TimeUnit.MILLISECONDS);
    }

    private void write(int logPerTick, int pkPerTick) {
        for (int t = 0; t < logWriters.size(); t++) {
            Ledger ledger = logLedgers.get(t);
            for (int i = 0; i < logPerTick; i++) {
                int n = ledger.next();
                track(logWriters.get(t).append(Row.of((long) n, "row-" + n)), ledger, n);
            }
        }
        for (int i = 0; i < pkPerTick; i++) {
            long key = random.nextInt(PK_KEYS);
            if (random.nextInt(8) == 0) {
                pk.delete(Row.of(key, null, null));
                deletes++;
            } else {
                int n = pkLedger.next();
                track(pk.upsert(Row.of(key, "op-" + n, n % 1000)), pkLedger, n);
            }
        }
    }

    private void track(CompletableFuture<?> ack, Ledger ledger, int n) {
        ack.whenComplete(
                (r, e) -> {
                    ledger.mark(n, e == null ? ACKED : FAILED);
                    if (e != null) {
                        Throwable c =
                                e instanceof java.util.concurrent.CompletionException
                                                && e.getCause() != null
                                        ? e.getCause()
                                        : e;
                        String m = String.valueOf(c.getMessage());
                        errors.merge(
                                c.getClass().getSimpleName()
                                        + ": "
                                        + m.substring(0, Math.min(160, m.length())),
                                1,
                                Integer::sum);
                    }
                });
    }

    /** Why rows failed for good (message prefix -> rows), to explain the rows in doubt. */
    public Map<String, Integer> errors() {
        return new java.util.TreeMap<>(errors);
    }

    /**
     * Stops writing and flushes; afterwards every row is acknowledged or failed (failures stay in
     * doubt; they are not thrown here).
     */
    public void stopAndFlush() throws Exception {
        if (ticks != null) {
            ticks.cancel(false);
        }
        thread.submit(
                        () -> {
                            for (AppendWriter w : logWriters) {
                                flushQuietly(w::flush);
                            }
                            flushQuietly(pk::flush);
                            return null;
                        })
                .get(30, TimeUnit.MINUTES);
    }

    private static void flushQuietly(Runnable flush) {
        try {
            flush.run();
        } catch (RuntimeException e) {
            // the failed rows are recorded in the ledgers as in doubt
        }
    }

    public List<Ledger> logLedgers() {
        return logLedgers;
    }

    public Ledger pkLedger() {
        return pkLedger;
    }

    public long deletes() {
        return deletes;
    }

    /** Rows written so far to every table (log rows and PK changes). */
    public long rowsWritten() {
        long n = pkLedger.count() + deletes;
        for (Ledger l : logLedgers) {
            n += l.count();
        }
        return n;
    }

    /** Calls {@code action} with each log table's index and ledger. */
    public void forEachLog(BiConsumer<Integer, Ledger> action) {
        for (int i = 0; i < logLedgers.size(); i++) {
            action.accept(i, logLedgers.get(i));
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
        for (AppendWriter w : logWriters) {
            try {
                w.close();
            } catch (RuntimeException e) {
                // in doubt rows are already recorded
            }
        }
        try {
            pk.close();
        } catch (RuntimeException e) {
            // same
        }
    }
}
