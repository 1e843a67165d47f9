package dev.tributary.coordinator.store;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypeParser;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.PartitionState;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.status.RoundSummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Binary encoding of the metadata records; types are stored as their SQL-like strings. Layouts are
 * versioned by the caller (the record type of a log entry, the checkpoint version): version 1 is
 * the layout before partitions (T30), still read; version 2 adds partition keys to tables and
 * partitions to tiering records.
 */
final class MetadataCodec {
    /** The layout this build writes. */
    static final int CURRENT = 2;

    private MetadataCodec() {}

    static void writeDatabase(BinaryWriter w, DatabaseInfo db) {
        w.writeString(db.name());
        writeNullable(w, db.comment());
        w.writeLong(db.createdTimeMillis());
    }

    static DatabaseInfo readDatabase(BinaryReader r) {
        return new DatabaseInfo(r.readString(), readNullable(r), r.readLong());
    }

    static void writeTable(BinaryWriter w, TableInfo t) {
        writeTable(w, t, CURRENT);
    }

    static void writeTable(BinaryWriter w, TableInfo t, int version) {
        w.writeLong(t.tableId());
        w.writeString(t.path().database());
        w.writeString(t.path().table());
        w.writeVarInt(t.schemaId());
        w.writeVarInt(t.schemas().size());
        for (Map.Entry<Integer, Schema> e : t.schemas().entrySet()) {
            w.writeVarInt(e.getKey());
            writeSchema(w, e.getValue());
        }
        TableDescriptor d = t.descriptor();
        w.writeVarInt(d.bucketCount());
        writeStrings(w, d.bucketKeys());
        if (version >= 2) {
            writeStrings(w, d.partitionKeys());
        } else if (d.isPartitioned()) {
            throw new IllegalArgumentException("layout 1 cannot hold partition keys");
        }
        w.writeVarInt(d.properties().size());
        for (Map.Entry<String, String> e : new TreeMap<>(d.properties()).entrySet()) {
            w.writeString(e.getKey());
            w.writeString(e.getValue());
        }
        writeNullable(w, d.comment().orElse(null));
        w.writeLong(t.createdTimeMillis());
        w.writeLong(t.modifiedTimeMillis());
    }

    static TableInfo readTable(BinaryReader r) {
        return readTable(r, CURRENT);
    }

