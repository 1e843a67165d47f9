package dev.tributary.client.internal;

import dev.tributary.client.admin.TableInfo;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.Schema;
import dev.tributary.rpc.convert.ProtoConverters;
import dev.tributary.rpc.proto.DescribeTableRequest;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Table descriptions by path, fetched on first use. Schemas only grow at the end (added nullable
 * columns), so the newest schema decodes rows of every older schema id; a reader that meets a newer
 * schema id refreshes.
 */
public final class TableMetadataCache {
    private final CoordinatorRoute coordinator;
    private final Map<TablePath, TableInfo> byPath = new ConcurrentHashMap<>();

    public TableMetadataCache(CoordinatorRoute coordinator) {
        this.coordinator = coordinator;
    }

    public TableInfo get(TablePath path) {
        TableInfo info = byPath.get(path);
        return info != null ? info : refresh(path);
    }

    public TableInfo refresh(TablePath path) {
        TableInfo info =
                TableInfo.fromPb(
                        coordinator.call(
                                c ->
                                        c.admin()
                                                .describeTable(
                                                        DescribeTableRequest.newBuilder()
                                                                .setPath(ProtoConverters.toPb(path))
                                                                .build())));
        byPath.put(path, info);
        return info;
    }

    /** A schema that decodes rows written under {@code schemaId}; refreshes when it is newer. */
    public Schema schemaFor(TablePath path, int schemaId) {
        TableInfo info = get(path);
        if (schemaId > info.schemaId()) {
            info = refresh(path);
        }
        return info.schema();
    }

    void put(TableInfo info) {
        byPath.put(info.path(), info);
    }

    void invalidate(TablePath path) {
        byPath.remove(path);
    }

    void invalidateAll() {
        byPath.clear();
    }
}
