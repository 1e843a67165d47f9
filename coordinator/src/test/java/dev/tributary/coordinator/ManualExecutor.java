package dev.tributary.coordinator;

import dev.tributary.coordinator.runtime.AbandonableTask;
import dev.tributary.coordinator.runtime.LakeIo;
import java.util.ArrayDeque;

/** Queues tasks until the test runs them: a lake I/O pool whose timing the test controls. */
public final class ManualExecutor implements LakeIo {
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    private volatile boolean autoRun;

    /** When on, tasks run inline as they are submitted (an instant lake). */
    public void autoRun(boolean on) {
        this.autoRun = on;
    }

    @Override
    public void execute(Runnable task) {
        if (autoRun) {
            task.run();
            return;
        }
        synchronized (this) {
            tasks.add(task);
        }
    }

    @Override
    public Handle submit(Runnable task) {
        AbandonableTask t = new AbandonableTask(task, () -> {}, () -> {});
        execute(t);
        return t;
    }

    public synchronized void clear() {
        tasks.clear();
    }

    /** Runs the oldest task; false if none. */
    public boolean runOne() {
        Runnable t;
        synchronized (this) {
            t = tasks.poll();
        }
        if (t == null) {
            return false;
        }
        t.run();
        return true;
    }

    public synchronized int size() {
        return tasks.size();
    }
}
