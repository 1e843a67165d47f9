package dev.tributary.lake.paimon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.io.BinaryWriter;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryArray;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.memory.MemorySegment;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.stats.SimpleStats;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.table.sink.StreamTableCommit;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.StreamWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T55: the Paimon payload (version 2) carries real Paimon commit messages of log and primary-key
 * tables, partitioned, and compaction results exactly, and refuses hostile payloads with a {@link
 * CorruptDataException} without allocating what they claim.
 */
class PaimonCommitMessagesTest {
    private static final long FEW_MB = 4L << 20;

    @TempDir Path warehouse;
    private Catalog catalog;

    @BeforeEach
    void open() throws Exception {
        catalog =
                CatalogFactory.createCatalog(
                        CatalogContext.create(
                                Options.fromMap(Map.of("warehouse", warehouse.toString()))));
        catalog.createDatabase("db", true);
    }

    @AfterEach
    void close() throws Exception {
        catalog.close();
    }

    @Test
    void t55_partitionedLogTableWritesAndCompactionsRoundTripAndCommit() throws Exception {
        FileStoreTable table =
                create(
                        "log",
                        Schema.newBuilder()
                                .column("id", DataTypes.BIGINT())
                                .column("name", DataTypes.STRING())
                                .column("price", DataTypes.DECIMAL(30, 4))
                                .column("at", DataTypes.TIMESTAMP(6))
                                .column("tags", DataTypes.ARRAY(DataTypes.STRING()))
                                .column("dt", DataTypes.STRING())
                                .partitionKeys("dt")
                                .option("bucket", "2")
                                .option("bucket-key", "id"));
        List<CommitMessage> all = new ArrayList<>();
        StreamWriteBuilder builder = table.newStreamWriteBuilder();
        try (StreamTableWrite w = builder.newWrite();
                StreamTableCommit c = builder.newCommit()) {
            for (long round = 1; round <= 3; round++) {
                for (long i = 0; i < 20; i++) {
                    w.write(logRow(round * 100 + i, i % 2 == 0 ? "2024-01-01" : "2024-01-02"));
                }
                all.addAll(commitThroughPayload(table, c, round, w.prepareCommit(false, round)));
            }
            for (String dt : List.of("2024-01-01", "2024-01-02")) {
                for (int bucket = 0; bucket < 2; bucket++) {
                    w.compact(partition(dt), bucket, true);
                }
            }
            List<CommitMessage> compacted =
                    commitThroughPayload(table, c, 4, w.prepareCommit(true, 4));
            assertThat(compacted)
                    .anySatisfy(
                            m ->
                                    assertThat(
                                                    ((CommitMessageImpl) m)
                                                            .compactIncrement()
                                                            .compactAfter())
                                            .isNotEmpty());
            all.addAll(compacted);
        }
        assertThat(all).isNotEmpty();
        assertThat(count(table)).isEqualTo(60);
    }

    @Test
    void t55_partitionedPrimaryKeyTableWithDeletionVectorsRoundTripsAndCommits() throws Exception {
        FileStoreTable table =
                create(
                        "pk",
                        Schema.newBuilder()
                                .column("dt", DataTypes.STRING())
                                .column("id", DataTypes.STRING())
                                .column("v", DataTypes.BIGINT())
                                .column("price", DataTypes.DECIMAL(25, 2))
                                .partitionKeys("dt")
                                .primaryKey("dt", "id")
                                .option("bucket", "2")
                                .option("deletion-vectors.enabled", "true")
                                .option("compaction.max-size-amplification-percent", "100000"));
        List<CommitMessage> all = new ArrayList<>();
        StreamWriteBuilder builder = table.newStreamWriteBuilder();
        try (StreamTableWrite w =
                        (StreamTableWrite)
                                builder.newWrite()
                                        .withIOManager(
                                                IOManager.create(
                                                        warehouse.resolve("io").toString()));
                StreamTableCommit c = builder.newCommit()) {
            for (long round = 1; round <= 4; round++) {
                for (int i = 0; i < 30; i++) {
                    // keys longer than 7 bytes live in the rows' variable-length part
                    w.write(
                            GenericRow.of(
                                    BinaryString.fromString(i % 3 == 0 ? "2024-01-01" : "x"),
                                    BinaryString.fromString("key-number-" + i),
                                    round * 1000 + i,
                                    Decimal.fromBigDecimal(new BigDecimal(i + ".25"), 25, 2)));
                }
                all.addAll(
                        commitThroughPayload(
                                table, c, round * 10, w.prepareCommit(false, round * 10)));
                // round 2: everything to the top level; round 3: its level-0 file up a level
                // alone, so the rows it replaces in the top level get deletion vectors
                if (round == 2 || round == 3) {
                    for (String dt : List.of("2024-01-01", "x")) {
                        for (int bucket = 0; bucket < 2; bucket++) {
                            w.compact(partition(dt), bucket, round == 2);
                        }
                    }
                    all.addAll(
                            commitThroughPayload(
                                    table,
                                    c,
                                    round * 10 + 5,
                                    w.prepareCommit(true, round * 10 + 5)));
                }
            }
        }
        List<DataFileMeta> files = new ArrayList<>();
        for (CommitMessage m : all) {
            CommitMessageImpl msg = (CommitMessageImpl) m;
            files.addAll(msg.newFilesIncrement().newFiles());
            files.addAll(msg.compactIncrement().compactAfter());
        }
        assertThat(files).anySatisfy(f -> assertThat(f.level()).isPositive());
        assertThat(files).allSatisfy(f -> assertThat(f.minKey().getFieldCount()).isEqualTo(1));
        assertThat(count(table)).isEqualTo(30);
    }

