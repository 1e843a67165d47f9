package dev.tributary.server.status;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.io.DurableFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The lag history on disk, so that the plot survives a restart: one small file rewritten whole
 * (temporary file, fsync, atomic rename, directory fsync), never appended, so it is always either
 * the previous or the next complete history. Compact: sample times as varint deltas (one interval
 * is a byte or two), lags as varints; an hour of 5 s samples is a few KB per table. A CRC32C over
 * the whole file catches a torn or damaged file, which is then ignored (the history is a view, not
 * data: losing it costs a gap in the plot).
 *
 * <p>Layout: {@code "TLAG"}, version, saved-at millis, table count, per table (id, name, freshness,
 * state, sample count, then per sample the time delta, lag ms, lag records), CRC32C of all before.
 */
public final class LagHistoryFile {
    private static final int MAGIC = 0x544c4147; // "TLAG"
    private static final int VERSION = 1;

    private final Path file;

    public LagHistoryFile(Path file) {
        this.file = file;
    }

    public Path path() {
        return file;
    }

    /** Replaces the file with {@code series} atomically and durably. */
    public void write(long savedAtMillis, List<LagHistoryView.Series> series) throws IOException {
        BinaryWriter w = new BinaryWriter(4096);
        w.writeInt(MAGIC);
        w.writeInt(VERSION);
        w.writeLong(savedAtMillis);
        w.writeVarInt(series.size());
        for (LagHistoryView.Series s : series) {
            w.writeLong(s.tableId());
            w.writeString(s.table());
            w.writeVarLong(s.freshnessMillis());
            w.writeString(s.state());
            int n = s.timeMillis().length;
            w.writeVarInt(n);
            long previous = 0;
            for (int i = 0; i < n; i++) {
                // signed: the first delta is from 0, later ones are non-negative
                w.writeSignedVarLong(s.timeMillis()[i] - previous);
                previous = s.timeMillis()[i];
                w.writeSignedVarLong(s.lagMillis()[i]);
                w.writeSignedVarLong(s.lagRecords()[i]);
            }
        }
        CRC32C crc = new CRC32C();
        crc.update(w.buffer(), 0, w.position());
        w.writeInt((int) crc.getValue());

        Files.createDirectories(file.toAbsolutePath().getParent());
        DurableFiles.replace(file, w.buffer(), 0, w.position());
    }

    /**
     * The stored series; empty when there is no file.
     *
     * @throws CorruptDataException when the file is damaged or of an unknown version
     * @throws IOException when it cannot be read
     */
    public List<LagHistoryView.Series> read() throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return List.of();
        }
        if (bytes.length < 4 + 4 + 8 + 1 + 4) {
            throw new CorruptDataException(file + " is too short for a lag history");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        int stored = new BinaryReader(bytes, bytes.length - 4, 4).readInt();
        if ((int) crc.getValue() != stored) {
            throw new CorruptDataException(file + " fails its checksum");
        }
        BinaryReader r = new BinaryReader(bytes, 0, bytes.length - 4);
        if (r.readInt() != MAGIC) {
            throw new CorruptDataException(file + " is not a lag history file");
        }
        int version = r.readInt();
        if (version != VERSION) {
            throw new CorruptDataException(
                    file
                            + " has lag history version "
                            + version
                            + "; this server reads "
                            + VERSION);
        }
        r.readLong(); // saved at: for people reading the file with a hex dump
        int tables = r.readVarInt();
        List<LagHistoryView.Series> out = new ArrayList<>(tables);
        for (int t = 0; t < tables; t++) {
            long tableId = r.readLong();
            String table = r.readString();
            long freshness = r.readVarLong();
            String state = r.readString();
            int n = r.readVarInt();
            if (n < 0 || n > r.remaining()) {
                throw new CorruptDataException(file + " holds an impossible sample count " + n);
            }
            long[] times = new long[n];
            long[] lagMillis = new long[n];
            long[] lagRecords = new long[n];
            long previous = 0;
            for (int i = 0; i < n; i++) {
                previous += r.readSignedVarLong();
                times[i] = previous;
                lagMillis[i] = r.readSignedVarLong();
                lagRecords[i] = r.readSignedVarLong();
            }
            out.add(
                    new LagHistoryView.Series(
                            tableId, table, freshness, state, times, lagMillis, lagRecords));
        }
        return out;
    }
}
