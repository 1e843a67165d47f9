package dev.tributary.lake.paimon;

import dev.tributary.lake.api.io.ObjectStoreRequest;
import dev.tributary.lake.api.io.ObjectStoreRequests;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.FileStatus;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.RemoteIterator;
import org.apache.paimon.fs.SeekableInputStream;
import org.apache.paimon.fs.VectoredReadable;

/**
 * Paimon's file IO of a warehouse on an object store, counting in {@link
 * ObjectStoreRequests#global()} (T47). Paimon's S3 file IO is a plugin with a shaded AWS SDK v1 in
 * its own class loader, so its HTTP requests cannot be hooked; what is counted here are <b>file-IO
 * operations</b>, each mapped to the S3 request it mostly costs: an opened input stream is a GET,
 * an output stream a PUT, {@code listStatus}/{@code listFiles} a LIST, {@code delete} a DELETE,
 * {@code exists}/{@code getFileStatus} a HEAD, {@code rename} a COPY plus a DELETE, {@code mkdirs}
 * an OTHER. Not seen: the ranged GETs a reader issues within one stream, the parts of a multipart
 * upload (an output stream counts as one PUT), the pages of a long listing, the objects behind a
 * recursive delete, and retries inside the plugin. Bytes are those read from and written to the
 * streams.
 *
 * <p>Created by {@link CountingFileIOLoader}; every call is forwarded to the file IO Paimon would
 * have chosen itself (including the operations its plugin overrides, such as atomic writes).
 */
final class CountingFileIO implements FileIO {
    private static final long serialVersionUID = 1L;

    private final Path root;
    private FileIO io;

    CountingFileIO(Path root) {
        this.root = root;
    }

    @Override
    public void configure(CatalogContext context) {
        try {
            // Paimon's own choice for this path, without the loader that created this file IO
            this.io =
                    FileIO.get(
                            root,
                            CatalogContext.create(
                                    context.options(),
                                    context.hadoopConf(),
                                    null,
                                    context.fallbackIO()));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(
                    "cannot open Paimon's file IO for " + root + ": " + e.getMessage(), e);
        }
    }

    private static void count(Path path, ObjectStoreRequest kind) {
        ObjectStoreRequests.global().recordLocation(path.toString(), kind, 0, 0);
    }

    @Override
    public boolean isObjectStore() {
        return io.isObjectStore();
    }

    @Override
    public void setRuntimeContext(Map<String, String> options) {
        io.setRuntimeContext(options);
    }

    @Override
    public SeekableInputStream newInputStream(Path path) throws IOException {
        count(path, ObjectStoreRequest.GET);
        SeekableInputStream in = io.newInputStream(path);
        // a vectored reader keeps its own interface: its bytes go uncounted
        return in instanceof VectoredReadable ? in : new CountingInput(path, in);
    }

    @Override
    public PositionOutputStream newOutputStream(Path path, boolean overwrite) throws IOException {
        count(path, ObjectStoreRequest.PUT);
        return new CountingOutput(path, io.newOutputStream(path, overwrite));
    }

    @Override
    public FileStatus getFileStatus(Path path) throws IOException {
        count(path, ObjectStoreRequest.HEAD);
        return io.getFileStatus(path);
    }

    @Override
    public FileStatus[] listStatus(Path path) throws IOException {
        count(path, ObjectStoreRequest.LIST);
        return io.listStatus(path);
    }

    @Override
    public FileStatus[] listFiles(Path path, boolean recursive) throws IOException {
        count(path, ObjectStoreRequest.LIST);
        return io.listFiles(path, recursive);
    }

    @Override
    public RemoteIterator<FileStatus> listFilesIterative(Path path, boolean recursive)
            throws IOException {
        count(path, ObjectStoreRequest.LIST);
        return io.listFilesIterative(path, recursive);
    }

    @Override
    public FileStatus[] listDirectories(Path path) throws IOException {
        count(path, ObjectStoreRequest.LIST);
        return io.listDirectories(path);
    }

    @Override
    public boolean exists(Path path) throws IOException {
        count(path, ObjectStoreRequest.HEAD);
        return io.exists(path);
    }

    @Override
    public boolean delete(Path path, boolean recursive) throws IOException {
        count(path, ObjectStoreRequest.DELETE);
        return io.delete(path, recursive);
    }

    @Override
    public boolean mkdirs(Path path) throws IOException {
        count(path, ObjectStoreRequest.OTHER);
        return io.mkdirs(path);
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        count(dst, ObjectStoreRequest.COPY);
        count(src, ObjectStoreRequest.DELETE);
        return io.rename(src, dst);
    }

