package dev.tributary.server.replica;

import dev.tributary.common.time.Clock;

/**
 * Caps the bytes per second that the replicas moving onto this server fetch, together (issue 23's
 * throttled reassignment): a replica being added copies a bucket's whole log, and unthrottled,
 * several at once would take the leaders' disks and network from the writes and reads they serve.
 * Followers already in sync are never throttled: they carry acknowledgements.
 *
 * <p>A token bucket holding at most one second of bytes: each fetch's answer takes its bytes, and
 * while the bucket is in debt the next fetch of a moving replica waits until it is paid off. Thread
 * safe.
 */
final class MoveThrottle {
    private final long bytesPerSecond;
    private final Clock clock;
    private double available;
    private long lastMillis;

    MoveThrottle(long bytesPerSecond, Clock clock) {
        if (bytesPerSecond <= 0) {
            throw new IllegalArgumentException(
                    "a throttle needs a positive rate: " + bytesPerSecond);
        }
        this.bytesPerSecond = bytesPerSecond;
        this.clock = clock;
        this.available = bytesPerSecond;
        this.lastMillis = clock.currentTimeMillis();
    }

    /**
     * Takes {@code bytes} just fetched.
     *
     * @return how many milliseconds the next fetch of a moving replica waits (0: none)
     */
    synchronized long take(long bytes) {
        long now = clock.currentTimeMillis();
        available =
                Math.min(bytesPerSecond, available + (now - lastMillis) * bytesPerSecond / 1000.0);
        lastMillis = now;
        available -= bytes;
        return available >= 0 ? 0 : (long) Math.ceil(-available * 1000 / bytesPerSecond);
    }
}
