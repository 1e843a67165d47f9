package dev.tributary.lake.paimon.testing;

import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.FileIOLoader;
import org.apache.paimon.fs.Path;

/** Registers {@link FaultyFileIO} for the {@code faulty:} scheme with Paimon. */
public final class FaultyFileIOLoader implements FileIOLoader {
    private static final long serialVersionUID = 1L;

    @Override
    public String getScheme() {
        return "faulty";
    }

    @Override
    public FileIO load(Path path) {
        return new FaultyFileIO();
    }
}
