package dev.tributary.lake.paimon;

import dev.tributary.common.exception.StorageException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.FileStatus;
import org.apache.paimon.fs.Path;
import org.apache.paimon.table.FileStoreTable;

/**
 * The data files of a Paimon table that are on disk, whether any snapshot references them or not.
 */
final class PaimonFiles {
    /** Top-level directories of a Paimon table that hold metadata, not data files. */
    private static final Set<String> METADATA_DIRS =
            Set.of(
                    "snapshot",
                    "manifest",
                    "schema",
                    "index",
                    "statistics",
                    "tag",
                    "branch",
                    "consumer",
                    "changelog",
                    "service");

    private PaimonFiles() {}

    /** Path -> size of every data file under the table's location (bucket and partition dirs). */
    static Map<String, Long> dataFilesOnDisk(FileStoreTable table) {
        Map<String, Long> out = new TreeMap<>();
        FileIO io = table.fileIO();
        try {
            for (FileStatus s : list(io, table.location())) {
                if (s.isDir() && !METADATA_DIRS.contains(s.getPath().getName())) {
                    walk(io, s.getPath(), out);
                }
            }
        } catch (IOException e) {
            throw new StorageException(
                    "listing the files of Paimon table at "
                            + table.location()
                            + " failed: "
                            + e.getMessage(),
                    e);
        }
        return out;
    }

    private static void walk(FileIO io, Path dir, Map<String, Long> out) throws IOException {
        for (FileStatus s : list(io, dir)) {
            if (s.isDir()) {
                walk(io, s.getPath(), out);
            } else if (!s.getPath().getName().startsWith(".")) {
                out.put(s.getPath().toString(), s.getLen());
            }
        }
    }

    private static FileStatus[] list(FileIO io, Path dir) throws IOException {
        try {
            FileStatus[] s = io.listStatus(dir);
            return s == null ? new FileStatus[0] : s;
        } catch (FileNotFoundException gone) {
            return new FileStatus[0];
        }
    }
}
