package dev.tributary.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.io.BinaryWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** T55: the Iceberg payloads carry every field a commit needs, without Java serialization. */
class IcebergPayloadsTest {
    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "name", Types.StringType.get()),
                    Types.NestedField.optional(3, "score", Types.DoubleType.get()));
    private static final PartitionSpec UNPARTITIONED = PartitionSpec.unpartitioned();
    private static final PartitionSpec PARTITIONED =
            PartitionSpec.builderFor(SCHEMA).withSpecId(1).identity("name").bucket("id", 4).build();
    private static final Map<Integer, PartitionSpec> SPECS =
            Map.of(0, UNPARTITIONED, 1, PARTITIONED);

    @Test
    void t55_writeResultRoundTripsEveryFieldOfDataPositionAndEqualityDeleteFiles() {
        for (PartitionSpec spec : List.of(UNPARTITIONED, PARTITIONED)) {
            DataFile data = dataFile(spec, "data-1.parquet");
            DeleteFile positions =
                    FileMetadata.deleteFileBuilder(spec)
                            .ofPositionDeletes()
                            .withPath("/w/pos-1.parquet")
                            .withFormat(FileFormat.PARQUET)
                            .withPartitionPath(partitionPath(spec))
                            .withFileSizeInBytes(321)
                            .withMetrics(metrics(4))
                            .withReferencedDataFile(data.location())
                            .withSplitOffsets(List.of(4L))
                            .build();
            DeleteFile equality =
                    FileMetadata.deleteFileBuilder(spec)
                            .ofEqualityDeletes(1)
                            .withPath("/w/eq-1.parquet")
                            .withFormat(FileFormat.PARQUET)
                            .withPartitionPath(partitionPath(spec))
                            .withFileSizeInBytes(222)
                            .withMetrics(metrics(2))
                            .withSortOrder(org.apache.iceberg.SortOrder.unsorted())
                            .build();
            WriteResult in =
                    WriteResult.builder()
                            .addDataFiles(data, dataFile(spec, "data-2.parquet"))
                            .addDeleteFiles(positions, equality)
                            .addReferencedDataFiles(data.location())
                            .build();

            WriteResult out = IcebergWriteFiles.decode(IcebergWriteFiles.encode(in, SPECS), SPECS);
            // T48: the snapshot the writer found the retracted rows in travels with the files
            assertThat(
                            IcebergWriteFiles.decodePayload(
                                            IcebergWriteFiles.encode(in, 42L, SPECS), SPECS)
                                    .lakeBaseSnapshotId())
                    .isEqualTo(42L);
            assertThat(
                            IcebergWriteFiles.decodePayload(
                                            IcebergWriteFiles.encode(in, SPECS), SPECS)
                                    .lakeBaseSnapshotId())
                    .isNull();

            assertSameFiles(out.dataFiles(), in.dataFiles());
            assertSameFiles(out.deleteFiles(), in.deleteFiles());
            assertThat(List.of(out.referencedDataFiles()).toString())
                    .isEqualTo(List.of(in.referencedDataFiles()).toString());
            assertThat(out.rewrittenDeleteFiles()).isEmpty();
        }
    }

    @Test
    void t55_compactionRoundTripsItsBaseAndFiles() {
        DeleteFile removed =
                FileMetadata.deleteFileBuilder(PARTITIONED)
                        .ofEqualityDeletes(1, 2)
                        .withPath("/w/eq-old.parquet")
                        .withFormat(FileFormat.PARQUET)
                        .withPartitionPath(partitionPath(PARTITIONED))
                        .withFileSizeInBytes(10)
                        .withRecordCount(3)
                        .build();
        IcebergCompaction in =
                new IcebergCompaction(
                        -4_611_686_018_427_387_904L,
                        17,
                        List.of(
                                dataFile(PARTITIONED, "old-1.parquet"),
                                dataFile(PARTITIONED, "old-2.parquet")),
                        List.of(removed),
                        List.of(dataFile(PARTITIONED, "new-1.parquet")));

        IcebergCompaction out = IcebergCompaction.decode(in.encode(SPECS), SPECS);

        assertThat(out.baseSnapshotId()).isEqualTo(in.baseSnapshotId());
        assertThat(out.baseSequenceNumber()).isEqualTo(17);
        assertSameFiles(
                out.replaced().toArray(new DataFile[0]), in.replaced().toArray(new DataFile[0]));
        assertSameFiles(
                out.removedDeletes().toArray(new DeleteFile[0]),
                in.removedDeletes().toArray(new DeleteFile[0]));
        assertSameFiles(out.added().toArray(new DataFile[0]), in.added().toArray(new DataFile[0]));
    }

    @Test
    void t55_aJavaSerializedVersionOnePayloadIsRefusedUnreadWithAnUpgradeMessage() {
        Tripwire.instantiated = false;
        BinaryWriter w = new BinaryWriter();
        w.writeVarInt(1);
        w.writeLengthPrefixed(javaSerialized(new Tripwire()));
        byte[] old = w.toByteArray();

        for (Runnable decode :
                List.<Runnable>of(
                        () -> IcebergWriteFiles.decode(old, SPECS),
                        () -> IcebergCompaction.decode(old, SPECS))) {
            assertThatThrownBy(decode::run)
                    .isInstanceOf(CorruptDataException.class)
                    .hasMessageContaining("older than this server")
                    .hasMessageContaining("upgrade the tiering job");
        }
        assertThat(Tripwire.instantiated).isFalse();
    }

    @Test
    void t55_hugeCountsAndLengthsAreRefusedBeforeAllocating() {
        // a count of 2^31 - 1 files in a few bytes
        BinaryWriter count = new BinaryWriter();
        count.writeVarInt(IcebergWriteFiles.PAYLOAD_VERSION);
        count.writeVarInt(Integer.MAX_VALUE);
        assertThatThrownBy(() -> IcebergWriteFiles.decode(count.toByteArray(), SPECS))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("exceeds what the remaining");

        // one file whose JSON claims 2 GB
        BinaryWriter length = new BinaryWriter();
        length.writeVarInt(IcebergWriteFiles.PAYLOAD_VERSION);
        length.writeVarInt(1);
        length.writeVarInt(Integer.MAX_VALUE);
        length.writeByte('{');
        length.writeByte('}');
        assertThatThrownBy(() -> IcebergWriteFiles.decode(length.toByteArray(), SPECS))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("truncated");
    }

    @Test
    void t55_malformedFilesUnknownSpecsAndMisplacedContentAreCorruptData() {
        DataFile data = dataFile(PARTITIONED, "d.parquet");
        byte[] good =
                IcebergWriteFiles.encode(WriteResult.builder().addDataFiles(data).build(), SPECS);
        // the reading table has no spec 1
        assertThatThrownBy(() -> IcebergWriteFiles.decode(good, Map.of(0, UNPARTITIONED)))
                .isInstanceOf(CorruptDataException.class);
        // a data file where a delete file goes
        BinaryWriter w = new BinaryWriter();
        w.writeVarInt(IcebergWriteFiles.PAYLOAD_VERSION);
        w.writeVarInt(0);
        IcebergContentFiles.write(w, List.of(data), SPECS);
        w.writeVarInt(0);
        w.writeVarInt(0);
        assertThatThrownBy(() -> IcebergWriteFiles.decode(w.toByteArray(), SPECS))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("as a delete file");
        // not JSON, and trailing bytes
        BinaryWriter junk = new BinaryWriter();
        junk.writeVarInt(IcebergWriteFiles.PAYLOAD_VERSION);
        junk.writeVarInt(1);
        junk.writeString("{\"spec-id\": [}");
        assertThatThrownBy(() -> IcebergWriteFiles.decode(junk.toByteArray(), SPECS))
                .isInstanceOf(CorruptDataException.class);
        byte[] trailing = java.util.Arrays.copyOf(good, good.length + 1);
        assertThatThrownBy(() -> IcebergWriteFiles.decode(trailing, SPECS))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("trailing");
    }

    private static DataFile dataFile(PartitionSpec spec, String name) {
        return DataFiles.builder(spec)
                .withPath("/w/" + name)
                .withFormat(FileFormat.PARQUET)
                .withPartitionPath(partitionPath(spec))
                .withFileSizeInBytes(1234)
                .withMetrics(metrics(7))
                .withSplitOffsets(List.of(4L, 600L))
                .withSortOrder(org.apache.iceberg.SortOrder.unsorted())
                .withEncryptionKeyMetadata(ByteBuffer.wrap(new byte[] {1, 2, 3}))
                .build();
    }

    private static String partitionPath(PartitionSpec spec) {
        return spec.isPartitioned() ? "name=a%2Fb/id_bucket=3" : "";
    }

    private static Metrics metrics(long rows) {
        return new Metrics(
                rows,
                Map.of(1, 40L, 2, 50L, 3, 60L),
                Map.of(1, rows, 2, rows, 3, rows),
                Map.of(1, 0L, 2, 1L, 3, 2L),
                Map.of(3, 1L),
                Map.of(
                        1, Conversions.toByteBuffer(Types.LongType.get(), -5L),
                        2, Conversions.toByteBuffer(Types.StringType.get(), "aa")),
                Map.of(
                        1, Conversions.toByteBuffer(Types.LongType.get(), 99L),
                        2, Conversions.toByteBuffer(Types.StringType.get(), "zz")));
    }

    private static void assertSameFiles(ContentFile<?>[] actual, ContentFile<?>[] expected) {
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.length; i++) {
            assertThat(fields(actual[i])).isEqualTo(fields(expected[i]));
        }
    }

    private static List<Object> fields(ContentFile<?> f) {
        List<Object> out = new ArrayList<>();
        out.add(f.getClass());
        out.add(f.location());
        out.add(f.format());
        out.add(f.specId());
        out.add(f.content());
        List<Object> partition = new ArrayList<>();
        for (int i = 0; i < f.partition().size(); i++) {
            partition.add(f.partition().get(i, Object.class));
        }
        out.add(partition);
        out.add(f.recordCount());
        out.add(f.fileSizeInBytes());
        out.add(f.columnSizes());
        out.add(f.valueCounts());
        out.add(f.nullValueCounts());
        out.add(f.nanValueCounts());
        out.add(f.lowerBounds());
        out.add(f.upperBounds());
        out.add(f.splitOffsets());
        out.add(f.sortOrderId());
        out.add(f.keyMetadata());
        out.add(f.equalityFieldIds());
        if (f instanceof DeleteFile d) {
            out.add(d.referencedDataFile());
            out.add(d.contentOffset());
            out.add(d.contentSizeInBytes());
        }
        return out;
    }

    private static byte[] javaSerialized(Object o) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }

    /** Records whether Java deserialization ever ran on it. */
    static final class Tripwire implements Serializable {
        private static final long serialVersionUID = 1L;
        static volatile boolean instantiated;

        private void readObject(java.io.ObjectInputStream in)
                throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            instantiated = true;
        }
    }
}
