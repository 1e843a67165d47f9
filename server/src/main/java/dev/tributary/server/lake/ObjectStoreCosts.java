package dev.tributary.server.lake;

import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.io.ObjectStoreCounts;
import dev.tributary.lake.api.io.ObjectStoreRequests;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What each round and each maintenance pass of a lake table cost in object-store requests and bytes
 * (T47), cut out of the process's cumulative {@link ObjectStoreRequests} counts.
 *
 * <p>A round's cost is everything charged to the table between the end of its previous commit and
 * the end of this one (the job's reads and writes, this commit's metadata reads and writes), less
 * what the server's maintenance calls and orphan sweeps of the table cost meanwhile. A maintenance
 * pass is the expiry plus the compaction planning that starts it, and the compaction commit that
 * follows. Requests the job makes while a maintenance call runs are charged to that call: the
 * figures are exact when the two do not overlap, which the coordinator makes the common case.
 *
 * <p>With the tiering job in the server's JVM (the embedded default) the job's requests are
 * counted; with a remote Flink cluster only the server's own (commits, maintenance, sweeps) are,
 * and the job's requests are in that cluster's JVMs. Thread safe.
 */
public final class ObjectStoreCosts {
    /** Rounds remembered per table. */
    static final int RECENT_ROUNDS = 32;

    private final ObjectStoreRequests requests;
    private final Map<TablePath, TableCosts> tables = new ConcurrentHashMap<>();

    public ObjectStoreCosts(ObjectStoreRequests requests) {
        this.requests = requests;
    }

    /** Called when a commit of the table's round ends, committed or failed. */
    void roundEnded(TablePath path) {
        ObjectStoreCounts now = requests.snapshot(path);
        TableCosts t = costs(path);
        synchronized (t) {
            ObjectStoreCounts round = now.minus(t.mark).minus(t.outsideRounds);
            t.mark = now;
            t.outsideRounds = ObjectStoreCounts.ZERO;
            t.rounds.addLast(round);
            t.roundCount++;
            if (t.rounds.size() > RECENT_ROUNDS) {
                t.rounds.removeFirst();
            }
        }
    }

    /** Runs a maintenance call, charging what it requests to the current pass. */
    <T> T maintenance(TablePath path, boolean startsPass, boolean endsPass, Supplier<T> call) {
        ObjectStoreCounts before = requests.snapshot(path);
        try {
            return call.get();
        } finally {
            ObjectStoreCounts d = requests.snapshot(path).minus(before);
            TableCosts t = costs(path);
            synchronized (t) {
                t.outsideRounds = t.outsideRounds.plus(d);
                t.pass = startsPass ? d : t.pass.plus(d);
                if (endsPass) {
                    t.lastPass = t.pass;
                }
            }
        }
    }

    /** Runs an orphan sweep, keeping its cost out of the rounds. */
    <T> T sweep(TablePath path, Supplier<T> call) {
        ObjectStoreCounts before = requests.snapshot(path);
        try {
            return call.get();
        } finally {
            ObjectStoreCounts d = requests.snapshot(path).minus(before);
            TableCosts t = costs(path);
            synchronized (t) {
                t.outsideRounds = t.outsideRounds.plus(d);
                t.lastSweep = d;
            }
        }
    }

    /** The table's last rounds, oldest first (at most {@value #RECENT_ROUNDS}). */
    public List<ObjectStoreCounts> recentRounds(TablePath path) {
        TableCosts t = tables.get(path);
        if (t == null) {
            return List.of();
        }
        synchronized (t) {
            return new ArrayList<>(t.rounds);
        }
    }

    /** Commits of the table's rounds (committed or failed) since the server started. */
    public long roundCount(TablePath path) {
        TableCosts t = tables.get(path);
        if (t == null) {
            return 0;
        }
        synchronized (t) {
            return t.roundCount;
        }
    }

    /** The table's last round, {@link ObjectStoreCounts#ZERO} before its first. */
    public ObjectStoreCounts lastRound(TablePath path) {
        List<ObjectStoreCounts> r = recentRounds(path);
        return r.isEmpty() ? ObjectStoreCounts.ZERO : r.get(r.size() - 1);
    }

    /** The table's last complete maintenance pass, {@link ObjectStoreCounts#ZERO} before one. */
    public ObjectStoreCounts lastMaintenancePass(TablePath path) {
        TableCosts t = tables.get(path);
        if (t == null) {
            return ObjectStoreCounts.ZERO;
        }
        synchronized (t) {
            return t.lastPass;
        }
    }

    /**
     * For status views: {@code total} (cumulative since the server started), {@code last_round},
     * {@code last_maintenance_pass} and {@code last_orphan_sweep}, each as {@link
     * ObjectStoreCounts#toMap()}.
     */
    public Map<String, Object> view(TablePath path) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("total", requests.snapshot(path).toMap());
        m.put("last_round", lastRound(path).toMap());
        TableCosts t = tables.get(path);
        ObjectStoreCounts sweep = ObjectStoreCounts.ZERO;
        if (t != null) {
            synchronized (t) {
                sweep = t.lastSweep;
            }
        }
        m.put("last_maintenance_pass", lastMaintenancePass(path).toMap());
        m.put("last_orphan_sweep", sweep.toMap());
        return m;
    }

    private TableCosts costs(TablePath path) {
        return tables.computeIfAbsent(path, p -> new TableCosts());
    }

    private static final class TableCosts {
        ObjectStoreCounts mark = ObjectStoreCounts.ZERO;
        ObjectStoreCounts outsideRounds = ObjectStoreCounts.ZERO;
        ObjectStoreCounts pass = ObjectStoreCounts.ZERO;
        ObjectStoreCounts lastPass = ObjectStoreCounts.ZERO;
        ObjectStoreCounts lastSweep = ObjectStoreCounts.ZERO;
        final Deque<ObjectStoreCounts> rounds = new ArrayDeque<>();
        long roundCount;
    }
}
