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
 * The demo's closing lines: each table counted by union read (lake + the store's fresh tail, T40;
 * every partition of the partitioned one, T32) next to the lake alone, so the tail that is not
 * tiered yet is visible.
 */
final class UnionCounts {
    private UnionCounts() {}

    static void print(Connection conn, List<TablePath> tables, PrintWriter out) {
        Optional<LakeStorage> lake = LakeAccess.open(conn.admin(), Map.of());
        try {
            for (TablePath path : tables) {
                TableInfo info = conn.admin().describeTable(path);
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
     * Rows of the table's latest tiering snapshot, read with the format's own reader (a partitioned
     * table's bucket b: bucket b of every lake partition).
     */
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
