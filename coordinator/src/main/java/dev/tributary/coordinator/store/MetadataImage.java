package dev.tributary.coordinator.store;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.metadata.TableInfo;
import java.util.Optional;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator metadata in memory, changed only by applying {@link MetadataRecords}, and its
 * checkpoint encoding. Both the file store and a replicated state machine keep one, so a record
 * means the same thing wherever it is applied: applying the same records in the same order from the
 * same checkpoint always yields the same image.
 *
 * <p>Not thread safe: the owner serializes applies and reads.
 */
public final class MetadataImage {
    private static final Logger LOG = LoggerFactory.getLogger(MetadataImage.class);
    private static final int CHECKPOINT_MAGIC = 0x54524d43; // "TRMC"

    /**
     * Version 3 adds the registered servers and the bucket assignments (T49), version 4 each
     * bucket's replicas, leader and in-sync set (T50), version 5 each server's storage id (T53),
     * version 6 each bucket's move target, version 7 the servers being drained (issue 23); every
     * version is still read. Version 7 is written only while a server drains, so that metadata
     * without drains stays readable by the builds before them.
     */
    private static final int VERSION = 7;

    private static final int VERSION_BEFORE_DRAINS = 6;

    private final MutableState state = new MutableState();
    private long checkpointSeq;
    private MetadataListener listener;

    /** An empty image. */
    public MetadataImage() {}

    /**
     * Tells {@code listener} of every table a later {@link #apply} changes (replacing any earlier
     * listener). The caller reports the image as it is now through {@link
     * MetadataListener#onReset}, under the same lock as its applies, so nothing is missed or told
     * twice.
     */
    public void listener(MetadataListener listener) {
        this.listener = listener;
    }

    /**
     * Applies one record (see {@link MetadataRecords}).
     *
     * @return the mutation's result: for a tiering record, a partition or a bucket assignment, 1 if
     *     it was stored and 0 if its table (or partition) no longer exists; for an incarnation
     *     record, the incarnation after it; 0 for every other record
     * @throws CorruptDataException if the bytes are not a record this build knows (the image is
     *     unchanged then)
     */
    public long apply(byte[] record) {
        return apply(record, 0, record.length);
    }

    /** Applies the record in {@code length} bytes of {@code buf} from {@code offset}. */
    public long apply(byte[] buf, int offset, int length) {
        long result = applyToState(buf, offset, length);
        if (listener != null) {
            long tableId = changedTable(buf, offset, length, result);
            if (tableId >= 0) {
                tell(tableId);
            }
        }
        return result;
    }

    /**
     * The table whose definition, partitions or assignments an applied record changed, or -1.
     * Tiering records, the most frequent, change none of these.
     */
    private static long changedTable(byte[] buf, int offset, int length, long result) {
        // each of these records starts with the table id (see MetadataRecords)
        switch (buf[offset]) {
            case MetadataRecords.PUT_TABLE:
            case MetadataRecords.PUT_TABLE_V2:
            case MetadataRecords.REMOVE_TABLE:
            case MetadataRecords.REMOVE_PARTITION:
                return new BinaryReader(buf, offset + 1, length - 1).readLong();
            case MetadataRecords.PUT_PARTITION:
            case MetadataRecords.PUT_ASSIGNMENT:
            case MetadataRecords.PUT_ASSIGNMENT_V2:
            case MetadataRecords.PUT_ASSIGNMENT_V3:
                // nothing changed when the table (or partition) was gone
                return result == 1 ? new BinaryReader(buf, offset + 1, length - 1).readLong() : -1;
            default:
                return -1;
        }
    }

    private void tell(long tableId) {
        try {
            listener.onTableChanged(tableId, appliedTable(tableId));
        } catch (RuntimeException e) {
            // the record is durable and applied: the listener heals itself at its next reset
            LOG.error("a metadata listener failed on table id {}", tableId, e);
        }
    }

    /** A table with its partitions and assignments, if it exists. */
    public Optional<AppliedTable> appliedTable(long tableId) {
        TableInfo t = state.tables.get(tableId);
        return t == null
                ? Optional.empty()
                : Optional.of(AppliedTable.of(t, state.partitions.values(), state.assignments));
    }

