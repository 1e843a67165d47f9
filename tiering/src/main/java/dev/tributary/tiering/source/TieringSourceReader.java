package dev.tributary.tiering.source;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.tiering.event.CompactionEvent;
import dev.tributary.tiering.event.CompactionResultEvent;
import dev.tributary.tiering.event.RoundControlEvent;
import dev.tributary.tiering.job.TieringOptions;
import dev.tributary.tiering.read.BackgroundCompactions;
import dev.tributary.tiering.read.SplitTierer;
import dev.tributary.tiering.service.TieringService;
import dev.tributary.tiering.service.TieringServiceFactory;
import dev.tributary.tiering.split.TieringSplit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A tiering reader: works one split at a time (T3) in bounded steps on the task thread, so
 * force-finish and abort events are handled between two steps, and asks for the next split as soon
 * as one ends. It emits no records; each ended split is reported to the enumerator. A bucket's
 * compaction (T38) runs on a background thread while the reader goes on taking splits.
 */
final class TieringSourceReader implements SourceReader<Void, TieringSplit> {
    private static final Logger LOG = LoggerFactory.getLogger(TieringSourceReader.class);

    private final SourceReaderContext context;
    private final TieringServiceFactory services;
    private final Configuration config;
    private final int stepRecords;
    private final Deque<TieringSplit> queued = new ArrayDeque<>();
    private final Map<Long, Described> descriptors = new HashMap<>();
    // splits that ended (done, aborted or dropped from the queue) whose outputs Flink's source
    // operator still holds: it makes a watermark output, a split metric group and a back-pressure
    // listener for every split it hands to the reader and drops them only when the reader
    // releases the split. Released at the next pollNext, the only place the output is at hand;
    // without it a job keeps them for every split it ever ran (one per bucket per round).
    private final List<String> ended = new ArrayList<>();
    private volatile CompletableFuture<Void> available = new CompletableFuture<>();
    private BackgroundCompactions compactions;
    private TieringService service;
    private LakeStorage lake;
    private SplitTierer current;
    private long currentStartNanos;

    TieringSourceReader(
            SourceReaderContext context, TieringServiceFactory services, Configuration config) {
        this.context = context;
        this.services = services;
        this.config = config;
        this.stepRecords = config.get(TieringOptions.READER_STEP_RECORDS);
    }

    @Override
    public void start() {
        service = services.create();
        lake = LakeStoragePlugins.open(config);
        compactions =
                new BackgroundCompactions(
                        lake,
                        e -> service.describeTable(e.tablePath(), e.tableId()),
                        () -> available.complete(null));
        context.sendSplitRequest();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<Void> output) {
        for (String splitId : ended) {
            output.releaseOutputForSplit(splitId);
        }
        ended.clear();
        for (CompactionResultEvent done : compactions.drainFinished()) {
            context.sendSourceEventToCoordinator(done);
        }
        if (current == null) {
            TieringSplit next = queued.pollFirst();
            if (next == null) {
                if (available.isDone()) {
                    available = new CompletableFuture<>();
                }
                // a compaction that ended meanwhile completed the old future
                return compactions.hasFinished()
                        ? InputStatus.MORE_AVAILABLE
                        : InputStatus.NOTHING_AVAILABLE;
            }
            currentStartNanos = Clock.system().nanoTime();
            current =
                    new SplitTierer(
                            next, service, lake::createWriter, this::describe, Clock.system());
        }
        if (current.step(stepRecords)) {
            endCurrent();
        } else if (current.reopenDelayNanos() > 0) {
            // its read broke (a leader change): wake when it reads on, not in a busy loop
            CompletableFuture<Void> wake = new CompletableFuture<>();
            available = wake;
            CompletableFuture.delayedExecutor(current.reopenDelayNanos(), TimeUnit.NANOSECONDS)
                    .execute(() -> wake.complete(null));
            return InputStatus.NOTHING_AVAILABLE;
        }
        return InputStatus.MORE_AVAILABLE;
    }

    private TableDescriptor describe(TieringSplit split) {
        // one entry per table, refreshed per attempt: a column added between rounds is seen by
        // the next round, and a long-running job does not collect one entry per round
        Described d = descriptors.get(split.tableId());
        if (d == null || d.epoch() != split.epoch()) {
            d =
                    new Described(
                            split.epoch(),
                            service.describeTable(split.tablePath(), split.tableId()));
            descriptors.put(split.tableId(), d);
        }
        return d.descriptor();
    }

    private record Described(long epoch, TableDescriptor descriptor) {}

    private void endCurrent() {
        var result = current.result();
        current.close();
        ended.add(current.split().splitId());
        current = null;
        if (result.failed()) {
            LOG.warn("split {} failed: {}", result.splitId(), result.error());
        } else if (LOG.isDebugEnabled()) {
            LOG.debug(
                    "split {} done: {} records up to offset {} in {} ms",
                    result.splitId(),
                    result.records(),
                    result.offsetReached(),
                    (Clock.system().nanoTime() - currentStartNanos) / 1_000_000);
        }
        // the result goes first so the enumerator sees it before this reader's next request
        context.sendSourceEventToCoordinator(result);
        context.sendSplitRequest();
    }

    @Override
    public void handleSourceEvents(SourceEvent event) {
        if (event instanceof CompactionEvent c) {
            if (c.kind() == CompactionEvent.Kind.START) {
                compactions.start(c);
            } else {
                compactions.cancel(c);
            }
            return;
        }
        if (!(event instanceof RoundControlEvent control)) {
            LOG.warn("ignoring unknown event {}", event);
            return;
        }
        queued.removeIf(
                s -> {
                    if (s.belongsTo(control.tableId(), control.epoch(), control.roundId())) {
                        ended.add(s.splitId());
                        return true;
                    }
                    return false;
                });
        if (!ended.isEmpty()) {
            // an idle reader releases them now, not only with its next split
            available.complete(null);
        }
        if (current == null
                || !current.split()
                        .belongsTo(control.tableId(), control.epoch(), control.roundId())) {
            return;
        }
        if (control.kind() == RoundControlEvent.Kind.FORCE_FINISH) {
            if (current.forceFinish()) {
                endCurrent();
            }
        } else {
            LOG.info("aborting split {}: its round was abandoned", current.split());
            current.abort();
            ended.add(current.split().splitId());
            current = null;
            context.sendSplitRequest();
        }
        available.complete(null);
    }

    @Override
    public List<TieringSplit> snapshotState(long checkpointId) {
        // stateless: after a restart the enumerator fails the reader's rounds (T22)
        return List.of();
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return available;
    }

    @Override
    public void addSplits(List<TieringSplit> splits) {
        queued.addAll(splits);
        available.complete(null);
    }

    @Override
    public void notifyNoMoreSplits() {}

    /**
     * Aborts the running split and releases the lake and the connection. Never throws: Flink calls
     * this while it handles a task failure too, and an exception here would end the TaskManager
     * (T22).
     */
    @Override
    public void close() {
        if (compactions != null) {
            compactions.close();
        }
        if (current != null) {
            current.abort();
            current = null;
        }
        closeQuietly("the lake", lake);
        closeQuietly("the server connection", service);
    }

    private static void closeQuietly(String what, AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            LOG.warn("closing {} of a tiering reader failed", what, e);
        }
    }
}
