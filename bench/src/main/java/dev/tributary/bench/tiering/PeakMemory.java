package dev.tributary.bench.tiering;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The memory a bench phase peaked at: the JVM heap (the sum of each heap pool's peak since {@link
 * #reset}, an upper bound since the pools peak at different times) and the process's peak resident
 * set (Linux {@code VmHWM}, which covers RocksDB's and Parquet's native memory too).
 */
final class PeakMemory {
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final Path CLEAR_REFS = Path.of("/proc/self/clear_refs");

    private PeakMemory() {}

    /** Starts a phase: resets the heap pools' peaks and, where Linux allows it, VmHWM. */
    static void reset() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
        try {
            Files.writeString(CLEAR_REFS, "5");
        } catch (IOException | UnsupportedOperationException e) {
            // not Linux, or not allowed: the resident peak then covers the whole process life
        }
    }

    /** "heap peak X MB (max Y MB), resident peak Z MB" for the phase since {@link #reset}. */
    static String describe() {
        long heapPeak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heapPeak += pool.getPeakUsage().getUsed();
            }
        }
        return String.format(
                "heap peak %,d MB (-Xmx %,d MB), resident peak %s",
                heapPeak >> 20, Runtime.getRuntime().maxMemory() >> 20, residentPeak());
    }

    private static String residentPeak() {
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith("VmHWM:")) {
                    long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                    return String.format("%,d MB", kb >> 10);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux
        }
        return "unknown";
    }
}
