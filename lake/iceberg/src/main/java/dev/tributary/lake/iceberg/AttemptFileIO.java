package dev.tributary.lake.iceberg;

import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table's {@link FileIO} as one write attempt sees it: it remembers every file the attempt
 * creates and the stream of each, so {@link #discard} can delete them all. Iceberg's own abort only
 * deletes the files it completed; a file whose close failed (a full disk while the footer is
 * written), and the other files of a writer that stopped closing at the first failure, would be
 * left open and behind.
 */
final class AttemptFileIO implements FileIO {
    private static final Logger LOG = LoggerFactory.getLogger(AttemptFileIO.class);

    private static final long serialVersionUID = 1L;

    private final FileIO io;

    /** Every file created, in order. */
    private final transient Set<String> created = new LinkedHashSet<>();

    /** The streams not closed yet, by location. */
    private final transient Map<String, PositionOutputStream> open = new HashMap<>();

    AttemptFileIO(FileIO io) {
        this.io = io;
    }

    @Override
    public InputFile newInputFile(String path) {
        return io.newInputFile(path);
    }

    @Override
    public OutputFile newOutputFile(String path) {
        return new Tracked(io.newOutputFile(path));
    }

    @Override
    public void deleteFile(String path) {
        io.deleteFile(path);
    }

    @Override
    public Map<String, String> properties() {
        return io.properties();
    }

    @Override
    public void initialize(Map<String, String> properties) {
        // wraps an initialized FileIO
    }

    @Override
    public void close() {
        // the table owns the wrapped FileIO
    }

    /**
     * Closes what is still open and deletes every file this attempt created, without writing
     * anything more. Never throws (but for a VirtualMachineError): what cannot be deleted carries
     * the attempt's name and goes with the table's next commit (T23).
     *
     * @return the number of files that could not be deleted
     */
    synchronized int discard(String what) {
        int left = 0;
        for (PositionOutputStream out : java.util.List.copyOf(open.values())) {
            try {
                out.close();
            } catch (Throwable t) {
                IcebergLakeWriter.rethrowIfFatal(t);
                // a full disk may refuse the close; the delete below still frees the space
            }
        }
        open.clear();
        for (String location : created) {
            try {
                io.deleteFile(location);
            } catch (Throwable t) {
                IcebergLakeWriter.rethrowIfFatal(t);
                left++;
                LOG.warn(
                        "could not delete file {} of {}; the table's next commit deletes it",
                        location,
                        what,
                        t);
            }
        }
        created.clear();
        return left;
    }

    private synchronized PositionOutputStream opened(String location, PositionOutputStream out) {
        PositionOutputStream tracked = new TrackedStream(location, out);
        open.put(location, tracked);
        return tracked;
    }

    private synchronized void closed(String location) {
        open.remove(location);
    }

    private final class Tracked implements OutputFile {
        private final OutputFile file;

        Tracked(OutputFile file) {
            this.file = file;
        }

        @Override
        public PositionOutputStream create() {
            // remembered before creating: a create that fails half-way may leave a file
            synchronized (AttemptFileIO.this) {
                created.add(file.location());
            }
            return opened(file.location(), file.create());
        }

        @Override
        public PositionOutputStream createOrOverwrite() {
            synchronized (AttemptFileIO.this) {
                created.add(file.location());
            }
            return opened(file.location(), file.createOrOverwrite());
        }

        @Override
        public String location() {
            return file.location();
        }

        @Override
        public InputFile toInputFile() {
            return file.toInputFile();
        }
    }

    private final class TrackedStream extends PositionOutputStream {
        private final String location;
        private final PositionOutputStream out;
        private boolean closed;

        TrackedStream(String location, PositionOutputStream out) {
            this.location = location;
            this.out = out;
        }

        @Override
        public long getPos() throws IOException {
            return out.getPos();
        }

        @Override
        public long storedLength() throws IOException {
            return out.storedLength();
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            // a stream whose close failed stays open to discard(), which tries again
            out.close();
            closed = true;
            closed(location);
        }
    }
}