    private long applyToState(byte[] buf, int offset, int length) {
        if (length < 1) {
            throw new CorruptDataException("empty coordinator metadata record");
        }
        BinaryReader r = new BinaryReader(buf, offset + 1, length - 1);
        byte type = buf[offset];
        try {
            // every branch decodes its whole body before touching the state, so a corrupt record
            // leaves the image as it was
            switch (type) {
                case MetadataRecords.PUT_DB:
                    state.putDatabase(end(r, MetadataCodec.readDatabase(r)));
                    return 0;
                case MetadataRecords.REMOVE_DB:
                    state.removeDatabase(end(r, r.readString()));
                    return 0;
                case MetadataRecords.PUT_TABLE:
                    state.putTable(end(r, MetadataCodec.readTable(r, 1)));
                    return 0;
                case MetadataRecords.PUT_TABLE_V2:
                    state.putTable(end(r, MetadataCodec.readTable(r, 2)));
                    return 0;
                case MetadataRecords.REMOVE_TABLE:
                    state.removeTable(end(r, r.readLong()));
                    return 0;
                case MetadataRecords.PUT_TIERING:
                    return state.putTiering(end(r, MetadataCodec.readTiering(r, 1))) ? 1 : 0;
                case MetadataRecords.PUT_TIERING_V2:
                    return state.putTiering(end(r, MetadataCodec.readTiering(r, 2))) ? 1 : 0;
                case MetadataRecords.PUT_PARTITION:
                    return state.putPartition(end(r, MetadataCodec.readPartition(r))) ? 1 : 0;
                case MetadataRecords.REMOVE_PARTITION:
                    {
                        long tableId = r.readLong();
                        state.removePartition(tableId, end(r, r.readLong()));
                        return 0;
                    }
                case MetadataRecords.INCARNATION:
                    state.incarnation = Math.max(state.incarnation, end(r, r.readLong()));
                    return state.incarnation;
                case MetadataRecords.PUT_SERVER:
                case MetadataRecords.PUT_SERVER_V2:
                    state.putServer(
                            end(
                                    r,
                                    MetadataCodec.readServer(
                                            r, type == MetadataRecords.PUT_SERVER_V2)));
                    return 0;
                case MetadataRecords.REMOVE_SERVER:
                    state.removeServer(end(r, r.readInt()));
                    return 0;
                case MetadataRecords.SET_DRAINING:
                    {
                        int serverId = r.readInt();
                        state.setDraining(serverId, end(r, readFlag(r)));
                        return 0;
                    }
                case MetadataRecords.PUT_ASSIGNMENT:
                case MetadataRecords.PUT_ASSIGNMENT_V2:
                case MetadataRecords.PUT_ASSIGNMENT_V3:
                    {
                        int layout =
                                type == MetadataRecords.PUT_ASSIGNMENT
                                        ? MetadataCodec.ASSIGNMENT_SINGLE
                                        : type == MetadataRecords.PUT_ASSIGNMENT_V2
                                                ? MetadataCodec.ASSIGNMENT_REPLICATED
                                                : MetadataCodec.ASSIGNMENT_MOVES;
                        BucketAssignment a = MetadataCodec.readAssignment(r, layout);
                        return state.putAssignment(end(r, a)) ? 1 : 0;
                    }
                case MetadataRecords.NEXT_INCARNATION:
                    end(r, null);
                    return ++state.incarnation;
                default:
                    throw new CorruptDataException("unknown coordinator log record type " + type);
            }
        } catch (TributaryException e) {
            throw e;
        } catch (RuntimeException e) {
            // e.g. a type string the parser refuses: the bytes are not what a writer wrote
            throw new CorruptDataException(
                    "malformed coordinator metadata record of type " + type + ": " + e, e);
        }
    }

    private static boolean readFlag(BinaryReader r) {
        byte b = r.readByte();
        if (b != 0 && b != 1) {
            throw new CorruptDataException("a flag in a coordinator metadata record is " + b);
        }
        return b == 1;
    }

    /** Checks that the record held nothing after its body. */
    private static <T> T end(BinaryReader r, T value) {
        if (r.remaining() != 0) {
            throw new CorruptDataException(
                    r.remaining() + " unexpected bytes after a coordinator metadata record");
        }
        return value;
    }

    /** Everything in the image, as an immutable copy. */
    public StoredState snapshot() {
        return state.snapshot();
    }

    /** The tiering records by table id, as an immutable copy; cheaper than {@link #snapshot()}. */
    public java.util.Map<Long, TieringRecord> tieringRecords() {
        return state.tieringCopy();
    }

    public Optional<TieringRecord> tieringRecord(long tableId) {
        return state.tiering(tableId);
    }

    public boolean hasTable(long tableId) {
        return state.tables.containsKey(tableId);
    }

    /** The registered servers by id, as an immutable copy; cheaper than {@link #snapshot()}. */
    public java.util.Map<Integer, ServerRegistration> servers() {
        return state.serversCopy();
    }

    /** The number of the last coordinator start, 0 if never started. */
    public long incarnation() {
        return state.incarnation;
    }

    public int tableCount() {
        return state.tables.size();
    }

    /**
     * The sequence number of the last record this image held when its checkpoint was written (for
     * an image read by {@link #fromCheckpoint}); 0 otherwise.
     */
    public long checkpointSeq() {
        return checkpointSeq;
    }

