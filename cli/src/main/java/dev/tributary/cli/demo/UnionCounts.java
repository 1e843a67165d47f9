package dev.tributary.cli.demo;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.read.LakeReadRequest;
import dev.tributary.lake.api.read.LakeReader;
import dev.tributary.lake.api.read.LakeRowCursor;
import dev.tributary.union.LakeAccess;
import dev.tributary.union.UnionScan;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The demo's closing lines: each table counted by union read (lake + the store's fresh tail, T40)
 * next to the lake alone, so the tail that is not tiered yet is visible.
 */
final class UnionCounts {
    private UnionCounts() {}

    static void print(Connection conn, List<TablePath> tables, PrintWriter out) {
        Optional<LakeStorage> lake = LakeAccess.open(conn.admin(), Map.of());
        try {
            for (TablePath path : tables) {
                TableInfo info = conn.admin().describeTable(path);
                if (info.descriptor().isPartitioned()) {
                    printPartitioned(conn, lake, info, out);
                    continue;
                }
                long union;
                try (UnionScan scan =
                        UnionScan.builder(conn, path).table(info).lake(lake.orElse(null)).build()) {
                    union = scan.count();
                }
                long lakeOnly = lake.map(l -> lakeCount(l, info)).orElse(0L);
                out.printf(
                        "count:  %-16s %d by union read, %d in the lake alone (%+d not tiered yet)%n",
                        path, union, lakeOnly, union - lakeOnly);
            }
        } finally {
            lake.ifPresent(LakeStorage::close);
        }
        out.flush();
    }

    /**
     * Union read does not know partitions yet (it refuses them): a partitioned log table shows the
     * records in the store's logs and the records its latest tiering snapshot holds instead.
     */
    private static void printPartitioned(
            Connection conn, Optional<LakeStorage> lake, TableInfo info, PrintWriter out) {
        long stored =
                conn.logScanner(info.path()).partitionEndOffsets().values().stream()
                        .mapToLong(Long::longValue)
                        .sum();
        long tiered =
                lake.flatMap(l -> latest(l, info))
                        .map(
                                s ->
                                        s.properties().offsets().values().stream()
                                                .mapToLong(Long::longValue)
                                                .sum())
                        .orElse(0L);
        out.printf(
                "count:  %-16s %d in the store, %d in the lake (partitioned: union read not"
                        + " supported yet)%n",
                info.path(), stored, tiered);
    }

    private static Optional<LakeSnapshot> latest(LakeStorage lake, TableInfo info) {
        if (!lake.catalog().tableExists(info.path())) {
            return Optional.empty();
        }
        try (LakeReader reader = lake.createReader(info.path())) {
            return reader.latestTieringSnapshot(info.tableId());
        }
    }

    /** Rows of the table's latest tiering snapshot, read with the format's own reader. */
    private static long lakeCount(LakeStorage lake, TableInfo info) {
        if (!lake.catalog().tableExists(info.path())) {
            return 0;
        }
        try (LakeReader reader = lake.createReader(info.path())) {
            Optional<LakeSnapshot> s = reader.latestTieringSnapshot(info.tableId());
            if (s.isEmpty()) {
                return 0;
            }
            long n = 0;
            for (int b = 0; b < info.bucketCount(); b++) {
                LakeReadRequest all =
                        LakeReadRequest.all(s.get().snapshotId(), info.descriptor(), b);
                LakeReadRequest keyOnly =
                        new LakeReadRequest(
                                all.snapshotId(), all.table(), b, new int[] {0}, null, 0);
                try (LakeRowCursor rows = reader.read(keyOnly)) {
                    while (rows.next()) {
                        n++;
                    }
                }
            }
            return n;
        }
    }
}
