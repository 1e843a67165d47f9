package dev.tributary.tiering.soak;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.lookup.Lookuper;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks the store against what the writers were told (T42): every acknowledged row is in its
 * table's log exactly once, a row in doubt (its write failed for good) at most once, and nothing
 * else is there; the primary-key table's current rows equal its changelog replayed, and every
 * upsert a lookup returned while faults happened is in that changelog.
 */
public final class StoreAudit {
    /** What the audit found. */
    public record Result(
            long acked,
            long inDoubt,
            long inDoubtPresent,
            long duplicates,
            long losses,
            long strangers,
            List<String> problems) {
        public boolean clean() {
            return problems.isEmpty();
        }
    }

    private StoreAudit() {}

    public static Result run(
            Connection direct,
            List<TablePath> logTables,
            TablePath pkTable,
            SoakWriters writers,
            BitSet lookedUp)
            throws Exception {
        long acked = 0;
        long inDoubt = 0;
        long inDoubtPresent = 0;
        long duplicates = 0;
        long losses = 0;
        long strangers = 0;
        List<String> problems = new ArrayList<>();
        for (int t = 0; t < logTables.size(); t++) {
            TablePath path = logTables.get(t);
            SoakWriters.Ledger ledger = writers.logLedgers().get(t);
            int[] seen = new int[ledger.count()];
            TableInfo info = direct.admin().describeTable(path);
            for (int b = 0; b < info.bucketCount(); b++) {
                for (LogRecord r : direct.logScanner(path).readAll(b)) {
                    long id = (Long) r.row().getField(0);
                    if (id < 0 || id >= seen.length) {
                        strangers++;
                        problems.add(
                                path + ": unknown row id " + id + " at " + b + "@" + r.offset());
                    } else {
                        seen[(int) id]++;
                    }
                }
            }
            Tally tally = tally(path.toString(), ledger, seen, problems);
            acked += tally.acked;
            inDoubt += tally.inDoubt;
            inDoubtPresent += tally.inDoubtPresent;
            duplicates += tally.duplicates;
            losses += tally.losses;
        }

        // the PK table: each upsert's new row (+I or +U, named op-<n>) once
        SoakWriters.Ledger ledger = writers.pkLedger();
        int[] seen = new int[ledger.count()];
        TableInfo info = direct.admin().describeTable(pkTable);
        Map<Long, Row> replayed = new HashMap<>();
        for (int b = 0; b < info.bucketCount(); b++) {
            for (LogRecord r : direct.logScanner(pkTable).readAll(b)) {
                long key = (Long) r.row().getField(0);
                if (r.changeType() == ChangeType.INSERT
                        || r.changeType() == ChangeType.UPDATE_AFTER) {
                    replayed.put(key, r.row());
                    String name = (String) r.row().getField(1);
                    int n = Integer.parseInt(name.substring("op-".length()));
                    if (n < 0 || n >= seen.length) {
                        strangers++;
                        problems.add(pkTable + ": unknown upsert " + name);
                    } else {
                        seen[n]++;
                    }
                } else if (r.changeType() == ChangeType.DELETE) {
                    replayed.remove(key);
                }
            }
        }
        Tally tally = tally(pkTable.toString(), ledger, seen, problems);
        // T50: a lookup never saw an upsert the store does not have in the end (taken back)
        for (int n = lookedUp.nextSetBit(0); n >= 0; n = lookedUp.nextSetBit(n + 1)) {
            if ((n >= seen.length || seen[n] == 0) && problems.size() < 50) {
                problems.add(pkTable + ": a lookup returned op-" + n + ", which is not in the log");
            }
        }
        acked += tally.acked;
        inDoubt += tally.inDoubt;
        inDoubtPresent += tally.inDoubtPresent;
        duplicates += tally.duplicates;
        losses += tally.losses;

        // the KV state (lookups) equals the changelog replayed
        Lookuper lookuper = direct.lookuper(pkTable);
        List<Row> keys = new ArrayList<>();
        for (long k = 0; k < SoakWriters.PK_KEYS; k++) {
            keys.add(Row.of(k));
        }
        List<Optional<Row>> current = lookuper.lookupAll(keys);
        for (int k = 0; k < keys.size(); k++) {
            Optional<Row> expected = Optional.ofNullable(replayed.get((long) k));
            if (!current.get(k).equals(expected)) {
                problems.add(
                        pkTable
                                + ": key "
                                + k
                                + " is "
                                + current.get(k)
                                + ", changelog says "
                                + expected);
            }
        }
        return new Result(acked, inDoubt, inDoubtPresent, duplicates, losses, strangers, problems);
    }

    private record Tally(
            long acked, long inDoubt, long inDoubtPresent, long duplicates, long losses) {}

    private static Tally tally(
            String table, SoakWriters.Ledger ledger, int[] seen, List<String> problems) {
        long acked = 0;
        long inDoubt = 0;
        long inDoubtPresent = 0;
        long duplicates = 0;
        long losses = 0;
        for (int n = 0; n < seen.length; n++) {
            byte state = ledger.state(n);
            if (seen[n] > 1) {
                duplicates++;
                if (problems.size() < 50) {
                    problems.add(table + ": row " + n + " is in the log " + seen[n] + " times");
                }
            }
            if (state == SoakWriters.ACKED) {
                acked++;
                if (seen[n] == 0) {
                    losses++;
                    if (problems.size() < 50) {
                        problems.add(table + ": acknowledged row " + n + " is not in the log");
                    }
                }
            } else {
                inDoubt++;
                if (seen[n] > 0) {
                    inDoubtPresent++;
                }
            }
        }
        return new Tally(acked, inDoubt, inDoubtPresent, duplicates, losses);
    }
}
