package dev.tributary.common.time;

/** The JVM's clocks. */
public final class SystemClock implements Clock {
    static final SystemClock INSTANCE = new SystemClock();

    private SystemClock() {}

    @Override
    public long currentTimeMillis() {
        return System.currentTimeMillis();
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }
}
