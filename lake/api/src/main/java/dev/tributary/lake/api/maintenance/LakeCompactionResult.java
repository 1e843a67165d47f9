package dev.tributary.lake.api.maintenance;

import dev.tributary.common.id.TablePath;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What one {@link LakeCompactor} rewrote: the grant it belongs to, statistics the coordinator can
 * read without the format plugin, and a format-native payload only the same format's {@link
 * LakeMaintainer} interprets. Ship it as bytes with {@link LakeCompactionResultSerializer}.
 *
 * @param format the format identifier
 * @param tablePath the table
 * @param tableId the Tributary table id
 * @param maintenanceId the grant's id
 * @param bucket the lake bucket
 * @param filesBefore files the compaction replaces (data and delete files)
 * @param bytesBefore their bytes
 * @param filesAfter files it wrote
 * @param bytesAfter their bytes
 * @param newFiles absolute paths/URIs of the files it wrote: what an abort deletes
 * @param payload format-native commit data; empty when nothing was rewritten
 */
public record LakeCompactionResult(
        String format,
        TablePath tablePath,
        long tableId,
        long maintenanceId,
        int bucket,
        int filesBefore,
        long bytesBefore,
        int filesAfter,
        long bytesAfter,
        List<String> newFiles,
        byte[] payload) {

    public LakeCompactionResult {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(tablePath, "tablePath");
        newFiles = List.copyOf(newFiles);
        payload = payload.clone();
    }

    /** A compaction that found nothing to rewrite. */
    public static LakeCompactionResult empty(
            String format, TablePath tablePath, long tableId, long maintenanceId, int bucket) {
        return new LakeCompactionResult(
                format,
                tablePath,
                tableId,
                maintenanceId,
                bucket,
                0,
                0,
                0,
                0,
                List.of(),
                new byte[0]);
    }

    /** True when nothing was rewritten: the result commits nothing. */
    public boolean isEmpty() {
        return payload.length == 0;
    }

    @Override
    public byte[] payload() {
        return payload.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LakeCompactionResult r
                && r.format.equals(format)
                && r.tablePath.equals(tablePath)
                && r.tableId == tableId
                && r.maintenanceId == maintenanceId
                && r.bucket == bucket
                && r.filesBefore == filesBefore
                && r.bytesBefore == bytesBefore
                && r.filesAfter == filesAfter
                && r.bytesAfter == bytesAfter
                && r.newFiles.equals(newFiles)
                && Arrays.equals(r.payload, payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tablePath, tableId, maintenanceId, bucket, Arrays.hashCode(payload));
    }

    @Override
    public String toString() {
        return "compaction of "
                + tablePath
                + " bucket "
                + bucket
                + " (table id "
                + tableId
                + ", maintenance "
                + maintenanceId
                + "): "
                + filesBefore
                + " files ("
                + bytesBefore
                + " bytes) -> "
                + filesAfter
                + " ("
                + bytesAfter
                + " bytes)";
    }
}
