package dev.tributary.lake.iceberg;

import dev.tributary.common.exception.StorageException;
import dev.tributary.lake.api.commit.OrphanPolicy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * Finds files that no retained snapshot references and that the {@link OrphanPolicy} lets go: under
 * the table's data location, where tiering writers put files; and under its metadata location the
 * manifests and manifest lists of our own failed commits, which carry their attempt's tag ({@link
 * TaggedCommitTable}). Any other metadata file is Iceberg's business (the catalog's metadata files,
 * other engines' commits in flight) and never deleted here, whatever its age.
 */
final class IcebergOrphanFiles {
    private IcebergOrphanFiles() {}

    static List<String> list(Table table, OrphanPolicy policy) {
        if (!(table.io() instanceof SupportsPrefixOperations io)) {
            throw new StorageException(
                    "orphan cleanup of Iceberg table '"
                            + table.name()
                            + "' needs a FileIO that can list files; "
                            + table.io().getClass().getName()
                            + " cannot");
        }
        Set<String> referenced = referencedFiles(table);
        List<String> orphans = new ArrayList<>();
        for (FileInfo f : listOrEmpty(io, listingPrefix(table))) {
            if (policy.deletable(f.location(), f.createdAtMillis())
                    && !referenced.contains(normalize(f.location()))) {
                orphans.add(f.location());
            }
        }
        for (FileInfo f : listOrEmpty(io, metadataListingPrefix(table))) {
            if (policy.ofDeadAttempt(f.location())
                    && !referenced.contains(normalize(f.location()))) {
                orphans.add(f.location());
            }
        }
        orphans.sort(null);
        return orphans;
    }

    private static List<FileInfo> listOrEmpty(SupportsPrefixOperations io, String prefix) {
        List<FileInfo> out = new ArrayList<>();
        try {
            io.listPrefix(prefix).forEach(out::add);
        } catch (RuntimeException e) {
            // a table that never wrote data has no data directory yet
            if (!(e.getCause() instanceof java.io.FileNotFoundException)) {
                throw e;
            }
        }
        return out;
    }

    /** The metadata location as a listing prefix, with its trailing slash. */
    private static String metadataListingPrefix(Table table) {
        String location =
                table.properties()
                        .getOrDefault(
                                TableProperties.WRITE_METADATA_LOCATION,
                                table.location() + "/metadata");
        return location.endsWith("/") ? location : location + "/";
    }

    /** Where the table's writers put data and delete files. */
    static String dataLocation(Table table) {
        return table.properties()
                .getOrDefault(TableProperties.WRITE_DATA_LOCATION, table.location() + "/data");
    }

    /**
     * The data location as a listing prefix: with its trailing slash, as an object store matches
     * prefixes by characters and {@code .../data} would also list {@code .../data2/}.
     */
    static String listingPrefix(Table table) {
        String location = dataLocation(table);
        return location.endsWith("/") ? location : location + "/";
    }

    private static Set<String> referencedFiles(Table table) {
        Set<String> out = new HashSet<>();
        Set<String> seenManifests = new HashSet<>();
        for (Snapshot s : table.snapshots()) {
            if (s.manifestListLocation() != null) {
                out.add(normalize(s.manifestListLocation()));
            }
            for (ManifestFile m : s.allManifests(table.io())) {
                if (!seenManifests.add(m.path())) {
                    continue;
                }
                out.add(normalize(m.path()));
                try (ManifestReader<? extends ContentFile<?>> r =
                        m.content() == ManifestContent.DATA
                                ? ManifestFiles.read(m, table.io(), table.specs())
                                : ManifestFiles.readDeleteManifest(m, table.io(), table.specs())) {
                    for (ContentFile<?> f : r) {
                        out.add(normalize(f.location()));
                    }
                } catch (IOException e) {
                    throw new StorageException(
                            "reading manifest " + m.path() + " failed: " + e.getMessage(), e);
                }
            }
        }
        return out;
    }

    /**
     * One spelling per file, so that a referenced file is never taken for an orphan: local paths
     * appear as file:/x, file:///x or /x depending on who wrote them, and an S3 object as s3://,
     * s3a:// or s3n:// (all three name the same object to Iceberg's S3FileIO and to Hadoop S3A).
     */
    static String normalize(String location) {
        String p = location;
        if (p.startsWith("file:")) {
            p = p.substring("file:".length());
            while (p.startsWith("//")) {
                p = p.substring(1);
            }
        } else if (p.startsWith("s3a://") || p.startsWith("s3n://")) {
            p = "s3://" + p.substring("s3a://".length());
        }
        return p;
    }
}
