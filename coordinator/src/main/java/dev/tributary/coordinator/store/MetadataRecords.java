package dev.tributary.coordinator.store;

import dev.tributary.common.io.BinaryWriter;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.metadata.TableInfo;

/**
 * The one binary encoding of metadata mutations: a type byte followed by the mutation's body, the
 * exact bytes {@link FileMetadataStore} writes after each log record's sequence number. A
 * replicated store ships the same bytes as its log entries; {@link MetadataImage#apply(byte[])}
 * applies them.
 *
 * <p>Types 1 to 6 are the layout before partitions (T30), still applied when read; this build
 * writes the newer types for tables and tiering records.
 */
public final class MetadataRecords {
    static final byte PUT_DB = 1;
    static final byte REMOVE_DB = 2;
    static final byte PUT_TABLE = 3;
    static final byte REMOVE_TABLE = 4;
    static final byte PUT_TIERING = 5;

    /** Raises the incarnation to the number in the body (the file log's single writer chose it). */
    static final byte INCARNATION = 6;

    // layout 2 (T30): tables with partition keys, tiering records per (partition, bucket)
    static final byte PUT_TABLE_V2 = 7;
    static final byte PUT_TIERING_V2 = 8;
    static final byte PUT_PARTITION = 9;
    static final byte REMOVE_PARTITION = 10;

    /**
     * Sets the incarnation to one more than the applied state's, with no body: with several
     * would-be writers (a replicated log) the number is chosen where entries are ordered, so two
     * coordinators can never be handed the same one.
     */
    static final byte NEXT_INCARNATION = 11;

    /** Registers a server (T49), replacing an earlier registration with the same id. */
    static final byte PUT_SERVER = 12;

    /**
     * Assigns the buckets of a table or partition to servers (T49); applied only if the table (and
     * the partition) still exists, removed with it.
     */
    static final byte PUT_ASSIGNMENT = 13;

    /**
     * {@link #PUT_ASSIGNMENT} with each bucket's replicas, leader, leader epoch and in-sync set
     * (T50); the one this build writes.
     */
    static final byte PUT_ASSIGNMENT_V2 = 14;

    /** {@link #PUT_SERVER} with the server's storage id (T53); the one this build writes. */
    static final byte PUT_SERVER_V2 = 15;

    /**
     * {@link #PUT_ASSIGNMENT_V2} with each bucket's move target; written only while a bucket of the
     * group moves, so metadata without moves stays readable by builds before moves.
     */
    static final byte PUT_ASSIGNMENT_V3 = 16;

    /** Removes a server's registration (issue 23: a drained server taken out of the cluster). */
    static final byte REMOVE_SERVER = 17;

    /**
     * Marks a registered server draining or not (issue 23); a later {@link #PUT_SERVER_V2} of the
     * same server (its restart) keeps the mark.
     */
    static final byte SET_DRAINING = 18;

    private MetadataRecords() {}

    public static byte[] putDatabase(DatabaseInfo database) {
        BinaryWriter w = new BinaryWriter(64);
        writePutDatabase(w, database);
        return w.toByteArray();
    }

    public static byte[] removeDatabase(String name) {
        BinaryWriter w = new BinaryWriter(32);
        writeRemoveDatabase(w, name);
        return w.toByteArray();
    }

    public static byte[] putTable(TableInfo table) {
        BinaryWriter w = new BinaryWriter(512);
        writePutTable(w, table);
        return w.toByteArray();
    }

    public static byte[] removeTable(long tableId) {
        BinaryWriter w = new BinaryWriter(16);
        writeRemoveTable(w, tableId);
        return w.toByteArray();
    }

    /** Applied only if the table still exists at apply time; the apply result says which. */
    public static byte[] putTieringRecord(TieringRecord record) {
        BinaryWriter w = new BinaryWriter(256);
        writePutTiering(w, record);
        return w.toByteArray();
    }

    public static byte[] putPartition(PartitionInfo partition) {
        BinaryWriter w = new BinaryWriter(128);
        writePutPartition(w, partition);
        return w.toByteArray();
    }