    /**
     * The full image in the checkpoint layout: magic, version, {@code seq} (the position of the
     * last applied record in its owner's log), the state, and a CRC32C of everything before it.
     */
    public byte[] toCheckpoint(long seq) {
        int[] draining =
                state.servers.values().stream()
                        .filter(ServerRegistration::draining)
                        .mapToInt(ServerRegistration::serverId)
                        .sorted()
                        .toArray();
        BinaryWriter w = new BinaryWriter(1 << 16);
        w.writeInt(CHECKPOINT_MAGIC);
        w.writeInt(draining.length > 0 ? VERSION : VERSION_BEFORE_DRAINS);
        w.writeLong(seq);
        w.writeLong(state.incarnation);
        w.writeLong(state.maxTableId);
        w.writeVarInt(state.databases.size());
        state.databases.values().forEach(d -> MetadataCodec.writeDatabase(w, d));
        w.writeVarInt(state.tables.size());
        state.tables.values().forEach(t -> MetadataCodec.writeTable(w, t));
        w.writeVarInt(state.tiering.size());
        state.tiering.values().forEach(t -> MetadataCodec.writeTiering(w, t));
        w.writeVarInt(state.partitions.size());
        state.partitions.values().forEach(p -> MetadataCodec.writePartition(w, p));
        w.writeLong(state.maxPartitionId);
        w.writeVarInt(state.servers.size());
        // sorted by id, so equal images give equal checkpoint bytes
        new java.util.TreeMap<>(state.servers)
                .values()
                .forEach(s -> MetadataCodec.writeServer(w, s));
        if (draining.length > 0) {
            w.writeVarInt(draining.length);
            for (int id : draining) {
                w.writeInt(id);
            }
        }
        w.writeVarInt(state.assignments.size());
        new java.util.TreeMap<>(state.assignments)
                .values()
                .forEach(a -> MetadataCodec.writeAssignment(w, a, MetadataCodec.ASSIGNMENT_MOVES));
        w.writeInt(crc(w.buffer(), 0, w.position()));
        return w.toByteArray();
    }

    /**
     * Reads a checkpoint written by {@link #toCheckpoint}.
     *
     * @param source names the checkpoint in error messages (e.g. its file)
     * @throws CorruptDataException if the bytes fail their checksum or have an unknown layout
     */
    public static MetadataImage fromCheckpoint(byte[] bytes, String source) {
        if (bytes.length < 12
                || crc(bytes, 0, bytes.length - 4) != readIntLE(bytes, bytes.length - 4)) {
            throw new CorruptDataException(
                    "coordinator checkpoint "
                            + source
                            + " fails its checksum; restore it from a backup");
        }
        BinaryReader r = new BinaryReader(bytes, 0, bytes.length - 4);
        int version = r.readInt() == CHECKPOINT_MAGIC ? r.readInt() : -1;
        if (version < 1 || version > VERSION) {
            throw new CorruptDataException(
                    "coordinator checkpoint " + source + " has an unknown format");
        }
        MetadataImage image = new MetadataImage();
        MutableState state = image.state;
        try {
            image.checkpointSeq = r.readLong();
            state.incarnation = r.readLong();
            state.maxTableId = r.readLong();
            int n = r.readCount(1);
            for (int i = 0; i < n; i++) {
                state.putDatabase(MetadataCodec.readDatabase(r));
            }
            n = r.readCount(1);
            for (int i = 0; i < n; i++) {
                state.putTable(MetadataCodec.readTable(r, version));
            }
            n = r.readCount(1);
            for (int i = 0; i < n; i++) {
                TieringRecord t = MetadataCodec.readTiering(r, version);
                state.tiering.put(t.tableId(), t);
            }
            if (version >= 2) {
                n = r.readCount(1);
                for (int i = 0; i < n; i++) {
                    state.putPartition(MetadataCodec.readPartition(r));
                }
                state.maxPartitionId = Math.max(state.maxPartitionId, r.readLong());
            }
            if (version >= 3) {
                n = r.readCount(1);
                for (int i = 0; i < n; i++) {
                    state.putServer(MetadataCodec.readServer(r, version >= 5));
                }
                n = version >= 7 ? r.readCount(4) : 0;
                for (int i = 0; i < n; i++) {
                    state.setDraining(r.readInt(), true);
                }
                n = r.readCount(1);
                for (int i = 0; i < n; i++) {
                    if (!state.putAssignment(
                            MetadataCodec.readAssignment(
                                    r,
                                    version < 4
                                            ? MetadataCodec.ASSIGNMENT_SINGLE
                                            : version < 6
                                                    ? MetadataCodec.ASSIGNMENT_REPLICATED
                                                    : MetadataCodec.ASSIGNMENT_MOVES))) {
                        throw new CorruptDataException(
                                "coordinator checkpoint "
                                        + source
                                        + " assigns the buckets of a table or partition it does"
                                        + " not hold");
                    }
                }
            }
        } catch (TributaryException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new CorruptDataException(
                    "coordinator checkpoint " + source + " is malformed: " + e, e);
        }
        return image;
    }

    /** CRC32C of a range: the file store's log records and both stores' checkpoints. */
    static int crc(byte[] b, int off, int len) {
        CRC32C c = new CRC32C();
        c.update(b, off, len);
        return (int) c.getValue();
    }

    static int readIntLE(byte[] b, int pos) {
        return (b[pos] & 0xFF)
                | (b[pos + 1] & 0xFF) << 8
                | (b[pos + 2] & 0xFF) << 16
                | (b[pos + 3] & 0xFF) << 24;
    }
}
