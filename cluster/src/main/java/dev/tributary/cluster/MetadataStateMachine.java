package dev.tributary.cluster;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.io.DurableFiles;
import dev.tributary.coordinator.store.MetadataImage;
import dev.tributary.coordinator.store.MetadataListener;
import dev.tributary.coordinator.store.MetadataRecords;
import dev.tributary.coordinator.store.StoredState;
import dev.tributary.coordinator.store.TieringRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.io.MD5Hash;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.LifeCycle;
import org.apache.ratis.util.MD5FileUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator metadata as a Ratis state machine: committed log entries are {@link
 * MetadataRecords} applied to a {@link MetadataImage}; each reply carries the apply's result (8
 * bytes). Snapshots are the image's checkpoint bytes, one file per snapshot in Ratis's {@link
 * SimpleStateMachineStorage} layout ({@code snapshot.<term>_<index>} plus its MD5 file), so the
 * leader can send one to a follower whose missing entries were purged; the checkpoint's own CRC is
 * checked on load.
 *
 * <p>Ratis calls {@link #applyTransaction} and {@link #takeSnapshot} on its state machine updater
 * thread, one at a time; reads of the image from other threads take this object's monitor.
 */
final class MetadataStateMachine extends BaseStateMachine {
    private static final Logger LOG = LoggerFactory.getLogger(MetadataStateMachine.class);

    /** Refuses to read a larger snapshot: the metadata of any real cluster is far smaller. */
    private static final long MAX_SNAPSHOT_BYTES = 1L << 30;

    /** Leadership events, raised on Ratis's threads; the receiver must not block. */
    interface Events {
        /** This server leads {@code term} and has applied every entry committed before it. */
        void leaderReady(long term);

        /** The leader is now {@code leaderId} (empty: unknown), not this server. */
        void notLeader(Optional<String> leaderId);
    }

    private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
    private final Events events;
    private MetadataImage image = new MetadataImage();

    /**
     * The server registrations as of the last whole apply, for readers on other threads: they must
     * not wait for the apply thread's lock, which an apply holds while it calls into the server (a
     * replica manager that asks for registrations under its own lock while the apply waits for that
     * lock would deadlock: seen in the wipe soak).
     */
    private volatile java.util.Map<Integer, dev.tributary.coordinator.metadata.ServerRegistration>
            appliedServers = java.util.Map.of();

    private MetadataListener listener;

    MetadataStateMachine(Events events) {
        this.events = events;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage)
            throws IOException {
        getLifeCycle()
                .startAndTransition(
                        () -> {
                            super.initialize(server, groupId, raftStorage);
                            storage.init(raftStorage);
                            loadLatestSnapshot();
                        });
    }

    /**
     * Ratis pauses the state machine before it moves a snapshot from the leader into place, and
     * checks that it is paused before {@link #reinitialize()}.
     */
    @Override
    public void pause() {
        getLifeCycle().transition(LifeCycle.State.PAUSING);
        getLifeCycle().transition(LifeCycle.State.PAUSED);
    }

    /** Called after the leader installed a snapshot on this server: the snapshot replaces all. */
    @Override
    public void reinitialize() throws IOException {
        loadLatestSnapshot();
        if (getLifeCycleState() == LifeCycle.State.PAUSED) {
            getLifeCycle().transition(LifeCycle.State.STARTING);
            getLifeCycle().transition(LifeCycle.State.RUNNING);
        }
    }

    @Override
    public SimpleStateMachineStorage getStateMachineStorage() {
        return storage;
    }

    private void loadLatestSnapshot() throws IOException {
        SingleFileSnapshotInfo snapshot = storage.loadLatestSnapshot();
        if (snapshot == null) {
            return;
        }
        Path file = snapshot.getFile().getPath();
        long size = Files.size(file);
        if (size > MAX_SNAPSHOT_BYTES) {
            throw new CorruptDataException(
                    "metadata snapshot "
                            + file
                            + " has "
                            + size
                            + " bytes, more than any valid one");
        }
        MD5Hash md5 = snapshot.getFile().getFileDigest();
        if (md5 != null) {
            MD5FileUtil.verifySavedMD5(file.toFile(), md5);
        }
        MetadataImage loaded =
                MetadataImage.fromCheckpoint(Files.readAllBytes(file), file.toString());
        TermIndex at = snapshot.getTermIndex();
        if (loaded.checkpointSeq() != at.getIndex()) {
            throw new CorruptDataException(
                    "metadata snapshot "
                            + file
                            + " holds the state at log index "
                            + loaded.checkpointSeq()
                            + ", not "
                            + at.getIndex()
                            + " as its name says");
        }
        synchronized (this) {
            image = loaded;
            appliedServers = java.util.Map.copyOf(loaded.servers());
            setLastAppliedTermIndex(at);
            if (listener != null) {
                // a snapshot installed from the leader replaces everything the listener was told
                loaded.listener(listener);
                resetListener();
            }
        }
        LOG.info("metadata loaded from snapshot {} ({} tables)", file, loaded.tableCount());
    }

    /** Refuses, on the leader, bytes that are no record before they reach the log. */
    @Override
    public TransactionContext startTransaction(RaftClientRequest request) throws IOException {
        TransactionContext trx = super.startTransaction(request);
        ByteString content = request.getMessage().getContent();
        if (content.isEmpty()) {
            trx.setException(new CorruptDataException("an empty metadata record"));
        }
        return trx;
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        byte[] record = entry.getStateMachineLogEntry().getLogData().toByteArray();
        TermIndex at = TermIndex.valueOf(entry);
        long result;
        synchronized (this) {
            try {
                result = image.apply(record);
                appliedServers = java.util.Map.copyOf(image.servers());
            } catch (CorruptDataException e) {
                // The image is unchanged and every replica fails the same entry the same way, so
                // they stay identical; the writer gets the error.
                LOG.error("metadata log entry {} cannot be applied; skipped", at, e);
                updateLastAppliedTermIndex(at);
                return CompletableFuture.failedFuture(e);
            }
            updateLastAppliedTermIndex(at);
        }
        return CompletableFuture.completedFuture(Message.valueOf(encodeResult(result)));
    }

    /** A read barrier's answer: nothing; the caller reads the image once it returns. */
    @Override
    public CompletableFuture<Message> query(Message request) {
        return CompletableFuture.completedFuture(Message.EMPTY);
    }

    @Override
    public long takeSnapshot() throws IOException {
        byte[] checkpoint;
        TermIndex at;
        synchronized (this) {
            at = getLastAppliedTermIndex();
            if (at == null || at.getIndex() < 0) {
                return RaftLog.INVALID_LOG_INDEX;
            }
            checkpoint = image.toCheckpoint(at.getIndex());
        }
        Path file = storage.getSnapshotFile(at.getTerm(), at.getIndex()).toPath();
        Path tmp = file.resolveSibling(file.getFileName() + ".writing");
        // a crash leaves either no snapshot file or a whole, synced one
        DurableFiles.writeSynced(tmp, ByteBuffer.wrap(checkpoint));
        DurableFiles.moveAtomically(tmp, file);
        MD5Hash md5 = MD5FileUtil.computeAndSaveMd5ForFile(file.toFile());
        storage.updateLatestSnapshot(new SingleFileSnapshotInfo(new FileInfo(file, md5), at));
        LOG.info("metadata snapshot {} written ({} bytes)", file, checkpoint.length);
        return at.getIndex();
    }

    @Override
    public void notifyLeaderReady() {
        events.leaderReady(getServerTerm());
    }

    @Override
    public void notifyLeaderChanged(RaftGroupMemberId member, RaftPeerId newLeaderId) {
        if (newLeaderId == null || !newLeaderId.equals(member.getPeerId())) {
            events.notLeader(Optional.ofNullable(newLeaderId).map(RaftPeerId::toString));
        }
    }

    @Override
    public void notifyNotLeader(Collection<TransactionContext> pendingEntries) {
        events.notLeader(Optional.empty());
    }

    private long getServerTerm() {
        try {
            return getServer().join().getDivision(getGroupId()).getInfo().getCurrentTerm();
        } catch (IOException e) {
            return -1;
        }
    }

    /** See {@link dev.tributary.coordinator.store.MetadataStore#setListener}. */
    synchronized void setListener(MetadataListener l) {
        listener = l;
        image.listener(l);
        l.onReset(image.snapshot());
    }

    private void resetListener() {
        try {
            listener.onReset(image.snapshot());
        } catch (RuntimeException e) {
            // the image is right; the listener catches up at its next reset or change
            LOG.error("a metadata listener failed on the whole metadata", e);
        }
    }

    synchronized StoredState state() {
        return image.snapshot();
    }

    synchronized java.util.Map<Long, dev.tributary.coordinator.store.TieringRecord>
            tieringRecords() {
        return image.tieringRecords();
    }

    /**
     * The server registrations: on the apply thread (inside an apply's listener calls) as applied
     * so far; on any other thread as of the last whole apply, without waiting for one in progress.
     */
    java.util.Map<Integer, dev.tributary.coordinator.metadata.ServerRegistration> servers() {
        if (Thread.holdsLock(this)) {
            return image.servers();
        }
        return appliedServers;
    }

    synchronized Optional<TieringRecord> tieringRecord(long tableId) {
        return image.tieringRecord(tableId);
    }

    static ByteString encodeResult(long result) {
        byte[] b = new byte[8];
        ByteBuffer.wrap(b).putLong(result);
        return UnsafeByteOperations.unsafeWrap(b);
    }

    static long decodeResult(ByteString content) {
        if (content.size() != 8) {
            throw new CorruptDataException(
                    "a metadata apply result of " + content.size() + " bytes, not 8");
        }
        return content.asReadOnlyByteBuffer().getLong();
    }
}
