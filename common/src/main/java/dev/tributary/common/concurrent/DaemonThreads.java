package dev.tributary.common.concurrent;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Thread factories for the background pools of servers, clients and jobs: daemon threads (a pool
 * someone forgot to close never keeps the JVM alive) with names that say whose they are in a thread
 * dump.
 */
public final class DaemonThreads {
    private DaemonThreads() {}

    /** Daemon threads named {@code <prefix>-1}, {@code <prefix>-2}, ... */
    public static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
