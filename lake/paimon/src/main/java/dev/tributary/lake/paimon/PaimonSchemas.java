package dev.tributary.lake.paimon;

import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.row.BucketFunctionType;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.catalog.LakeSystemColumns;
import dev.tributary.lake.api.maintenance.CompactionTask;
import dev.tributary.lake.api.write.AttemptFileNames;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.util.List;
import java.util.Map;
import org.apache.paimon.table.FileStoreTable;

/** The Paimon table Tributary creates for a descriptor, and how an existing one differs. */
final class PaimonSchemas {
    private PaimonSchemas() {}

    /**
     * Options that decide which Paimon bucket a row lands in. Tributary sets them so that Paimon
     * bucket b is store bucket b (T36); an override would silently break that, so {@link
     * #checkOverrides} refuses them.
     */
    static final List<String> LAYOUT_OPTIONS =
            List.of("bucket", "bucket-key", "bucket-function.type");

    /**
     * Native options of a Tributary-created table. A table with a bucket key (every PK table, and
     * log tables that have one) gets fixed buckets: {@code bucket} = the Tributary bucket count,
     * {@code bucket-key} = the Tributary bucket key, Paimon's default bucket function. A table
     * created with {@code table.bucket.function=paimon} then has store bucket b = Paimon bucket b,
     * so a split writes one Paimon bucket and point reads prune by bucket (T36, T37); a table with
     * another function still lands correctly (Paimon's writer routes each row itself), with each
     * split writing into many buckets. PK tables use the deduplicate merge engine. A log table
     * without a bucket key is a bucket-unaware append table. A PK table with {@code
     * table.datalake.pk-deletes=position} (the default) and Paimon's bucket function gets deletion
     * vectors, so engines read it without a merge by key (T48); a pass-through option wins, but
     * deletion vectors need Paimon's bucket function ({@link #roundsCompact}). The table itself is
     * a normal Paimon table (other engines may compact it); Tributary's writers run write-only, see
     * {@link #writerOptions(LakeWriterContext)}.
     */
    static Map<String, String> tableOptions(TableDescriptor table, Map<String, String> overrides) {
        checkOverrides(overrides);
        Map<String, String> o = new java.util.LinkedHashMap<>();
        if (!table.bucketKeys().isEmpty()) {
            o.put("bucket", Integer.toString(table.bucketCount()));
            o.put("bucket-key", String.join(",", table.bucketKeys()));
        } else {
            o.put("bucket", "-1");
        }
        if (table.hasPrimaryKey()) {
            o.put("merge-engine", "deduplicate");
            if (positionDeletes(table) && alignedByDescriptor(table)) {
                o.put(DELETION_VECTORS, "true");
            }
        }
        o.putAll(overrides);
        if (table.hasPrimaryKey()
                && Boolean.parseBoolean(o.get(DELETION_VECTORS))
                && !alignedByDescriptor(table)) {
            throw new InvalidConfigException(
                    "Paimon option '"
                            + DELETION_VECTORS
                            + "' needs table.bucket.function=paimon on primary-key tables: with"
                            + " another bucket function several writers of a round fill one Paimon"
                            + " bucket, and each would compute the bucket's deletion vectors"
                            + " without the others' rows; remove the option or create the table"
                            + " with table.bucket.function=paimon");
        }
        return o;
    }

    /** Paimon's table option that turns deletion vectors on. */
    static final String DELETION_VECTORS = "deletion-vectors.enabled";

    /** Whether the table asks for position deletes in the lake (T48; the default). */
    static boolean positionDeletes(TableDescriptor table) {
        return TableOptions.DATALAKE_PK_DELETES.parse(
                        table.properties().get(TableOptions.DATALAKE_PK_DELETES.key()))
                == TableOptions.PkDeleteMode.POSITION;
    }

    /**
     * Whether the descriptor alone makes store bucket b Paimon bucket b (Paimon's bucket function
     * over a bucket key), so that each Paimon bucket has one writer per round.
     */
    private static boolean alignedByDescriptor(TableDescriptor table) {
        return BucketFunctionType.of(table) == BucketFunctionType.PAIMON
                && !table.bucketKeys().isEmpty();
    }

    /**
     * Whether rounds into {@code lake} keep its deletion vectors themselves (T48): a primary-key
     * table with deletion vectors whose every Paimon bucket has one writer per round. Such a
     * round's writer compacts its level-0 files up before the round commits (Paimon's lookup
     * compaction writes the deletion vectors), because Paimon's readers skip level 0 of a table
     * with deletion vectors. Other deletion-vector tables (another bucket function, only possible
     * for tables another engine created) keep write-only rounds whose rows readers see after a
     * compaction.
     */
    static boolean roundsCompact(TableDescriptor table, FileStoreTable lake) {
        return !lake.primaryKeys().isEmpty()
                && lake.coreOptions().deletionVectorsEnabled()
                && bucketsAligned(table, lake);
    }

    /**
     * Whether store bucket b is Paimon bucket b for {@code table}: the Tributary table uses
     * Paimon's bucket function over the same bucket key and count as the Paimon table (T36), so one
     * Tributary bucket's rows, and only they, fill one Paimon bucket.
     */
    static boolean bucketsAligned(TableDescriptor table, FileStoreTable lake) {
        return BucketFunctionType.of(table) == BucketFunctionType.PAIMON
                && !table.bucketKeys().isEmpty()
                && lake.coreOptions().bucket() == table.bucketCount()
                && String.join(",", table.bucketKeys()).equals(lake.options().get("bucket-key"));
    }

