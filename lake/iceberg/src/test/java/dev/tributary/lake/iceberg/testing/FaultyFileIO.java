package dev.tributary.lake.iceberg.testing;

import dev.tributary.common.config.Configuration;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * Iceberg's {@link HadoopFileIO} with injected faults, set through the catalog's {@code io-impl}
 * property. A fault hits new files whose path contains a chosen fragment: their creation, their
 * first byte, their bytes after the Parquet magic (what a full disk does when a writer flushes a
 * row group or its footer at close) or their close. A failed write throws what Hadoop's local file
 * system throws on a full disk: {@code org.apache.hadoop.fs.FSError}, an {@link Error} wrapping the
 * {@code IOException}. State is static because the catalog instantiates this class itself.
 */
public final class FaultyFileIO implements FileIO, SupportsPrefixOperations {
    /** Where a new file fails. */
    public enum Fault {
        CREATE,
        FIRST_BYTE,
        AFTER_MAGIC,
        CLOSE
    }

    private static final int PARQUET_MAGIC_BYTES = 4;
    private static final AtomicInteger MATCHING_CREATES = new AtomicInteger();
    private static final AtomicInteger FAULTS = new AtomicInteger();
    private static volatile String fragment;
    private static volatile Fault fault;
    private static volatile int nth;
    private static volatile boolean failDeletes;

    private HadoopFileIO delegate;

    public FaultyFileIO() {}

    /**
     * Fails new files whose path contains {@code pathFragment}: the {@code onlyNth}-th such file
     * (1-based), or every one when 0.
     */
    public static void fail(String pathFragment, Fault where, int onlyNth) {
        MATCHING_CREATES.set(0);
        FAULTS.set(0);
        fragment = pathFragment;
        fault = where;
        nth = onlyNth;
    }

    /** Also refuses deletes of paths containing the fragment. */
    public static void failDeletes() {
        failDeletes = true;
    }

    public static void heal() {
        fragment = null;
        fault = null;
        failDeletes = false;
    }

    /** An Iceberg lake storage with a Hadoop catalog in {@code warehouse} writing through this. */
    public static LakeStorage lakeStorage(Path warehouse) {
        return LakeStoragePlugins.find("iceberg")
                .createLakeStorage(
                        Configuration.fromMap(
                                Map.of(
                                        "warehouse",
                                        warehouse.toString(),
                                        CatalogProperties.FILE_IO_IMPL,
                                        FaultyFileIO.class.getName())));
    }

    /** How many faults fired since {@link #fail}. */
    public static int faults() {
        return FAULTS.get();
    }

    private static boolean matches(String path) {
        String f = fragment;
        return f != null && path.contains(f);
    }

    @Override
    public void initialize(Map<String, String> properties) {
        delegate = new HadoopFileIO(new org.apache.hadoop.conf.Configuration());
        delegate.initialize(properties);
    }

    @Override
    public Map<String, String> properties() {
        return delegate.properties();
    }

    @Override
    public InputFile newInputFile(String path) {
        return delegate.newInputFile(path);
    }

    @Override
    public OutputFile newOutputFile(String path) {
        return new FaultyOutputFile(delegate.newOutputFile(path));
    }

    @Override
    public void deleteFile(String path) {
        if (failDeletes && matches(path)) {
            FAULTS.incrementAndGet();
            throw new UncheckedIOException(
                    new IOException("injected: cannot delete " + path + ": I/O error"));
        }
        delegate.deleteFile(path);
    }

    @Override
    public Iterable<FileInfo> listPrefix(String prefix) {
        return delegate.listPrefix(prefix);
    }

    @Override
    public void deletePrefix(String prefix) {
        delegate.deletePrefix(prefix);
    }

    @Override
    public void close() {
        if (delegate != null) {
            delegate.close();
        }
    }

    private static IOException diskFull(String path) {
        return new IOException("injected: " + path + ": No space left on device");
    }

    /** What Hadoop's RawLocalFileSystem throws when a write fails: an Error. */
    private static Error fsError(IOException cause) {
        try {
            Constructor<?> c =
                    Class.forName("org.apache.hadoop.fs.FSError")
                            .getDeclaredConstructor(Throwable.class);
            c.setAccessible(true);
            return (Error) c.newInstance(cause);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot create Hadoop's FSError", e);
        }
    }

    private static final class FaultyOutputFile implements OutputFile {
        private final OutputFile delegate;

        FaultyOutputFile(OutputFile delegate) {
            this.delegate = delegate;
        }

        private Fault armed() {
            if (!matches(delegate.location())) {
                return null;
            }
            int n = MATCHING_CREATES.incrementAndGet();
            int only = nth;
            return only == 0 || only == n ? fault : null;
        }

        private PositionOutputStream open(boolean overwrite) {
            Fault f = armed();
            if (f == Fault.CREATE) {
                FAULTS.incrementAndGet();
                throw new UncheckedIOException(diskFull(delegate.location()));
            }
            PositionOutputStream out = overwrite ? delegate.createOrOverwrite() : delegate.create();
            return f == null ? out : new FaultyStream(out, f, delegate.location());
        }

        @Override
        public PositionOutputStream create() {
            return open(false);
        }

        @Override
        public PositionOutputStream createOrOverwrite() {
            return open(true);
        }

        @Override
        public String location() {
            return delegate.location();
        }

        @Override
        public InputFile toInputFile() {
            return delegate.toInputFile();
        }
    }

    private static final class FaultyStream extends PositionOutputStream {
        private final PositionOutputStream out;
        private final Fault fault;
        private final String path;

        FaultyStream(PositionOutputStream out, Fault fault, String path) {
            this.out = out;
            this.fault = fault;
            this.path = path;
        }

        @Override
        public long getPos() throws IOException {
            return out.getPos();
        }

        private void check(int len) throws IOException {
            boolean refuse =
                    fault == Fault.FIRST_BYTE
                            || (fault == Fault.AFTER_MAGIC
                                    && out.getPos() + len > PARQUET_MAGIC_BYTES);
            if (refuse) {
                FAULTS.incrementAndGet();
                throw fsError(diskFull(path));
            }
        }

        @Override
        public void write(int b) throws IOException {
            check(1);
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            check(len);
            out.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
            if (fault == Fault.CLOSE) {
                FAULTS.incrementAndGet();
                throw diskFull(path);
            }
        }
    }
}
