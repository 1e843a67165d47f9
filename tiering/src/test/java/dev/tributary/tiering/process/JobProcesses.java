package dev.tributary.tiering.process;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The child JVMs of one test, what else it must close, and a timeline of its steps. Registered as
 * an extension so that, when the test fails, the seed, the timeline and every child's output are
 * printed; after each test the children are killed, then the resources handed to {@link
 * #closeAfterTest} are closed, newest first.
 */
final class JobProcesses implements AfterTestExecutionCallback, AfterEachCallback {
    private final List<JobProcess> started = new ArrayList<>();
    private final Deque<AutoCloseable> resources = new ArrayDeque<>();
    private final List<String> timeline = new ArrayList<>();
    private final long startNanos = System.nanoTime();
    private long seed;

    /** The seed printed with the children's output when the test fails. */
    void seed(long seed) {
        this.seed = seed;
    }

    JobProcess start(String name, Path dir, Class<?> mainClass, List<String> args)
            throws IOException {
        JobProcess p = JobProcess.start(name, dir, mainClass, args);
        started.add(p);
        note("started " + name + " (pid " + p.pid() + ")");
        return p;
    }

    /** Records a step with the time since the test started (also printed at once). */
    void note(String step) {
        String line = String.format("[%6.1f s] %s", (System.nanoTime() - startNanos) / 1e9, step);
        timeline.add(line);
        System.out.println(line);
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
        if (context.getExecutionException().isEmpty()) {
            return;
        }
        StringBuilder sb = new StringBuilder();
        sb.append("\n==== ")
                .append(context.getDisplayName())
                .append(" failed; seed ")
                .append(seed)
                .append('\n');
        timeline.forEach(l -> sb.append(l).append('\n'));
        for (JobProcess p : started) {
            sb.append("==== output of ")
                    .append(p.name())
                    .append(" (pid ")
                    .append(p.pid())
                    .append(")\n")
                    .append(p.output())
                    .append('\n');
        }
        System.out.println(sb);
    }

    /** Closes {@code resource} after the test (after the children are killed). */
    <T extends AutoCloseable> T closeAfterTest(T resource) {
        resources.push(resource);
        return resource;
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        List<AutoCloseable> all = new ArrayList<>(started);
        all.addAll(resources);
        resources.clear();
        Exception first = null;
        for (AutoCloseable c : all) {
            try {
                c.close();
            } catch (Exception e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
