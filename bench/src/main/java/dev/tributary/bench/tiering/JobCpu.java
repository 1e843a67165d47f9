package dev.tributary.bench.tiering;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** Where a bench phase's CPU went: per thread group, GC and JIT, from the JVM's own counters. */
final class JobCpu {
    /** The thread group of the tiering job's readers (Flink source tasks). */
    static final String READERS = "readers";

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private JobCpu() {}

    static long gcCount() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(GarbageCollectorMXBean::getCollectionCount)
                .sum();
    }

    static long gcMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(GarbageCollectorMXBean::getCollectionTime)
                .sum();
    }

    static long jitMillis() {
        return ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
    }

    static Map<Long, Long> threadCpu() {
        Map<Long, Long> out = new HashMap<>();
        for (long id : THREADS.getAllThreadIds()) {
            out.put(id, THREADS.getThreadCpuTime(id));
        }
        return out;
    }

    /**
     * Where the CPU of a phase went: live threads' CPU since {@code before}, grouped by name;
     * "other" is the process total minus the Java threads still alive (GC, JIT, ended threads).
     */
    static Map<String, Double> cpuByGroup(Map<Long, Long> before, double processCpuSecs) {
        Map<String, Double> groups = new TreeMap<>();
        double sum = 0;
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long now = THREADS.getThreadCpuTime(info.getThreadId());
            if (now < 0) {
                continue;
            }
            double secs = (now - before.getOrDefault(info.getThreadId(), 0L)) / 1e9;
            String name = info.getThreadName();
            String group =
                    name.startsWith("Source: tiering-source ->")
                            ? JobCpu.READERS
                            : name.replaceAll("[-# ]?\\(?\\d+(/\\d+)?\\)?", "");
            groups.merge(group, secs, Double::sum);
            sum += secs;
        }
        groups.put("other (GC, JIT, ended threads)", processCpuSecs - sum);
        return groups;
    }
}
