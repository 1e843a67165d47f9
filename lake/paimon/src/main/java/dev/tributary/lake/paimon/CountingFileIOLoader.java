package dev.tributary.lake.paimon;

import java.net.URI;
import java.util.Map;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.FileIOLoader;
import org.apache.paimon.fs.Path;
import org.apache.paimon.options.Options;

/**
 * Installs {@link CountingFileIO} as Paimon's preferred file IO of a warehouse on an object store
 * (T47). A local warehouse keeps Paimon's own file IO untouched: there is no request to pay for.
 */
final class CountingFileIOLoader implements FileIOLoader {
    private static final long serialVersionUID = 1L;

    private final String scheme;

    private CountingFileIOLoader(String scheme) {
        this.scheme = scheme;
    }

    /**
     * The catalog context for {@code options}: with this loader preferred when the {@code
     * warehouse} option names an object store (any scheme but {@code file}).
     */
    static CatalogContext context(Map<String, String> options) {
        String scheme = schemeOf(options.get("warehouse"));
        Options o = Options.fromMap(options);
        if (scheme == null || scheme.equals("file")) {
            return CatalogContext.create(o);
        }
        return CatalogContext.create(o, new CountingFileIOLoader(scheme), null);
    }

    static String schemeOf(String warehouse) {
        if (warehouse == null) {
            return null;
        }
        try {
            return URI.create(warehouse).getScheme();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    @Override
    public String getScheme() {
        return scheme;
    }

    @Override
    public FileIO load(Path path) {
        // Paimon calls configure(context) next, which opens the file IO it would have chosen
        return new CountingFileIO(path);
    }
}
