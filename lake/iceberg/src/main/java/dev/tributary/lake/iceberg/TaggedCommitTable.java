package dev.tributary.lake.iceberg;

import org.apache.iceberg.BaseTable;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * A table whose commits name the metadata files they write (manifests, manifest lists) with an
 * attempt's tag, so that orphan cleanup can tell the leftovers of a failed commit (T23, T47).
 *
 * <p>Iceberg deletes the manifests of a failed commit itself only when it knows the commit did not
 * land and only if those deletes succeed: a commit that failed on the object store (a manifest list
 * upload throttled past its retries), or whose cleanup was, leaves files under the metadata
 * location that no snapshot references and that carry a random name. Tagged, they belong to an
 * attempt the coordinator knows dead once it or a newer one committed, as its data files do.
 */
final class TaggedCommitTable {
    private TaggedCommitTable() {}

    /** {@code table}, its metadata files written by its commits named with {@code tag}. */
    static Table of(Table table, String tag) {
        if (!(table instanceof BaseTable base)) {
            throw new IllegalArgumentException(
                    "Iceberg table '" + table.name() + "' has no table operations to tag");
        }
        return new BaseTable(new Tagged(base.operations(), tag), base.name(), base.reporter());
    }

    private record Tagged(TableOperations ops, String tag) implements TableOperations {
        @Override
        public String metadataFileLocation(String fileName) {
            return ops.metadataFileLocation(tag + "-" + fileName);
        }

        @Override
        public TableMetadata current() {
            return ops.current();
        }

        @Override
        public TableMetadata refresh() {
            return ops.refresh();
        }

        @Override
        public void commit(TableMetadata base, TableMetadata metadata) {
            ops.commit(base, metadata);
        }

        @Override
        public FileIO io() {
            return ops.io();
        }

        @Override
        public EncryptionManager encryption() {
            return ops.encryption();
        }

        @Override
        public LocationProvider locationProvider() {
            return ops.locationProvider();
        }

        @Override
        public TableOperations temp(TableMetadata uncommittedMetadata) {
            return new Tagged(ops.temp(uncommittedMetadata), tag);
        }

        @Override
        public long newSnapshotId() {
            return ops.newSnapshotId();
        }

        @Override
        public boolean requireStrictCleanup() {
            return ops.requireStrictCleanup();
        }
    }
}
