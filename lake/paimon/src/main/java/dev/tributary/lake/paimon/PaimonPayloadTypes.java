package dev.tributary.lake.paimon;

import dev.tributary.common.exception.CorruptDataException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowType;

/**
 * The types the binary rows of a payload must have, taken from the lake table (never from the
 * payload): the partition, the keys of a primary-key table (min/max keys and key stats), and the
 * value stats of a file by its schema id and stats columns.
 */
final class PaimonPayloadTypes {
    private static final RowType NONE = RowType.of();
    private static final String EXTERNAL_PATHS = "data-file.external-paths";

    private final RowType partition;
    private final RowType keys;
    private final SchemaManager schemas;
    private final List<String> externalRoots;
    private final Map<Long, TableSchema> bySchemaId = new HashMap<>();

    private PaimonPayloadTypes(
            RowType partition, RowType keys, SchemaManager schemas, List<String> externalRoots) {
        this.partition = partition;
        this.keys = keys;
        this.schemas = schemas;
        this.externalRoots = externalRoots;
    }

    static PaimonPayloadTypes of(FileStoreTable table) {
        TableSchema schema = table.schema();
        RowType keys =
                schema.primaryKeys().isEmpty() ? NONE : schema.logicalTrimmedPrimaryKeysType();
        String external = table.options().get(EXTERNAL_PATHS);
        List<String> roots = new ArrayList<>();
        if (external != null) {
            for (String root : external.split(",")) {
                if (!root.isBlank()) {
                    roots.add(root.trim());
                }
            }
        }
        return new PaimonPayloadTypes(
                schema.logicalPartitionType(), keys, table.schemaManager(), List.copyOf(roots));
    }

    RowType partition() {
        return partition;
    }

    /** The min/max key type: the trimmed primary key, or no fields for an append table. */
    RowType keys() {
        return keys;
    }

    /**
     * The value stats type of a file written with schema {@code schemaId}: its columns named in
     * {@code statsCols}, or all of them when null.
     *
     * @throws CorruptDataException if the table has no such schema or column
     */
    RowType valueStats(long schemaId, List<String> statsCols) {
        TableSchema schema = bySchemaId.computeIfAbsent(schemaId, this::load);
        if (statsCols == null) {
            return schema.logicalRowType();
        }
        List<DataField> fields = new ArrayList<>(statsCols.size());
        for (String name : statsCols) {
            DataField field =
                    schema.fields().stream()
                            .filter(f -> f.name().equals(name))
                            .findFirst()
                            .orElseThrow(
                                    () ->
                                            new CorruptDataException(
                                                    "value stats column '"
                                                            + name
                                                            + "' is not in schema "
                                                            + schemaId
                                                            + " of the Paimon table"));
            fields.add(field);
        }
        return new RowType(fields);
    }

    /**
     * A file's external path, which Paimon reads and an abort deletes: it must lie under one of the
     * table's configured external paths.
     *
     * @return {@code path}
     * @throws CorruptDataException if it does not, or the table has none
     */
    String externalPath(String path, String fileName) {
        if (path == null) {
            return null;
        }
        if (!path.contains("/../") && !path.endsWith("/..")) {
            for (String root : externalRoots) {
                String dir = root.endsWith("/") ? root : root + "/";
                if (path.startsWith(dir)) {
                    return path;
                }
            }
        }
        throw new CorruptDataException(
                "external path '"
                        + path
                        + "' of "
                        + fileName
                        + " is not under the Paimon table's external paths "
                        + externalRoots);
    }

    private TableSchema load(long schemaId) {
        if (schemaId < 0) {
            throw new CorruptDataException("Paimon schema id " + schemaId + " is negative");
        }
        try {
            return schemas.schema(schemaId);
        } catch (RuntimeException e) {
            throw new CorruptDataException(
                    "a file names schema " + schemaId + ", which the Paimon table does not have",
                    e);
        }
    }
}
