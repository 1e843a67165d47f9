package dev.tributary.lake.api.commit;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TableBucket;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a tiering snapshot records about its round (T21, T32), so the lake alone can rebuild the
 * coordinator's record.
 *
 * @param tableId the Tributary table id
 * @param epoch the tiering epoch of the round (only grows per table)
 * @param roundId the round id
 * @param commitUser who committed (Paimon's commit user; an Iceberg summary property)
 * @param offsets the tiered offset of every (partition, bucket) after this round: the next offset
 *     to tier, for ALL buckets of the table that were ever tiered (of the partitions that still
 *     exist), not only the buckets of this round. An unpartitioned table's buckets have partition
 *     id {@link TableBucket#NO_PARTITION}
 * @param partitionNames the name ({@code dt=2026-12-01}) of every partition in {@code offsets}
 * @param committedAtMillis the coordinator's clock when it started the commit, -1 if not known; an
 *     adopted snapshot (T21) resumes the table's freshness cadence from here, on the coordinator's
 *     own clock rather than the lake's
 * @param extra free-form additional properties (keys without the {@code tributary.} prefix)
 */
public record TieringSnapshotProperties(
        long tableId,
        long epoch,
        long roundId,
        String commitUser,
        SortedMap<PartitionBucket, Long> offsets,
        SortedMap<Long, String> partitionNames,
        long committedAtMillis,
        Map<String, String> extra) {

    /** Prefix of every property Tributary writes into a snapshot. */
    public static final String PREFIX = "tributary.";

    public static final String TABLE_ID = PREFIX + "table-id";
    public static final String EPOCH = PREFIX + "epoch";
    public static final String ROUND_ID = PREFIX + "round-id";
    public static final String COMMIT_USER = PREFIX + "commit-user";
    public static final String COMMITTED_AT = PREFIX + "committed-at";

    /**
     * An unpartitioned table's offsets: {@code bucket=offset} pairs separated by commas, ascending
     * by bucket: {@code 0=12,1=40}.
     */
    public static final String BUCKET_OFFSETS = PREFIX + "bucket-offsets";

    /**
     * A partitioned table's offsets and partition names, in the compact form of {@code
     * PartitionOffsetsCodec} (bit-packed per partition, deflated, Base64): about 45 KB for 1,000
     * partitions x 16 buckets of hashed rows (70 KB when every offset is unrelated), a sixth of the
     * same offsets and names as plain text (PartitionOffsetsPropertiesTest prints both).
     */
    public static final String PARTITION_OFFSETS = PREFIX + "partition-offsets";

    private static final String EXTRA_PREFIX = PREFIX + "x.";
    private static final String LEGACY_COMMITTED_AT = "committed-at";

    public TieringSnapshotProperties {
        Objects.requireNonNull(commitUser, "commitUser");
        offsets = Collections.unmodifiableSortedMap(new TreeMap<>(offsets));
        partitionNames = Collections.unmodifiableSortedMap(new TreeMap<>(partitionNames));
        extra = Map.copyOf(extra);
    }

    /** Properties of an unpartitioned table's round. */
    public TieringSnapshotProperties(
            long tableId,
            long epoch,
            long roundId,
            String commitUser,
            Map<Integer, Long> bucketOffsets,
            long committedAtMillis,
            Map<String, String> extra) {
        this(
                tableId,
                epoch,
                roundId,
                commitUser,
                keyed(bucketOffsets),
                new TreeMap<>(),
                committedAtMillis,
                extra);
    }

    /** Properties with the default commit user, no commit time and no extras. */
    public static TieringSnapshotProperties of(
            long tableId, long epoch, long roundId, Map<Integer, Long> bucketOffsets) {
        return of(tableId, epoch, roundId, bucketOffsets, -1);
    }

    /** Properties of an unpartitioned table with the default commit user and no extras. */
    public static TieringSnapshotProperties of(
            long tableId,
            long epoch,
            long roundId,
            Map<Integer, Long> bucketOffsets,
            long committedAtMillis) {
        return of(tableId, epoch, roundId, keyed(bucketOffsets), Map.of(), committedAtMillis);
    }

    /** Properties with the default commit user and no extras (any table). */
    public static TieringSnapshotProperties of(
            long tableId,
            long epoch,
            long roundId,
            SortedMap<PartitionBucket, Long> offsets,
            Map<Long, String> partitionNames,
            long committedAtMillis) {
        return new TieringSnapshotProperties(
                tableId,
                epoch,
                roundId,
                LakeCommitter.DEFAULT_COMMIT_USER,
                offsets,
                new TreeMap<>(partitionNames),
                committedAtMillis,
                Map.of());
    }

    private static SortedMap<PartitionBucket, Long> keyed(Map<Integer, Long> bucketOffsets) {
        SortedMap<PartitionBucket, Long> out = new TreeMap<>();
        bucketOffsets.forEach((b, o) -> out.put(PartitionBucket.of(b), o));
        return out;
    }

    /** The tiered offsets of an unpartitioned table's buckets (empty for a partitioned table). */
    public SortedMap<Integer, Long> bucketOffsets() {
        SortedMap<Integer, Long> out = new TreeMap<>();
        offsets.forEach(
                (pb, o) -> {
                    if (!pb.isPartitioned()) {
                        out.put(pb.bucket(), o);
                    }
                });
        return Collections.unmodifiableSortedMap(out);
    }

    /** The tiered offsets of one partition's buckets. */
    public SortedMap<Integer, Long> partitionOffsets(long partitionId) {
        SortedMap<Integer, Long> out = new TreeMap<>();
        offsets.subMap(new PartitionBucket(partitionId, 0), new PartitionBucket(partitionId + 1, 0))
                .forEach((pb, o) -> out.put(pb.bucket(), o));
        return Collections.unmodifiableSortedMap(out);
    }

    /** True when both were written by tiering of the same Tributary table. */
    public boolean sameTable(TieringSnapshotProperties other) {
        return other.tableId == tableId;
    }

    /** True when both describe the same round attempt (table id, epoch, round id). */
    public boolean sameRound(TieringSnapshotProperties other) {
        return other.tableId == tableId && other.epoch == epoch && other.roundId == roundId;
    }

    /** The string properties written into the lake snapshot. */
    public Map<String, String> toProperties() {
        Map<String, String> out = new LinkedHashMap<>();
        out.put(TABLE_ID, Long.toString(tableId));
        out.put(EPOCH, Long.toString(epoch));
        out.put(ROUND_ID, Long.toString(roundId));
        out.put(COMMIT_USER, commitUser);
        StringBuilder sb = new StringBuilder();
        SortedMap<PartitionBucket, Long> partitioned = new TreeMap<>();
        offsets.forEach(
                (pb, o) -> {
                    if (pb.isPartitioned()) {
                        partitioned.put(pb, o);
                        return;
                    }
                    if (sb.length() > 0) {
                        sb.append(',');
                    }
                    sb.append(pb.bucket()).append('=').append(o);
                });
        if (sb.length() > 0 || partitioned.isEmpty()) {
            out.put(BUCKET_OFFSETS, sb.toString());
        }
        if (!partitioned.isEmpty() || !partitionNames.isEmpty()) {
            out.put(PARTITION_OFFSETS, PartitionOffsetsCodec.encode(partitioned, partitionNames));
        }
        if (committedAtMillis >= 0) {
            out.put(COMMITTED_AT, Long.toString(committedAtMillis));
        }
        extra.forEach((k, v) -> out.put(EXTRA_PREFIX + k, v));
        return out;
    }

    /**
     * Parses the properties of a lake snapshot; empty when the snapshot was not written by
     * Tributary tiering (no {@link #EPOCH} key). Snapshots written before partitions existed (only
     * {@link #BUCKET_OFFSETS}) read as an unpartitioned table's.
     *
     * @throws CorruptDataException when Tributary keys are present but malformed
     */
    public static Optional<TieringSnapshotProperties> fromProperties(Map<String, String> props) {
        if (props == null || !props.containsKey(EPOCH)) {
            return Optional.empty();
        }
        try {
            SortedMap<PartitionBucket, Long> offsets = new TreeMap<>();
            SortedMap<Long, String> names = new TreeMap<>();
            String encoded = props.getOrDefault(BUCKET_OFFSETS, "");
            if (!encoded.isEmpty()) {
                for (String pair : encoded.split(",")) {
                    int eq = pair.indexOf('=');
                    offsets.put(
                            PartitionBucket.of(Integer.parseInt(pair.substring(0, eq))),
                            Long.parseLong(pair.substring(eq + 1)));
                }
            }
            String partitioned = props.get(PARTITION_OFFSETS);
            if (partitioned != null) {
                PartitionOffsetsCodec.Decoded d = PartitionOffsetsCodec.decode(partitioned);
                offsets.putAll(d.offsets());
                names.putAll(d.names());
            }
            Map<String, String> extra = new LinkedHashMap<>();
            props.forEach(
                    (k, v) -> {
                        if (k.startsWith(EXTRA_PREFIX)) {
                            extra.put(k.substring(EXTRA_PREFIX.length()), v);
                        }
                    });
            // snapshots of earlier versions kept the commit time as an extra
            String committedAt = props.get(COMMITTED_AT);
            String legacyCommittedAt = extra.remove(LEGACY_COMMITTED_AT);
            if (committedAt == null) {
                committedAt = legacyCommittedAt;
            }
            return Optional.of(
                    new TieringSnapshotProperties(
                            Long.parseLong(props.get(TABLE_ID)),
                            Long.parseLong(props.get(EPOCH)),
                            Long.parseLong(props.get(ROUND_ID)),
                            props.getOrDefault(COMMIT_USER, LakeCommitter.DEFAULT_COMMIT_USER),
                            offsets,
                            names,
                            committedAt == null ? -1 : Long.parseLong(committedAt),
                            extra));
        } catch (CorruptDataException e) {
            throw new CorruptDataException(
                    "malformed Tributary properties in a lake snapshot: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new CorruptDataException(
                    "malformed Tributary properties in a lake snapshot: " + props, e);
        }
    }
}
