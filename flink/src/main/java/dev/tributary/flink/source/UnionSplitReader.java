package dev.tributary.flink.source;

import dev.tributary.client.Connection;
import dev.tributary.flink.types.RowConverter;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.union.BucketUnionReader;
import dev.tributary.union.UnionScan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;

/**
 * Reads the buckets assigned to one source reader, turn by turn, up to {@code fetchRecords} rows
 * per bucket per fetch. Runs on Flink's fetcher thread; {@link #wakeUp()} interrupts a caught-up
 * wait.
 */
final class UnionSplitReader implements SplitReader<UnionRecord, UnionSplit> {
    private final UnionSourceSpec spec;
    private final RowConverter converter;
    private final Map<String, BucketUnionReader> readers = new LinkedHashMap<>();
    private final Object waitLock = new Object();
    private boolean wakeUpRequested;
    private Connection connection;
    private LakeStorage lake;
    private UnionScan scan;

    UnionSplitReader(UnionSourceSpec spec, RowConverter converter) {
        this.spec = spec;
        this.converter = converter;
    }

    private UnionScan scan() {
        if (scan == null) {
            connection = spec.connection().connect();
            lake = spec.connection().openLake(connection).orElse(null);
            scan = spec.scan(connection, lake);
        }
        return scan;
    }

    @Override
    public RecordsWithSplitIds<UnionRecord> fetch() {
        RecordsBySplits.Builder<UnionRecord> out = new RecordsBySplits.Builder<>();
        int produced = 0;
        List<String> finished = new ArrayList<>();
        for (Map.Entry<String, BucketUnionReader> e : readers.entrySet()) {
            BucketUnionReader r = e.getValue();
            for (int i = 0; i < spec.fetchRecords() && r.next(); i++) {
                out.add(
                        e.getKey(),
                        new UnionRecord(converter.toFlink(r.row(), r.changeType()), r.state()));
                produced++;
            }
            if (r.finished()) {
                finished.add(e.getKey());
            }
        }
        for (String id : finished) {
            readers.remove(id).close();
            out.addFinishedSplit(id);
        }
        if (produced == 0 && finished.isEmpty()) {
            waitForNewRecords();
        }
        return out.build();
    }

    /** Every split caught up with its log: wait a poll interval (or until woken up). */
    private void waitForNewRecords() {
        synchronized (waitLock) {
            if (wakeUpRequested) {
                wakeUpRequested = false;
                return;
            }
            try {
                waitLock.wait(Math.max(1, spec.pollInterval().toMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            wakeUpRequested = false;
        }
    }

    @Override
    public void handleSplitsChanges(SplitsChange<UnionSplit> change) {
        if (!(change instanceof SplitsAddition<UnionSplit> addition)) {
            throw new UnsupportedOperationException(
                    "union splits are only added, got " + change.getClass().getSimpleName());
        }
        for (UnionSplit s : addition.splits()) {
            readers.put(s.splitId(), scan().open(s.state()));
        }
    }

    @Override
    public void wakeUp() {
        synchronized (waitLock) {
            wakeUpRequested = true;
            waitLock.notifyAll();
        }
    }

    @Override
    public void close() {
        readers.values().forEach(BucketUnionReader::close);
        readers.clear();
        if (scan != null) {
            scan.close();
        }
        if (lake != null) {
            lake.close();
        }
        if (connection != null) {
            connection.close();
        }
    }
}
