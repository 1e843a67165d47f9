package dev.tributary.cluster;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;

/** The Ratis settings of the metadata quorum, derived from a {@link ClusterConfig}. */
final class RaftSettings {
    private static final long PREALLOCATE_MAX = 4L << 20;

    private RaftSettings() {}

    /** The same id on every voter of a cluster, and a different one for another cluster id. */
    static RaftGroupId groupId(String clusterId) {
        return RaftGroupId.valueOf(
                UUID.nameUUIDFromBytes(
                        ("tributary-cluster-metadata:" + clusterId)
                                .getBytes(StandardCharsets.UTF_8)));
    }

    static RaftPeerId peerId(int serverId) {
        return RaftPeerId.valueOf(Integer.toString(serverId));
    }

    /**
     * The voters, and an observer itself as a listener: a new observer's peer must know the group
     * before the leader sends it entries (its stored configuration replaces this at later starts).
     */
    static RaftGroup group(ClusterConfig config) {
        List<RaftPeer> peers = new ArrayList<>();
        config.voters().forEach(v -> peers.add(peer(v, RaftPeerRole.FOLLOWER)));
        if (config.isObserver()) {
            peers.add(observerPeer(config));
        }
        return RaftGroup.valueOf(groupId(config.clusterId()), peers);
    }

    /** The voters alone: where a client sends requests (only a voter leads). */
    static RaftGroup voterGroup(ClusterConfig config) {
        return RaftGroup.valueOf(
                groupId(config.clusterId()),
                config.voters().stream().map(v -> peer(v, RaftPeerRole.FOLLOWER)).toList());
    }

    /** An observer's peer: a Ratis listener, which gets the log but neither votes nor leads. */
    static RaftPeer observerPeer(ClusterConfig config) {
        return peer(config.self(), RaftPeerRole.LISTENER);
    }

    private static RaftPeer peer(ClusterConfig.Voter v, RaftPeerRole role) {
        return RaftPeer.newBuilder()
                .setId(peerId(v.id()))
                .setAddress(v.address())
                .setStartupRole(role)
                .build();
    }

    static RaftProperties properties(ClusterConfig config, Path dir) {
        RaftProperties p = new RaftProperties();
        RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
        GrpcConfigKeys.Server.setHost(p, config.self().host());
        GrpcConfigKeys.Server.setPort(p, config.self().port());
        RaftServerConfigKeys.setStorageDir(p, List.of(dir.toFile().getAbsoluteFile()));

        // Elections: a follower waits a random [t, 2t] without heartbeats before it stands; the
        // leader steps down by itself when no majority answered it for 2t (Ratis's
        // LeaderState.checkLeadership, always on), so an isolated coordinator stops acting.
        long electionMs = config.electionTimeout().toMillis();
        RaftServerConfigKeys.Rpc.setTimeoutMin(p, ms(electionMs));
        RaftServerConfigKeys.Rpc.setTimeoutMax(p, ms(2 * electionMs));
        // pre-vote: a server back from a partition cannot depose a healthy leader
        RaftServerConfigKeys.LeaderElection.setPreVote(p, true);
        // a voter whose process was paused (SIGSTOP, a VM freeze, a long GC) rejoins as a
        // follower when it resumes, as after a partition: Ratis would instead close its server
        // for good after a pause over 60 s, leaving the process up without a metadata quorum
        // member (found by the fault soak: a 60 s SIGSTOP while another voter was wiped)
        RaftServerConfigKeys.setCloseThreshold(p, TimeDuration.valueOf(365, TimeUnit.DAYS));

        // Durability: an entry is fsync'd on the leader before it counts towards the majority,
        // and on a follower before it acknowledges (Ratis's defaults, pinned here).
        RaftServerConfigKeys.Log.setUnsafeFlushEnabled(p, false);
        RaftServerConfigKeys.Log.setAsyncFlushEnabled(p, false);
        RaftServerConfigKeys.Log.setSegmentSizeMax(
                p, SizeInBytes.valueOf(config.logSegmentBytes()));
        RaftServerConfigKeys.Log.setPreallocatedSize(
                p, SizeInBytes.valueOf(Math.min(PREALLOCATE_MAX, config.logSegmentBytes())));

        // Snapshots, then purge the closed segments they cover; a follower that needs a purged
        // entry is sent the snapshot (install snapshot, on by default).
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, config.snapshotThreshold());
        RaftServerConfigKeys.Snapshot.setRetentionFileNum(p, 2);
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
        RaftServerConfigKeys.Log.setPurgeGap(
                p, (int) Math.min(1024, Math.max(1, config.snapshotThreshold())));
        RaftServerConfigKeys.Log.Appender.setInstallSnapshotEnabled(p, true);

        // Reads: a read barrier confirms leadership with a round of heartbeats (no lease, which
        // would trust clocks) and waits until the read index is applied locally.
        RaftServerConfigKeys.Read.setOption(p, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
        RaftServerConfigKeys.Read.setLeaderLeaseEnabled(p, false);
        RaftServerConfigKeys.Read.setTimeout(p, ms(config.requestTimeout().toMillis()));
        return p;
    }

    private static TimeDuration ms(long millis) {
        return TimeDuration.valueOf(millis, TimeUnit.MILLISECONDS);
    }
}
