package dev.tributary.lake.paimon;

import dev.tributary.common.types.Column;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.catalog.LakeSystemColumns;
import dev.tributary.lake.api.write.AttemptFileNames;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.util.Map;

/** The Paimon table Tributary creates for a descriptor, and how an existing one differs. */
final class PaimonSchemas {
    private PaimonSchemas() {}

    /**
     * Native options of a Tributary-created table. PK tables: fixed buckets routed by Paimon's own
     * bucket function over the Tributary bucket key, deduplicate merge engine. Log tables:
     * bucket-unaware append table. The table itself is a normal Paimon table (other engines may
     * compact it); Tributary's writers run write-only, see {@link
     * #writerOptions(LakeWriterContext)}.
     */
    static Map<String, String> tableOptions(TableDescriptor table, Map<String, String> overrides) {
        Map<String, String> o = new java.util.LinkedHashMap<>();
        if (table.hasPrimaryKey()) {
            o.put("bucket", Integer.toString(table.bucketCount()));
            o.put("bucket-key", String.join(",", table.bucketKeys()));
            o.put("merge-engine", "deduplicate");
        } else {
            o.put("bucket", "-1");
        }
        o.putAll(overrides);
        return o;
    }

    /**
     * Dynamic options of Tributary's writers: write-only. Rows of one Paimon bucket may come from
     * several Tributary writers of the same round, and concurrent compactions of one bucket would
     * make the round's commit conflict; compaction is left to Paimon's own compaction job. The
     * committer is not write-only, so Paimon's snapshot expiration runs on commit.
     */
    static Map<String, String> writerOptions(LakeWriterContext context) {
        // the attempt in every file name lets the commit of a newer attempt delete what a dead
        // one left behind, at once and without touching other writers' files (T23)
        String prefix = "data-" + AttemptFileNames.tag(context) + "-";
        return Map.of(
                "write-only",
                "true",
                "data-file.prefix",
                prefix,
                "changelog-file.prefix",
                "changelog-" + AttemptFileNames.tag(context) + "-");
    }

    static org.apache.paimon.schema.Schema toPaimonSchema(
            TableDescriptor table, Map<String, String> overrides) {
        Schema lake = LakeSystemColumns.lakeSchemaOf(table.schema());
        org.apache.paimon.schema.Schema.Builder b = org.apache.paimon.schema.Schema.newBuilder();
        for (Column c : lake.columns()) {
            b.column(c.name(), PaimonTypes.toPaimon(c.type()), c.comment());
        }
        if (table.hasPrimaryKey()) {
            b.primaryKey(table.schema().primaryKey());
        }
        b.options(tableOptions(table, overrides));
        table.comment().ifPresent(b::comment);
        return b.build();
    }
}
