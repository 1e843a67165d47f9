package dev.tributary.lake.paimon;

import java.net.URL;
import java.util.function.Supplier;

/**
 * A context class loader that loads every class and resource through its parent but hides Hadoop's
 * XML configuration files ({@code *-default.xml}, {@code *-site.xml}).
 *
 * <p>Why: after closing each Parquet data file, Paimon re-reads the file's footer for column
 * statistics, and Parquet's read options build a fresh Hadoop {@code Configuration} that parses
 * {@code core-default.xml} (and searches every jar for {@code core-site.xml}) on first use. That
 * costs 5-30 ms per file on this hardware, and a PK split writes one file per Paimon bucket (16
 * files for 16 buckets), so it dominated the first tiering round of a PK table. A {@code
 * Configuration} captures the context class loader when it is created; with this one it finds no
 * XML and answers with the caller's defaults. Only Parquet's {@code parquet.*} keys are read there,
 * none of which Hadoop's XML files set, so the files and their statistics are the same.
 *
 * <p>Used only for local warehouses, whose Paimon file IO does not go through Hadoop at all;
 * Hadoop-backed file systems may need their site files.
 */
final class HadoopXmlFreeClassLoader extends ClassLoader {
    static {
        registerAsParallelCapable();
    }

    HadoopXmlFreeClassLoader(ClassLoader parent) {
        super(parent);
    }

    @Override
    public URL getResource(String name) {
        return isHadoopXml(name) ? null : super.getResource(name);
    }

    static boolean isHadoopXml(String name) {
        return name.endsWith("-default.xml") || name.endsWith("-site.xml");
    }

    /** Runs {@code work} with {@code loader} as the thread's context class loader (if not null). */
    static <T> T callWith(ClassLoader loader, Supplier<T> work) {
        if (loader == null) {
            return work.get();
        }
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return work.get();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}