    @Test
    void t55_deletionVectorIndexFilesRoundTrip() throws Exception {
        FileStoreTable table = create("dv", logSchema());
        java.util.LinkedHashMap<String, org.apache.paimon.index.DeletionVectorMeta> ranges =
                new java.util.LinkedHashMap<>();
        ranges.put(
                "data-1.parquet",
                new org.apache.paimon.index.DeletionVectorMeta("data-1.parquet", 1, 40, 7L));
        ranges.put(
                "data-2.parquet",
                new org.apache.paimon.index.DeletionVectorMeta("data-2.parquet", 41, 9, null));
        org.apache.paimon.index.IndexFileMeta dv =
                new org.apache.paimon.index.IndexFileMeta(
                        "DELETION_VECTORS", "index-1", 50, 2, ranges, null);
        CommitMessageImpl real = (CommitMessageImpl) realMessages(table).get(0);
        CommitMessage withDv =
                new CommitMessageImpl(
                        real.partition(),
                        real.bucket(),
                        real.totalBuckets(),
                        real.newFilesIncrement(),
                        new org.apache.paimon.io.CompactIncrement(
                                List.of(), List.of(), List.of(), List.of(dv), List.of(dv)));
        List<CommitMessage> back =
                PaimonCommitMessages.decode(PaimonCommitMessages.encode(List.of(withDv)), table);
        assertThat(back).containsExactly(withDv);
        assertThat(
                        ((CommitMessageImpl) back.get(0))
                                .compactIncrement()
                                .newIndexFiles()
                                .get(0)
                                .dvRanges())
                .containsExactlyEntriesOf(ranges);
    }

    @Test
    void t55_aPaimonSerializedVersionOnePayloadIsRefusedUnread() throws Exception {
        FileStoreTable table = create("v1", logSchema());
        BinaryWriter v1 = new BinaryWriter();
        v1.writeVarInt(1);
        v1.writeVarInt(9);
        v1.writeVarInt(1);
        v1.writeVarInt(Integer.MAX_VALUE);
        assertThatThrownBy(() -> PaimonCommitMessages.decode(v1.toByteArray(), table))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("older than this server, which does not read it")
                .hasMessageContaining("upgrade the tiering job");
        assertThatThrownBy(() -> PaimonCommitMessages.decode(new byte[] {3}, table))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("version 3 is not supported");
    }

    @Test
    void t55_hostileCountsAndLengthsAreRefusedWithoutAllocatingWhatTheyClaim() throws Exception {
        FileStoreTable table = create("hostile", logSchema());
        byte[] real = realPayload(table);
        PaimonCommitMessages.decode(real, table); // load every class before measuring

        BinaryWriter count = new BinaryWriter();
        count.writeVarInt(2);
        count.writeVarInt(Integer.MAX_VALUE);
        assertRefused(table, count.toByteArray(), "exceeds what the remaining");

        BinaryWriter rowLength = new BinaryWriter();
        rowLength.writeVarInt(2);
        rowLength.writeVarInt(1);
        rowLength.writeVarInt(1);
        rowLength.writeVarInt(Integer.MAX_VALUE);
        assertRefused(table, rowLength.toByteArray(), "truncated");

        BinaryWriter arity = new BinaryWriter();
        arity.writeVarInt(2);
        arity.writeVarInt(1);
        arity.writeVarInt(Integer.MAX_VALUE);
        arity.writeLengthPrefixed(new byte[16]);
        assertRefused(table, arity.toByteArray(), "partition has 2147483647 fields");

        // every file list of a real message claiming 2^31 - 1 files
        assertRefused(
                table, encodeWith(table, m -> m, Integer.MAX_VALUE), "exceeds what the remaining");
    }