    public static byte[] removePartition(long tableId, long partitionId) {
        BinaryWriter w = new BinaryWriter(24);
        writeRemovePartition(w, tableId, partitionId);
        return w.toByteArray();
    }

    /** Starts the next coordinator incarnation; the apply result is its number. */
    public static byte[] nextIncarnation() {
        return new byte[] {NEXT_INCARNATION};
    }

    /** Registers a server, replacing its earlier registration. */
    public static byte[] putServer(ServerRegistration server) {
        BinaryWriter w = new BinaryWriter(128);
        writePutServer(w, server);
        return w.toByteArray();
    }

    /** Removes a server's registration; nothing if it is not registered. */
    public static byte[] removeServer(int serverId) {
        BinaryWriter w = new BinaryWriter(8);
        writeRemoveServer(w, serverId);
        return w.toByteArray();
    }

    /** Marks a server draining or not; nothing if it is not registered. */
    public static byte[] setDraining(int serverId, boolean draining) {
        BinaryWriter w = new BinaryWriter(8);
        writeSetDraining(w, serverId, draining);
        return w.toByteArray();
    }

    /** Applied only if the table and partition still exist; the apply result says which. */
    public static byte[] putAssignment(BucketAssignment assignment) {
        BinaryWriter w = new BinaryWriter(32 + 8 * assignment.bucketCount());
        writePutAssignment(w, assignment);
        return w.toByteArray();
    }

    static void writePutAssignment(BinaryWriter w, BucketAssignment assignment) {
        boolean moving = assignment.buckets().stream().anyMatch(BucketReplicas::moving);
        w.writeByte(moving ? PUT_ASSIGNMENT_V3 : PUT_ASSIGNMENT_V2);
        MetadataCodec.writeAssignment(
                w,
                assignment,
                moving ? MetadataCodec.ASSIGNMENT_MOVES : MetadataCodec.ASSIGNMENT_REPLICATED);
    }

    static void writePutServer(BinaryWriter w, ServerRegistration server) {
        w.writeByte(PUT_SERVER_V2);
        MetadataCodec.writeServer(w, server);
    }

    static void writeRemoveServer(BinaryWriter w, int serverId) {
        w.writeByte(REMOVE_SERVER);
        w.writeInt(serverId);
    }

    static void writeSetDraining(BinaryWriter w, int serverId, boolean draining) {
        w.writeByte(SET_DRAINING);
        w.writeInt(serverId);
        w.writeByte(draining ? 1 : 0);
    }

    static void writePutDatabase(BinaryWriter w, DatabaseInfo database) {
        w.writeByte(PUT_DB);
        MetadataCodec.writeDatabase(w, database);
    }

    static void writeRemoveDatabase(BinaryWriter w, String name) {
        w.writeByte(REMOVE_DB);
        w.writeString(name);
    }

    static void writePutTable(BinaryWriter w, TableInfo table) {
        w.writeByte(PUT_TABLE_V2);
        MetadataCodec.writeTable(w, table);
    }

    static void writeRemoveTable(BinaryWriter w, long tableId) {
        w.writeByte(REMOVE_TABLE);
        w.writeLong(tableId);
    }

    static void writePutTiering(BinaryWriter w, TieringRecord record) {
        w.writeByte(PUT_TIERING_V2);
        MetadataCodec.writeTiering(w, record);
    }

    static void writePutPartition(BinaryWriter w, PartitionInfo partition) {
        w.writeByte(PUT_PARTITION);
        MetadataCodec.writePartition(w, partition);
    }

    static void writeRemovePartition(BinaryWriter w, long tableId, long partitionId) {
        w.writeByte(REMOVE_PARTITION);
        w.writeLong(tableId);
        w.writeLong(partitionId);
    }

    /** The file log's incarnation record: an absolute number its single writer chose. */
    static void writeIncarnation(BinaryWriter w, long incarnation) {
        w.writeByte(INCARNATION);
        w.writeLong(incarnation);
    }
}
