package dev.tributary.lake.paimon;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.contract.LakeExternalChangeContractTest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.types.DataTypes;

/** Changes made to tiered tables with Paimon's own catalog API. */
class PaimonExternalChangeTest extends LakeExternalChangeContractTest {

    @Override
    protected LakeStorage createStorage(Path warehouse) {
        return LakeStoragePlugins.find("paimon")
                .createLakeStorage(
                        Configuration.fromMap(Map.of("warehouse", warehouse.toString())));
    }

    @Override
    protected String format() {
        return "paimon";
    }

    private Catalog nativeCatalog() {
        return CatalogFactory.createCatalog(
                CatalogContext.create(
                        Options.fromMap(Map.of("warehouse", warehouse.toUri().toString()))));
    }

    @Override
    protected List<Map<String, Object>> readRows(TablePath path) throws Exception {
        try (Catalog catalog = nativeCatalog()) {
            return PaimonReads.readNamed(catalog, path);
        }
    }

    @Override
    protected void changeOutsideTributary(TablePath path, ExternalChange change) throws Exception {
        List<SchemaChange> changes =
                switch (change) {
                    case ADD_NULLABLE_COLUMN ->
                            List.of(SchemaChange.addColumn("note", DataTypes.STRING()));
                    case COMMENT_AND_OPTION ->
                            List.of(
                                    SchemaChange.updateColumnComment(
                                            "name", "set by another engine"),
                                    SchemaChange.setOption("snapshot.num-retained.min", "7"));
                    case MOVE_COLUMN ->
                            List.of(
                                    SchemaChange.updateColumnPosition(
                                            SchemaChange.Move.before("score", "name")));
                    case DROP_COLUMN -> List.of(SchemaChange.dropColumn("name"));
                    case RENAME_COLUMN -> List.of(SchemaChange.renameColumn("name", "title"));
                    case RETYPE_COLUMN ->
                            List.of(SchemaChange.updateColumnType("qty", DataTypes.BIGINT()));
                    case CHANGE_BUCKET_COUNT -> List.of(SchemaChange.setOption("bucket", "3"));
                };
        try (Catalog catalog = nativeCatalog()) {
            catalog.alterTable(Identifier.create(path.database(), path.table()), changes, false);
        }
    }
}