    @Test
    void t55_rowsAndArraysWhoseSizesOrOffsetsLieAreRefusedBeforePaimonReadsThem() throws Exception {
        FileStoreTable table = create("rows", logSchema());
        PaimonCommitMessages.decode(realPayload(table), table);

        // a null-count array claiming 2^31 - 1 and -2^31 elements
        for (int claimed : new int[] {Integer.MAX_VALUE, Integer.MIN_VALUE}) {
            assertRefused(
                    table,
                    encodeWith(table, withValueStats(s -> nullCountsClaiming(s, claimed)), -1),
                    "null counts of value stats of");
        }
        // the partition's string field pointing outside the row, and a 2 GB length
        assertRefused(
                table,
                encodeWith(table, withPartitionSlot(((long) 4096 << 32) | 20), -1),
                "outside its");
        assertRefused(
                table,
                encodeWith(table, withPartitionSlot((16L << 32) | Integer.MAX_VALUE), -1),
                "outside its");
        // a stats row shorter than its fixed-length part
        assertRefused(
                table,
                encodeWith(
                        table,
                        withValueStats(
                                s ->
                                        new SimpleStats(
                                                rowOf(s.minValues().getFieldCount(), new byte[8]),
                                                s.maxValues(),
                                                s.nullCounts())),
                        -1),
                "shorter than the");
        // a file name that leaves the bucket directory
        assertRefused(
                table,
                encodeWith(table, m -> rewriteFiles(m, f -> f.rename("../../../etc/passwd")), -1),
                "is not a plain file name");
    }

    // ---- helpers

    private FileStoreTable create(String name, Schema.Builder schema) throws Exception {
        Identifier id = Identifier.create("db", name);
        catalog.createTable(id, schema.build(), false);
        return (FileStoreTable) catalog.getTable(id);
    }

    private static Schema.Builder logSchema() {
        return Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("name", DataTypes.STRING())
                .column("dt", DataTypes.STRING())
                .partitionKeys("dt")
                .option("bucket", "1")
                .option("bucket-key", "id");
    }

    private static GenericRow logRow(long id, String dt) {
        return GenericRow.of(
                id,
                BinaryString.fromString("name with more than seven bytes " + id),
                Decimal.fromBigDecimal(new BigDecimal(id + ".1234"), 30, 4),
                Timestamp.fromEpochMillis(1_700_000_000_000L + id, 123_456),
                new org.apache.paimon.data.GenericArray(
                        new Object[] {BinaryString.fromString("a"), null}),
                BinaryString.fromString(dt));
    }

    /**
     * Ships Paimon's messages through the payload and commits what came out: the decoded messages
     * equal the written ones, field by field, and Paimon accepts them.
     */
    private static List<CommitMessage> commitThroughPayload(
            FileStoreTable table, StreamTableCommit commit, long id, List<CommitMessage> written) {
        byte[] payload = PaimonCommitMessages.encode(written);
        List<CommitMessage> decoded = PaimonCommitMessages.decode(payload, table);
        assertThat(decoded).isEqualTo(written);
        assertThat(decoded.toString()).isEqualTo(written.toString());
        assertThat(PaimonCommitMessages.encode(decoded)).isEqualTo(payload);
        commit.commit(id, decoded);
        return decoded;
    }

    private static long count(FileStoreTable table) throws Exception {
        ReadBuilder rb = table.newReadBuilder();
        long[] n = {0};
        try (RecordReader<org.apache.paimon.data.InternalRow> r =
                rb.newRead().createReader(rb.newScan().plan().splits())) {
            r.forEachRemaining(row -> n[0]++);
        }
        return n[0];
    }

    private static BinaryRow partition(String dt) {
        BinaryRow row = new BinaryRow(1);
        org.apache.paimon.data.BinaryRowWriter w = new org.apache.paimon.data.BinaryRowWriter(row);
        w.writeString(0, BinaryString.fromString(dt));
        w.complete();
        return row;
    }

    private static List<CommitMessage> realMessages(FileStoreTable table) throws Exception {
        StreamWriteBuilder builder = table.newStreamWriteBuilder();
        try (StreamTableWrite w = builder.newWrite()) {
            for (long i = 0; i < 5; i++) {
                w.write(
                        GenericRow.of(
                                i,
                                BinaryString.fromString("n" + i),
                                BinaryString.fromString("partition-2024-01-01")));
            }
            return w.prepareCommit(false, 1);
        }
    }

    private static byte[] realPayload(FileStoreTable table) throws Exception {
        return PaimonCommitMessages.encode(realMessages(table));
    }

