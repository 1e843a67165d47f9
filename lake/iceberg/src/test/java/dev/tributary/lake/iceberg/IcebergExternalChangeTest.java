package dev.tributary.lake.iceberg;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.contract.LakeExternalChangeContractTest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;

/** Changes made to tiered tables with Iceberg's own table API. */
class IcebergExternalChangeTest extends LakeExternalChangeContractTest {

    @Override
    protected LakeStorage createStorage(Path warehouse) {
        return LakeStoragePlugins.find("iceberg")
                .createLakeStorage(
                        Configuration.fromMap(Map.of("warehouse", warehouse.toString())));
    }

    @Override
    protected String format() {
        return "iceberg";
    }

    private Table nativeTable(TablePath path) {
        Catalog catalog =
                CatalogUtil.buildIcebergCatalog(
                        "tributary",
                        Map.of(
                                CatalogProperties.WAREHOUSE_LOCATION,
                                warehouse.toUri().toString(),
                                CatalogUtil.ICEBERG_CATALOG_TYPE,
                                CatalogUtil.ICEBERG_CATALOG_TYPE_HADOOP),
                        new org.apache.hadoop.conf.Configuration());
        return catalog.loadTable(TableIdentifier.of(path.database(), path.table()));
    }

    @Override
    protected List<Map<String, Object>> readRows(TablePath path) throws Exception {
        return IcebergReads.readNamed(nativeTable(path));
    }

    @Override
    protected void changeOutsideTributary(TablePath path, ExternalChange change) {
        Table t = nativeTable(path);
        switch (change) {
            case ADD_NULLABLE_COLUMN ->
                    t.updateSchema().addColumn("note", Types.StringType.get()).commit();
            case COMMENT_AND_OPTION -> {
                t.updateSchema().updateColumnDoc("name", "set by another engine").commit();
                t.updateProperties().set("write.metadata.previous-versions-max", "50").commit();
            }
            case MOVE_COLUMN -> t.updateSchema().moveBefore("score", "name").commit();
            case DROP_COLUMN -> t.updateSchema().deleteColumn("name").commit();
            case RENAME_COLUMN -> t.updateSchema().renameColumn("name", "title").commit();
            case RETYPE_COLUMN ->
                    t.updateSchema().updateColumn("qty", Types.LongType.get()).commit();
            case CHANGE_BUCKET_COUNT ->
                    t.updateSpec()
                            .removeField("id_bucket")
                            .addField(Expressions.bucket("id", 3))
                            .commit();
        }
    }
}
