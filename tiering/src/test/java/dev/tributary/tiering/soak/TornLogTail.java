package dev.tributary.tiering.soak;

import dev.tributary.client.admin.TableInfo;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/** The torn log tail fault: what a crash in the middle of a log append leaves. */
final class TornLogTail {
    private TornLogTail() {}

    /**
     * Appends 1 to 300 bytes to the active log segment of a random bucket the stopped server holds
     * a segment of: random bytes, or half the time the start of the segment's first batch (a header
     * whose batch never finished).
     *
     * @param tables the soak's tables, in a fixed order (the draws replay with the seed)
     * @return what was torn, for the soak's log
     */
    static String tear(Path dataDir, List<TableInfo> tables, Random random) throws IOException {
        // a random bucket of those with a segment on that server (on a cluster it holds a share)
        List<int[]> candidates = new ArrayList<>();
        for (int t = 0; t < tables.size(); t++) {
            for (int b = 0; b < tables.get(t).bucketCount(); b++) {
                candidates.add(new int[] {t, b});
            }
        }
        Collections.shuffle(candidates, random);
        TableInfo t = null;
        int bucket = -1;
        Path active = null;
        for (int[] c : candidates) {
            t = tables.get(c[0]);
            bucket = c[1];
            active = activeSegment(dataDir, t, bucket);
            if (active != null) {
                break;
            }
        }
        if (active == null) {
            return "no log segment on the server";
        }
        int n = 1 + random.nextInt(300);
        byte[] garbage = new byte[n];
        random.nextBytes(garbage);
        try (RandomAccessFile f = new RandomAccessFile(active.toFile(), "rw")) {
            long size = f.length();
            if (size >= 12 && random.nextBoolean()) {
                // a torn copy of a real header: the start of a batch that never finished
                byte[] head = new byte[(int) Math.min(n, size)];
                f.seek(0);
                f.readFully(head);
                System.arraycopy(head, 0, garbage, 0, head.length);
            }
            f.seek(size);
            f.write(garbage);
        }
        return "killed, "
                + n
                + " torn bytes appended to "
                + t.path()
                + " bucket "
                + bucket
                + " "
                + active.getFileName()
                + ", restarted";
    }

    private static Path activeSegment(Path dataDir, TableInfo t, int bucket) throws IOException {
        Path dir =
                dataDir.resolve("store")
                        .resolve("tables")
                        .resolve(Long.toString(t.tableId()))
                        .resolve(Integer.toString(bucket))
                        .resolve("log");
        if (!Files.isDirectory(dir)) {
            return null;
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".log"))
                    .max(Path::compareTo)
                    .orElse(null);
        }
    }
}