    /**
     * A real message rewritten by {@code change}, encoded by the production encoder; with {@code
     * fileCount} at least 0, the new-files count of the payload is then patched to it.
     */
    private static byte[] encodeWith(
            FileStoreTable table, UnaryOperator<CommitMessage> change, int fileCount)
            throws Exception {
        List<CommitMessage> messages = realMessages(table);
        assertThat(messages).hasSize(1);
        CommitMessage changed = change.apply(messages.get(0));
        byte[] payload = PaimonCommitMessages.encode(List.of(changed));
        if (fileCount < 0) {
            return payload;
        }
        // version, count, partition arity, partition bytes, bucket, no total buckets -> new files
        CommitMessageImpl m = (CommitMessageImpl) changed;
        BinaryWriter head = new BinaryWriter();
        head.writeVarInt(PaimonCommitMessages.PAYLOAD_VERSION);
        head.writeVarInt(1);
        PaimonFileMetas.writeRow(head, m.partition());
        head.writeSignedVarLong(m.bucket());
        head.writeByte(m.totalBuckets() == null ? 0 : 1);
        if (m.totalBuckets() != null) {
            head.writeSignedVarLong(m.totalBuckets());
        }
        head.writeVarInt(fileCount);
        byte[] prefix = head.toByteArray();
        BinaryWriter out = new BinaryWriter();
        out.writeBytes(prefix, 0, prefix.length);
        int rest = prefix.length; // the original count is one byte: a single file
        out.writeBytes(payload, rest, payload.length - rest);
        return out.toByteArray();
    }

    private static UnaryOperator<CommitMessage> withValueStats(UnaryOperator<SimpleStats> change) {
        return m ->
                rewriteFiles(
                        m,
                        f ->
                                DataFileMeta.create(
                                        f.fileName(),
                                        f.fileSize(),
                                        f.rowCount(),
                                        f.minKey(),
                                        f.maxKey(),
                                        f.keyStats(),
                                        change.apply(f.valueStats()),
                                        f.minSequenceNumber(),
                                        f.maxSequenceNumber(),
                                        f.schemaId(),
                                        f.level(),
                                        f.extraFiles(),
                                        f.creationTime(),
                                        f.deleteRowCount().orElse(null),
                                        f.embeddedIndex(),
                                        f.fileSource().orElse(null),
                                        f.valueStatsCols(),
                                        f.externalPath().orElse(null),
                                        f.firstRowId(),
                                        f.writeCols()));
    }

    private static CommitMessage rewriteFiles(CommitMessage m, UnaryOperator<DataFileMeta> change) {
        CommitMessageImpl msg = (CommitMessageImpl) m;
        DataIncrement d = msg.newFilesIncrement();
        return new CommitMessageImpl(
                msg.partition(),
                msg.bucket(),
                msg.totalBuckets(),
                new DataIncrement(
                        d.newFiles().stream().map(change).toList(),
                        d.deletedFiles(),
                        d.changelogFiles(),
                        d.newIndexFiles(),
                        d.deletedIndexFiles()),
                msg.compactIncrement());
    }

    private static SimpleStats nullCountsClaiming(SimpleStats s, int claimed) {
        BinaryArray real = s.nullCounts();
        byte[] bytes =
                org.apache.paimon.memory.MemorySegmentUtils.copyToBytes(
                        real.getSegments(), real.getOffset(), real.getSizeInBytes());
        BinaryArray hostile = new BinaryArray();
        hostile.pointTo(MemorySegment.wrap(bytes), 0, bytes.length);
        // after pointTo, which asserts a sane size: the encoder copies the bytes as they are
        ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).putInt(0, claimed);
        return new SimpleStats(s.minValues(), s.maxValues(), hostile);
    }

    /** The partition's one (string) field slot replaced by {@code slot}. */
    private static UnaryOperator<CommitMessage> withPartitionSlot(long slot) {
        return m -> {
            CommitMessageImpl msg = (CommitMessageImpl) m;
            BinaryRow p = msg.partition();
            byte[] bytes =
                    org.apache.paimon.memory.MemorySegmentUtils.copyToBytes(
                            p.getSegments(), p.getOffset(), p.getSizeInBytes());
            ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).putLong(8, slot);
            return new CommitMessageImpl(
                    rowOf(1, bytes),
                    msg.bucket(),
                    msg.totalBuckets(),
                    msg.newFilesIncrement(),
                    msg.compactIncrement());
        };
    }

    private static BinaryRow rowOf(int arity, byte[] bytes) {
        BinaryRow row = new BinaryRow(arity);
        row.pointTo(MemorySegment.wrap(bytes), 0, bytes.length);
        return row;
    }

    private static void assertRefused(FileStoreTable table, byte[] payload, String message) {
        long before = allocatedBytes();
        Throwable thrown = null;
        try {
            PaimonCommitMessages.decode(payload, table);
        } catch (Throwable t) {
            thrown = t;
        }
        long allocated = allocatedBytes() - before;
        assertThat(thrown).isInstanceOf(CorruptDataException.class).hasMessageContaining(message);
        assertThat(allocated).as("bytes allocated refusing the payload").isLessThan(FEW_MB);
    }

    private static long allocatedBytes() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        return threads.getThreadAllocatedBytes(Thread.currentThread().getId());
    }
}