    static TableInfo readTable(BinaryReader r, int version) {
        long id = r.readLong();
        TablePath path = TablePath.of(r.readString(), r.readString());
        int schemaId = r.readVarInt();
        int n = r.readVarInt();
        TreeMap<Integer, Schema> schemas = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            int sid = r.readVarInt();
            schemas.put(sid, readSchema(r));
        }
        int buckets = r.readVarInt();
        List<String> bucketKeys = readStrings(r);
        List<String> partitionKeys = version >= 2 ? readStrings(r) : List.of();
        int np = r.readVarInt();
        Map<String, String> props = new LinkedHashMap<>();
        for (int i = 0; i < np; i++) {
            props.put(r.readString(), r.readString());
        }
        String comment = readNullable(r);
        TableDescriptor.Builder b =
                TableDescriptor.builder(schemas.get(schemaId))
                        .partitionKeys(partitionKeys)
                        .bucketCount(buckets)
                        .bucketKeys(bucketKeys)
                        .properties(props);
        if (comment != null) {
            b.comment(comment);
        }
        return new TableInfo(id, path, b.build(), schemaId, schemas, r.readLong(), r.readLong());
    }

    private static void writeSchema(BinaryWriter w, Schema s) {
        w.writeVarInt(s.columns().size());
        for (Column c : s.columns()) {
            w.writeString(c.name());
            w.writeString(c.type().asSummaryString());
            writeNullable(w, c.comment());
        }
        writeStrings(w, s.primaryKey());
    }

    private static Schema readSchema(BinaryReader r) {
        int n = r.readCount(3);
        List<Column> cols = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            cols.add(
                    new Column(
                            r.readString(), DataTypeParser.parse(r.readString()), readNullable(r)));
        }
        return Schema.of(cols, readStrings(r));
    }

    static void writeTiering(BinaryWriter w, TieringRecord t) {
        writeTiering(w, t, CURRENT);
    }

    static void writeTiering(BinaryWriter w, TieringRecord t, int version) {
        w.writeLong(t.tableId());
        if (version >= 2) {
            TieredOffsets offsets = t.offsets();
            List<Long> ids = new ArrayList<>(offsets.partitionIds());
            java.util.Collections.sort(ids);
            w.writeVarInt(ids.size());
            for (long id : ids) {
                w.writeLong(id);
                writeBucketOffsets(w, offsets.partition(id));
            }
        } else {
            if (t.offsets().partitionIds().stream().anyMatch(id -> id >= 0)) {
                throw new IllegalArgumentException("layout 1 cannot hold partitions");
            }
            writeBucketOffsets(w, t.tieredOffsets());
        }
        w.writeLong(t.lastTieredTimeMillis());
        w.writeLong(t.enabledSinceMillis());
        w.writeLong(t.lakeSnapshotId());
        w.writeLong(t.epoch());
        w.writeLong(t.roundId());
        w.writeByte(t.continueImmediately() ? 1 : 0);
        writeRound(w, t.lastRound());
    }

    /** Marker bytes before a round summary: none, the first layout, the current layout. */
    private static final int NO_ROUND = 0;

    private static final int ROUND_V1 = 1;
    private static final int ROUND_V2 = 2;

    private static void writeRound(BinaryWriter w, RoundSummary s) {
        if (s == null) {
            w.writeByte(NO_ROUND);
            return;
        }
        w.writeByte(ROUND_V2);
        w.writeLong(s.epoch());
        w.writeLong(s.roundId());
        writeNullable(w, s.jobId());
        w.writeLong(s.queueWaitMillis());
        w.writeLong(s.startMillis());
        w.writeLong(s.endMillis());
        w.writeByte(s.outcome().ordinal());
        w.writeLong(s.rows());
        w.writeLong(s.bytes());
        w.writeLong(s.files());
        w.writeLong(s.recordsRead());
        w.writeLong(s.bytesRead());
        w.writeByte(s.forceFinished() ? 1 : 0);
        w.writeLong(s.lakeSnapshotId());
        writeNullable(w, s.failure());
    }

    private static RoundSummary readRound(BinaryReader r) {
        int marker = r.readByte();
        switch (marker) {
            case NO_ROUND:
                return null;
            case ROUND_V1:
                {
                    long epoch = r.readLong();
                    long round = r.readLong();
                    long start = r.readLong();
                    long end = r.readLong();
                    long rows = r.readLong();
                    long bytes = r.readLong();
                    long files = r.readLong();
                    boolean ff = r.readByte() != 0;
                    long snapshot = r.readLong();
                    // the first layout only recorded committed rounds, with the job's figures
                    return new RoundSummary(
                            epoch,
                            round,
                            null,
                            -1,
                            start,
                            end,
                            snapshot < 0
                                    ? RoundSummary.Outcome.NOTHING_NEW
                                    : RoundSummary.Outcome.COMMITTED,
                            rows,
                            bytes,
                            files,
                            rows,
                            bytes,
                            ff,
                            snapshot,
                            null);
                }
            case ROUND_V2:
                return new RoundSummary(
                        r.readLong(),
                        r.readLong(),
                        readNullable(r),
                        r.readLong(),
                        r.readLong(),
                        r.readLong(),
                        RoundSummary.Outcome.values()[r.readByte()],
                        r.readLong(),
                        r.readLong(),
                        r.readLong(),
                        r.readLong(),
                        r.readLong(),
                        r.readByte() != 0,
                        r.readLong(),
                        readNullable(r));
            default:
                throw new CorruptDataException(
                        "unknown round summary layout " + marker + " in the coordinator metadata");
        }
    }

    private static void writeBucketOffsets(BinaryWriter w, Map<Integer, Long> offsets) {
        w.writeVarInt(offsets.size());
        for (Map.Entry<Integer, Long> e : offsets.entrySet()) {
            w.writeVarInt(e.getKey());
            w.writeLong(e.getValue());
        }
    }

    private static TreeMap<Integer, Long> readBucketOffsets(BinaryReader r) {
        int n = r.readVarInt();
        TreeMap<Integer, Long> offsets = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            int b = r.readVarInt();
            offsets.put(b, r.readLong());
        }
        return offsets;
    }

    static TieringRecord readTiering(BinaryReader r) {
        return readTiering(r, CURRENT);
    }

    static TieringRecord readTiering(BinaryReader r, int version) {
        long id = r.readLong();
        TieredOffsets offsets;
        if (version >= 2) {
            Map<PartitionBucket, Long> all = new java.util.HashMap<>();
            int partitions = r.readVarInt();
            for (int i = 0; i < partitions; i++) {
                long pid = r.readLong();
                readBucketOffsets(r).forEach((b, o) -> all.put(new PartitionBucket(pid, b), o));
            }
            offsets = TieredOffsets.of(all);
        } else {
            offsets = TieredOffsets.ofBuckets(readBucketOffsets(r));
        }
        long lastTiered = r.readLong();
        long enabledSince = r.readLong();
        long snapshot = r.readLong();
        long epoch = r.readLong();
        long round = r.readLong();
        boolean cont = r.readByte() != 0;
        RoundSummary s = readRound(r);
        return new TieringRecord(
                id, offsets, lastTiered, enabledSince, snapshot, epoch, round, cont, s);
    }

    static void writePartition(BinaryWriter w, PartitionInfo p) {
        w.writeLong(p.tableId());
        w.writeLong(p.partitionId());
        writeStrings(w, p.spec().keys());
        writeStrings(w, p.spec().values());
        w.writeByte(p.state().ordinal());
        w.writeLong(p.createdTimeMillis());
        w.writeLong(p.dropRequestedMillis());
        w.writeByte(p.dropLakePartition() ? 1 : 0);
    }

    static PartitionInfo readPartition(BinaryReader r) {
        long tableId = r.readLong();
        long partitionId = r.readLong();
        PartitionSpec spec = PartitionSpec.of(readStrings(r), readStrings(r));
        int state = r.readByte();
        if (state < 0 || state >= PartitionState.values().length) {
            throw new CorruptDataException(
                    "unknown partition state " + state + " in the coordinator metadata");
        }
        return new PartitionInfo(
                tableId,
                partitionId,
                spec,
                PartitionState.values()[state],
                r.readLong(),
                r.readLong(),
                r.readByte() != 0);
    }

    /** The layout with the storage id (T53). */
    static void writeServer(BinaryWriter w, ServerRegistration s) {
        w.writeVarInt(s.serverId());
        w.writeString(s.rpcAddress());
        w.writeString(s.httpAddress());
        w.writeLong(s.registeredAtMillis());
        w.writeString(s.storageId());
    }

    /** Assignments with one server per bucket (before T50). */
    static final int ASSIGNMENT_SINGLE = 1;

    /** Assignments with each bucket's replicas, leader, epoch and in-sync set (T50). */
    static final int ASSIGNMENT_REPLICATED = 2;

    /** {@link #ASSIGNMENT_REPLICATED} with each bucket's move target. */
    static final int ASSIGNMENT_MOVES = 3;

    /**
     * Writes an assignment in {@code layout}: {@link #ASSIGNMENT_REPLICATED} or {@link
     * #ASSIGNMENT_MOVES}.
     */
    static void writeAssignment(BinaryWriter w, BucketAssignment a, int layout) {
        if (layout != ASSIGNMENT_REPLICATED && layout != ASSIGNMENT_MOVES) {
            throw new IllegalArgumentException("no assignment layout " + layout + " to write");
        }
        w.writeLong(a.tableId());
        w.writeLong(a.partitionId());
        w.writeVarInt(a.bucketCount());
        for (BucketReplicas b : a.buckets()) {
            if (b.moving() && layout != ASSIGNMENT_MOVES) {
                throw new IllegalArgumentException("a moving bucket needs the layout with moves");
            }
            writeServerIds(w, b.replicas());
            w.writeVarInt(b.leader() + 1); // NO_LEADER is -1
            w.writeVarInt(b.leaderEpoch());
            writeServerIds(w, b.isr());
            if (layout == ASSIGNMENT_MOVES) {
                writeServerIds(w, b.target());
            }
        }
    }

    private static void writeServerIds(BinaryWriter w, List<Integer> ids) {
        w.writeVarInt(ids.size());
        ids.forEach(w::writeVarInt);
    }

    /** Reads an assignment in {@code layout} ({@link #ASSIGNMENT_SINGLE} and on). */
    static BucketAssignment readAssignment(BinaryReader r, int layout) {
        long tableId = r.readLong();
        long partitionId = r.readLong();
        int n = r.readCount(1);
        try {
            List<BucketReplicas> buckets = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                if (layout == ASSIGNMENT_SINGLE) {
                    buckets.add(BucketReplicas.single(r.readVarInt()));
                } else {
                    List<Integer> replicas = readServerIds(r);
                    int leader = r.readVarInt() - 1;
                    int epoch = r.readVarInt();
                    List<Integer> isr = readServerIds(r);
                    List<Integer> target =
                            layout == ASSIGNMENT_MOVES ? readServerIds(r) : List.of();
                    buckets.add(new BucketReplicas(replicas, leader, epoch, isr, target));
                }
            }
            return new BucketAssignment(tableId, partitionId, buckets);
        } catch (InvalidInputException e) {
            // a writer only writes assignments it could construct
            throw new CorruptDataException(
                    "malformed bucket assignment in the coordinator metadata: " + e.getMessage(),
                    e);
        }
    }

    private static List<Integer> readServerIds(BinaryReader r) {
        int n = r.readCount(1);
        List<Integer> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ids.add(r.readVarInt());
        }
        return ids;
    }

    /**
     * Reads a registration in the layout of {@link #writeServer}, or without {@code withStorageId}
     * in the layout before T53.
     */
    static ServerRegistration readServer(BinaryReader r, boolean withStorageId) {
        int id = r.readVarInt();
        String rpc = r.readString();
        String http = r.readString();
        long at = r.readLong();
        String storageId = withStorageId ? r.readString() : "";
        try {
            return new ServerRegistration(id, rpc, http, at, storageId);
        } catch (InvalidInputException e) {
            // a writer only writes registrations it could construct
            throw new CorruptDataException(
                    "malformed server registration in the coordinator metadata: " + e.getMessage(),
                    e);
        }
    }

    private static void writeStrings(BinaryWriter w, List<String> list) {
        w.writeVarInt(list.size());
        list.forEach(w::writeString);
    }

    private static List<String> readStrings(BinaryReader r) {
        int n = r.readCount(1);
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(r.readString());
        }
        return out;
    }

    private static void writeNullable(BinaryWriter w, String s) {
        w.writeByte(s == null ? 0 : 1);
        if (s != null) {
            w.writeString(s);
        }
    }

    private static String readNullable(BinaryReader r) {
        return r.readByte() == 0 ? null : r.readString();
    }
}
