package dev.tributary.server.replica;

import com.google.protobuf.ByteString;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.rpc.proto.FetchKvSnapshotRequest;
import dev.tributary.rpc.proto.FetchKvSnapshotResponse;
import dev.tributary.rpc.proto.KvSnapshotFilePb;
import dev.tributary.storage.kv.KvSnapshotTransfer.Manifest;
import dev.tributary.storage.kv.KvSnapshotTransfer.SnapshotFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@link KvSnapshotFetch} to and from its protobuf messages. Shapes are checked here (signs,
 * counts); file names and chunk positions are checked where they are used ({@code
 * KvSnapshotTransfer}).
 */
public final class KvSnapshotFetchCodec {
    /** More files than a RocksDB checkpoint of one bucket holds. */
    static final int MAX_FILES = 100_000;

    private KvSnapshotFetchCodec() {}

    public static FetchKvSnapshotRequest toProto(KvSnapshotFetch.Request r) {
        return FetchKvSnapshotRequest.newBuilder()
                .setFollowerId(r.followerId())
                .setTableId(r.bucket().tableId())
                .setPartitionId(r.bucket().partitionId())
                .setBucket(r.bucket().bucket())
                .setLeaderEpoch(r.leaderEpoch())
                .setLeaseId(r.leaseId())
                .setSnapshotId(r.snapshotId())
                .setFile(r.file())
                .setPosition(r.position())
                .setMaxBytes(r.maxBytes())
                .setRelease(r.release())
                .build();
    }

    public static KvSnapshotFetch.Request fromProto(FetchKvSnapshotRequest p) {
        if (p.getBucket() < 0
                || p.getFollowerId() < 0
                || p.getLeaderEpoch() < 0
                || p.getLeaseId() < 0
                || p.getPosition() < 0
                || p.getMaxBytes() < 0) {
            throw new InvalidInputException(
                    "a KV snapshot fetch names a bucket, follower, leader epoch, lease, position and"
                            + " size >= 0");
        }
        return new KvSnapshotFetch.Request(
                p.getFollowerId(),
                new TableBucket(p.getTableId(), p.getPartitionId(), p.getBucket()),
                p.getLeaderEpoch(),
                p.getLeaseId(),
                p.getSnapshotId(),
                p.getFile(),
                p.getPosition(),
                p.getMaxBytes(),
                p.getRelease());
    }

    public static FetchKvSnapshotResponse toProto(KvSnapshotFetch.Answer a) {
        FetchKvSnapshotResponse.Builder b =
                FetchKvSnapshotResponse.newBuilder().setData(ByteString.copyFrom(a.data()));
        a.manifest()
                .ifPresent(
                        m -> {
                            b.setLeaseId(m.leaseId())
                                    .setSnapshotId(m.snapshotId())
                                    .setLogOffset(m.logOffset())
                                    .setKeyEncoding(m.keyEncoding());
                            for (SnapshotFile f : m.files()) {
                                b.addFiles(
                                        KvSnapshotFilePb.newBuilder()
                                                .setName(f.name())
                                                .setSize(f.size()));
                            }
                        });
        return b.build();
    }

    /**
     * @param manifestExpected whether the call was the first (a manifest must come back)
     */
    public static KvSnapshotFetch.Answer fromProto(
            FetchKvSnapshotResponse p, boolean manifestExpected) {
        if (!manifestExpected) {
            return new KvSnapshotFetch.Answer(Optional.empty(), p.getData().toByteArray());
        }
        if (p.getLeaseId() <= 0
                || p.getLogOffset() < 0
                || p.getFilesCount() == 0
                || p.getFilesCount() > MAX_FILES) {
            throw new InvalidInputException(
                    "the leader's KV snapshot manifest is malformed: lease "
                            + p.getLeaseId()
                            + ", offset "
                            + p.getLogOffset()
                            + ", "
                            + p.getFilesCount()
                            + " files");
        }
        List<SnapshotFile> files = new ArrayList<>(p.getFilesCount());
        for (KvSnapshotFilePb f : p.getFilesList()) {
            files.add(new SnapshotFile(f.getName(), f.getSize()));
        }
        return new KvSnapshotFetch.Answer(
                Optional.of(
                        new Manifest(
                                p.getLeaseId(),
                                p.getSnapshotId(),
                                p.getLogOffset(),
                                p.getKeyEncoding(),
                                files)),
                new byte[0]);
    }
}
