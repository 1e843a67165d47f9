package dev.tributary.tiering.objectstore;

import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.testing.IcebergRestCatalogServer;
import dev.tributary.lake.api.testing.S3Server;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Reads an Iceberg table on S3 the way another engine would (its REST catalog, S3FileIO straight to
 * the S3 server, no proxy): the ids it holds, and the objects under its location that no snapshot
 * or retained metadata references, found by listing the bucket.
 */
final class S3IcebergCheck implements AutoCloseable {
    private final Catalog catalog;
    private final S3Server s3;

    S3IcebergCheck(IcebergRestCatalogServer rest, S3Server s3) {
        this.s3 = s3;
        this.catalog =
                CatalogUtil.buildIcebergCatalog(
                        "check",
                        Map.of(
                                "type",
                                "rest",
                                "uri",
                                rest.uri(),
                                "io-impl",
                                "org.apache.iceberg.aws.s3.S3FileIO",
                                "s3.endpoint",
                                s3.endpoint(),
                                "s3.path-style-access",
                                "true",
                                "s3.access-key-id",
                                S3Server.ACCESS_KEY,
                                "s3.secret-access-key",
                                S3Server.SECRET_KEY,
                                "client.region",
                                S3Server.REGION),
                        null);
    }

    Table table(TablePath path) {
        return catalog.loadTable(TableIdentifier.of(path.database(), path.table()));
    }

    /** The {@code id} of every row of the table's current snapshot. */
    List<Long> ids(TablePath path) {
        List<Long> ids = new ArrayList<>();
        try (CloseableIterable<Record> rows = IcebergGenerics.read(table(path)).build()) {
            for (Record r : rows) {
                ids.add((Long) r.getField("id"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ids;
    }

    /** Keys under the table's location that nothing the table retains references. */
    List<String> unreferencedObjects(TablePath path) {
        Table table = table(path);
        Set<String> referenced = new HashSet<>();
        for (Snapshot s : table.snapshots()) {
            referenced.add(key(s.manifestListLocation()));
            for (ManifestFile m : s.allManifests(table.io())) {
                referenced.add(key(m.path()));
                try (ManifestReader<? extends ContentFile<?>> r =
                        m.content() == ManifestContent.DATA
                                ? ManifestFiles.read(m, table.io(), table.specs())
                                : ManifestFiles.readDeleteManifest(m, table.io(), table.specs())) {
                    for (ContentFile<?> f : r) {
                        referenced.add(key(f.location()));
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        TableMetadata meta = ((org.apache.iceberg.HasTableOperations) table).operations().current();
        referenced.add(key(meta.metadataFileLocation()));
        for (TableMetadata.MetadataLogEntry e : meta.previousFiles()) {
            referenced.add(key(e.file()));
        }
        String prefix = key(table.location()) + "/";
        List<String> out = new ArrayList<>();
        for (String k : s3.keys(S3Lake.BUCKET, prefix)) {
            if (!referenced.contains(k)) {
                out.add(k);
            }
        }
        return out;
    }

    /** {@code s3://lake/a/b} to {@code a/b}. */
    private static String key(String location) {
        String p = location.substring(location.indexOf("://") + 3);
        return p.substring(p.indexOf('/') + 1);
    }

    @Override
    public void close() throws Exception {
        if (catalog instanceof AutoCloseable c) {
            c.close();
        }
    }
}
