package dev.tributary.tiering.read;

import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.maintenance.CompactionTask;
import dev.tributary.lake.api.maintenance.LakeCompactionResult;
import dev.tributary.lake.api.maintenance.LakeCompactionResultSerializer;
import dev.tributary.lake.api.maintenance.LakeCompactor;
import dev.tributary.tiering.event.CompactionEvent;
import dev.tributary.tiering.event.CompactionResultEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A reader's compactions (T38), run on a thread of their own so that the reader's task thread keeps
 * taking tiering splits while a bucket is compacted: a round never waits for a reader because of
 * compaction. The thread runs at the lowest priority, as a hint to the scheduler that tiering comes
 * first. Results are picked up on the task thread with {@link #drainFinished()}; {@code wake} tells
 * the reader one is there.
 */
public final class BackgroundCompactions implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BackgroundCompactions.class);

    /** Describes a table for the compactor (the descriptor the lake table is checked against). */
    public interface Describer {
        TableDescriptor describe(CompactionEvent e);
    }

    private final LakeStorage lake;
    private final Describer describer;
    private final Runnable wake;
    private final Queue<CompactionResultEvent> finished = new ConcurrentLinkedQueue<>();
    private ExecutorService thread;
    private Future<?> running;
    private CompactionEvent current;

    /** Whether the running compaction was stopped on purpose, so its failure is no surprise. */
    private volatile boolean stopped;

    public BackgroundCompactions(LakeStorage lake, Describer describer, Runnable wake) {
        this.lake = lake;
        this.describer = describer;
        this.wake = wake;
    }

    /** Starts compacting the event's bucket. Task thread. */
    public void start(CompactionEvent e) {
        if (thread == null) {
            thread =
                    Executors.newSingleThreadExecutor(
                            r -> {
                                Thread t = new Thread(r, "tiering-compaction");
                                t.setDaemon(true);
                                t.setPriority(Thread.MIN_PRIORITY);
                                t.setContextClassLoader(
                                        BackgroundCompactions.class.getClassLoader());
                                return t;
                            });
        }
        current = e;
        stopped = false;
        running =
                thread.submit(
                        () -> {
                            // the result first, then the wake-up: the reader must find it
                            finished.add(compact(e));
                            wake.run();
                        });
    }

    private CompactionResultEvent compact(CompactionEvent e) {
        try {
            CompactionTask task =
                    new CompactionTask(
                            e.tablePath(),
                            e.tableId(),
                            describer.describe(e),
                            e.maintenanceId(),
                            e.unit(),
                            e.maxFiles(),
                            e.baseSnapshotId());
            try (LakeCompactor c = lake.createCompactor(task)) {
                LakeCompactionResult r = c.compact();
                return new CompactionResultEvent(
                        e.tableId(),
                        e.maintenanceId(),
                        e.partition(),
                        e.bucket(),
                        LakeCompactionResultSerializer.INSTANCE.serialize(r),
                        null);
            }
        } catch (Throwable t) {
            if (stopped) {
                LOG.info(
                        "compaction {} of {} of {} stopped: {}",
                        e.maintenanceId(),
                        e.unit(),
                        e.tablePath(),
                        t.toString());
            } else {
                LOG.warn(
                        "compaction {} of {} of {} failed",
                        e.maintenanceId(),
                        e.unit(),
                        e.tablePath(),
                        t);
            }
            return new CompactionResultEvent(
                    e.tableId(),
                    e.maintenanceId(),
                    e.partition(),
                    e.bucket(),
                    null,
                    String.valueOf(t));
        }
    }

    /** Stops the event's compaction if it runs here (its result is then discarded). */
    public void cancel(CompactionEvent e) {
        if (current != null
                && running != null
                && current.tableId() == e.tableId()
                && current.maintenanceId() == e.maintenanceId()) {
            stopped = true;
            running.cancel(true);
        }
    }

    /** Compactions that ended since the last call. Task thread. */
    public List<CompactionResultEvent> drainFinished() {
        List<CompactionResultEvent> out = new ArrayList<>();
        CompactionResultEvent e;
        while ((e = finished.poll()) != null) {
            out.add(e);
        }
        return out;
    }

    public boolean hasFinished() {
        return !finished.isEmpty();
    }

    @Override
    public void close() {
        stopped = true;
        if (running != null) {
            running.cancel(true);
        }
        if (thread != null) {
            thread.shutdownNow();
        }
    }
}