    @Override
    public void deleteQuietly(Path file) {
        count(file, ObjectStoreRequest.DELETE);
        io.deleteQuietly(file);
    }

    @Override
    public void deleteFilesQuietly(List<Path> files) {
        for (Path f : files) {
            count(f, ObjectStoreRequest.DELETE);
        }
        io.deleteFilesQuietly(files);
    }

    @Override
    public void deleteDirectoryQuietly(Path directory) {
        count(directory, ObjectStoreRequest.DELETE);
        io.deleteDirectoryQuietly(directory);
    }

    @Override
    public long getFileSize(Path path) throws IOException {
        count(path, ObjectStoreRequest.HEAD);
        return io.getFileSize(path);
    }

    @Override
    public boolean isDir(Path path) throws IOException {
        count(path, ObjectStoreRequest.HEAD);
        return io.isDir(path);
    }

    @Override
    public void checkOrMkdirs(Path path) throws IOException {
        count(path, ObjectStoreRequest.HEAD);
        io.checkOrMkdirs(path);
    }

    @Override
    public String readFileUtf8(Path path) throws IOException {
        count(path, ObjectStoreRequest.GET);
        String s = io.readFileUtf8(path);
        ObjectStoreRequests.global().recordLocationBytes(path.toString(), 0, s.length());
        return s;
    }

    @Override
    public boolean tryToWriteAtomic(Path path, String content) throws IOException {
        count(path, ObjectStoreRequest.PUT);
        ObjectStoreRequests.global().recordLocationBytes(path.toString(), content.length(), 0);
        return io.tryToWriteAtomic(path, content);
    }

    @Override
    public void writeFile(Path path, String content, boolean overwrite) throws IOException {
        count(path, ObjectStoreRequest.PUT);
        ObjectStoreRequests.global().recordLocationBytes(path.toString(), content.length(), 0);
        io.writeFile(path, content, overwrite);
    }

    @Override
    public void overwriteFileUtf8(Path path, String content) throws IOException {
        count(path, ObjectStoreRequest.PUT);
        ObjectStoreRequests.global().recordLocationBytes(path.toString(), content.length(), 0);
        io.overwriteFileUtf8(path, content);
    }

    @Override
    public void overwriteHintFile(Path path, String content) throws IOException {
        count(path, ObjectStoreRequest.PUT);
        io.overwriteHintFile(path, content);
    }

    @Override
    public void copyFile(Path src, Path dst, boolean overwrite) throws IOException {
        count(dst, ObjectStoreRequest.COPY);
        io.copyFile(src, dst, overwrite);
    }

    @Override
    public void copyFiles(Path src, Path dst, boolean overwrite) throws IOException {
        count(dst, ObjectStoreRequest.COPY);
        io.copyFiles(src, dst, overwrite);
    }

    @Override
    public Optional<String> readOverwrittenFileUtf8(Path path) throws IOException {
        count(path, ObjectStoreRequest.GET);
        return io.readOverwrittenFileUtf8(path);
    }

    @Override
    public void close() throws IOException {
        if (io != null) {
            io.close();
        }
    }

    /** Counts the bytes read, recorded when the stream closes. */
    private static final class CountingInput extends SeekableInputStream {
        private final Path path;
        private final SeekableInputStream in;
        private long bytes;

        CountingInput(Path path, SeekableInputStream in) {
            this.path = path;
            this.in = in;
        }

        @Override
        public void seek(long pos) throws IOException {
            in.seek(pos);
        }

        @Override
        public long getPos() throws IOException {
            return in.getPos();
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                bytes++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                bytes += n;
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            ObjectStoreRequests.global().recordLocationBytes(path.toString(), 0, bytes);
            bytes = 0;
            in.close();
        }
    }

    /** Counts the bytes written, recorded when the stream closes. */
    private static final class CountingOutput extends PositionOutputStream {
        private final Path path;
        private final PositionOutputStream out;
        private long bytes;

        CountingOutput(Path path, PositionOutputStream out) {
            this.path = path;
            this.out = out;
        }

        @Override
        public long getPos() throws IOException {
            return out.getPos();
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            bytes++;
        }

        @Override
        public void write(byte[] b) throws IOException {
            out.write(b);
            bytes += b.length;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            bytes += len;
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            ObjectStoreRequests.global().recordLocationBytes(path.toString(), bytes, 0);
            bytes = 0;
            out.close();
        }
    }
}
