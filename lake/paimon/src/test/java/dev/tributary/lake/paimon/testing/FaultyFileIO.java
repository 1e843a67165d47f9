package dev.tributary.lake.paimon.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.local.LocalFileIO;

/**
 * Paimon's local file IO under the scheme {@code faulty:} (warehouse {@code faulty:///dir}), which
 * fails every new file whose path contains an armed fragment, as a full disk or a failing object
 * store does: the writes of one table fail while the rest of the warehouse works. Fragments are
 * armed in this JVM with {@link #failWritesUnder}, or across processes through the file named by
 * the system property {@value #CONTROL_PROPERTY} (one fragment per line), re-read on every create.
 */
public class FaultyFileIO extends LocalFileIO {
    private static final long serialVersionUID = 1L;

    /** A file of path fragments whose writes fail, for tests that run the writers elsewhere. */
    public static final String CONTROL_PROPERTY = "tributary.test.faulty-io.control";

    private static final Set<String> ARMED = ConcurrentHashMap.newKeySet();
    private static final java.util.concurrent.atomic.AtomicInteger REFUSED =
            new java.util.concurrent.atomic.AtomicInteger();

    /** How many file creations were refused in this JVM so far. */
    public static int refusedCreates() {
        return REFUSED.get();
    }

    /** New files under paths containing {@code fragment} fail until {@link #heal}. */
    public static void failWritesUnder(String fragment) {
        ARMED.add(fragment);
    }

    public static void heal() {
        ARMED.clear();
    }

    @Override
    public PositionOutputStream newOutputStream(Path path, boolean overwrite) throws IOException {
        String p = path.toString();
        for (String fragment : armed()) {
            if (!fragment.isEmpty() && p.contains(fragment)) {
                REFUSED.incrementAndGet();
                throw new IOException("injected: no space left on device writing " + p);
            }
        }
        return super.newOutputStream(path, overwrite);
    }

    private static Iterable<String> armed() {
        String control = System.getProperty(CONTROL_PROPERTY);
        if (control == null) {
            return ARMED;
        }
        try {
            java.nio.file.Path f = java.nio.file.Path.of(control);
            List<String> lines =
                    Files.exists(f) ? Files.readAllLines(f, StandardCharsets.UTF_8) : List.of();
            Set<String> all = ConcurrentHashMap.newKeySet();
            all.addAll(ARMED);
            lines.forEach(l -> all.add(l.strip()));
            return all;
        } catch (IOException e) {
            return ARMED;
        }
    }
}