    static void checkOverrides(Map<String, String> overrides) {
        for (String key : LAYOUT_OPTIONS) {
            if (overrides.containsKey(key)) {
                throw new InvalidConfigException(
                        "Paimon table option '"
                                + key
                                + "' (datalake.paimon.table."
                                + key
                                + " or table.datalake.paimon."
                                + key
                                + ") cannot be set: Tributary sets the bucket layout of its Paimon"
                                + " tables from each table's bucket count and bucket key, so that"
                                + " a Tributary bucket is a Paimon bucket; remove the option");
            }
        }
    }

    /**
     * Dynamic options of Tributary's writers: write-only (no compaction). Still needed with
     * lake-aligned buckets: a bucket of a log table cut into several splits (T5) and every bucket
     * of a table whose bucket function is not Paimon's get rows from several writers of one round,
     * and concurrent compactions of one bucket make the round's commit conflict; and compacting
     * inside a round would make rounds slower and fail them on conflicts with other engines'
     * compactions. Compaction is its own maintenance step (T38, {@link #compactionOptions}). Except
     * for deletion-vector tables ({@link #roundsCompact}): their readers skip level 0, so such a
     * round compacts its own level-0 files before it commits. And no Parquet dictionary on columns
     * unique per file ({@link #noDictionaryOptions}).
     */
    static Map<String, String> writerOptions(LakeWriterContext context, FileStoreTable table) {
        // the attempt in every file name lets the commit of a newer attempt delete what a dead
        // one left behind, at once and without touching other writers' files (T23)
        String prefix = "data-" + AttemptFileNames.tag(context) + "-";
        Map<String, String> o = new java.util.LinkedHashMap<>();
        // a deletion-vector round compacts its own level-0 files (see roundsCompact)
        o.put("write-only", Boolean.toString(!roundsCompact(context.table(), table)));
        o.put("data-file.prefix", prefix);
        o.put("changelog-file.prefix", "changelog-" + AttemptFileNames.tag(context) + "-");
        o.putAll(noDictionaryOptions(table));
        return o;
    }

    /**
     * Columns whose values are unique, or nearly, in every data file Tributary writes: the log
     * offset, the log timestamp (milliseconds of a changelog range), Paimon's sequence number in a
     * primary-key table's files and, when the primary key without the partition columns is one
     * column, that column and its key copy ({@code _KEY_<column>}): a primary-key file holds each
     * key once. A Parquet dictionary over them never pays: the writer fills one for a page, finds
     * that it does not compress and falls back to plain pages, having paid for the attempt.
     */
    static List<String> uniqueColumns(FileStoreTable table) {
        List<String> out = new java.util.ArrayList<>();
        out.add(LakeSystemColumns.OFFSET);
        out.add(LakeSystemColumns.TIMESTAMP);
        if (!table.primaryKeys().isEmpty()) {
            out.add("_SEQUENCE_NUMBER");
            List<String> key = table.schema().trimmedPrimaryKeys();
            if (key.size() == 1) {
                out.add(key.get(0));
                out.add("_KEY_" + key.get(0));
            }
        }
        return out;
    }

    /**
     * Per-column Parquet options (Paimon hands {@code parquet.*} table options to parquet-java,
     * which reads {@code parquet.enable.dictionary#<column>}) that turn the dictionary off for
     * {@link #uniqueColumns}; a column the table's own options already configure keeps its setting.
     * Other file formats ignore them.
     */
    static Map<String, String> noDictionaryOptions(FileStoreTable table) {
        Map<String, String> o = new java.util.LinkedHashMap<>();
        for (String column : uniqueColumns(table)) {
            String key = "parquet.enable.dictionary#" + column;
            if (!table.options().containsKey(key)) {
                o.put(key, "false");
            }
        }
        return o;
    }

    /**
     * Dynamic option of Tributary's commits: Paimon would otherwise expire snapshots (by its own
     * defaults, not Tributary's retention) and maybe the newest tiering snapshot's predecessors
     * inside every commit, on the tiering commit's critical path. Tributary's maintenance expires
     * them instead (T39).
     */
    static final Map<String, String> WRITE_ONLY = Map.of("write-only", "true");

    /**
     * Dynamic options of a compaction of grant {@code task} (T38): a writer that compacts, whose
     * files carry the grant's tag ({@link AttemptFileNames#maintenanceTag}), and Paimon's own
     * compaction triggers set to the table's {@code max-files}: a PK bucket keeps at most that many
     * sorted runs (universal compaction), an append bucket merges its small files.
     */
    static Map<String, String> compactionOptions(CompactionTask task, FileStoreTable table) {
        String tag = AttemptFileNames.maintenanceTag(task.tableId(), task.maintenanceId());
        Map<String, String> o = new java.util.LinkedHashMap<>();
        o.put("write-only", "false");
        o.put("data-file.prefix", "data-" + tag + "-");
        o.put("changelog-file.prefix", "changelog-" + tag + "-");
        o.put("num-sorted-run.compaction-trigger", Integer.toString(task.maxFiles()));
        o.put("compaction.min.file-num", Integer.toString(Math.max(2, task.maxFiles())));
        o.putAll(noDictionaryOptions(table));
        return o;
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
        // the same partition columns as the Tributary table (T32); fixed buckets per partition
        b.partitionKeys(table.partitionKeys());
        b.options(tableOptions(table, overrides));
        table.comment().ifPresent(b::comment);
        return b.build();
    }
}
