package dev.tributary.cluster;

import dev.tributary.common.exception.RetriableException;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.SetConfigurationRequest;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftConfiguration;
import org.apache.ratis.util.TimeDuration;

/**
 * Ratis admin calls to the metadata quorum's voters, from any server: an observer joining the
 * configuration as a listener or leaving it, the leadership handed to another voter. Each call
 * gives up after a few tries (Ratis's client default retries forever), so a caller's own retry
 * loop, or its stop, is never stuck while no voter answers.
 *
 * @throws RetriableException from each call when the voters refused or did not answer
 */
final class QuorumAdmin {
    private final ClusterConfig config;

    QuorumAdmin(ClusterConfig config) {
        this.config = config;
    }

    /** Adds {@code listener} to the configuration; a no-op when it is in already. */
    void addListener(RaftPeer listener) throws IOException {
        setConfiguration(
                SetConfigurationRequest.Arguments.newBuilder()
                        .setServersInNewConf(List.of())
                        .setListenersInNewConf(List.of(listener))
                        .setMode(SetConfigurationRequest.Mode.ADD)
                        .build());
    }

    /**
     * Takes listener {@code id} out of {@code current}, the configuration as this server knows it
     * (refused if it changed meanwhile); false when it is not in it.
     */
    boolean removeListener(RaftConfiguration current, String id) throws IOException {
        Collection<RaftPeer> voters = current.getCurrentPeers(RaftPeerRole.FOLLOWER);
        Collection<RaftPeer> listeners = current.getCurrentPeers(RaftPeerRole.LISTENER);
        List<RaftPeer> remaining =
                listeners.stream().filter(p -> !p.getId().toString().equals(id)).toList();
        if (remaining.size() == listeners.size()) {
            return false;
        }
        setConfiguration(
                SetConfigurationRequest.Arguments.newBuilder()
                        .setServersInCurrentConf(List.copyOf(voters))
                        .setListenersInCurrentConf(List.copyOf(listeners))
                        .setServersInNewConf(List.copyOf(voters))
                        .setListenersInNewConf(remaining)
                        .setMode(SetConfigurationRequest.Mode.COMPARE_AND_SET)
                        .build());
        return true;
    }

    /** Asks {@code leader} to hand the leadership to {@code target}. */
    void transferLeadership(String leader, String target) throws IOException {
        try (RaftClient client = client().setLeaderId(RaftPeerId.valueOf(leader)).build()) {
            check(
                    client.admin()
                            .transferLeadership(
                                    RaftPeerId.valueOf(target),
                                    config.requestTimeout().toMillis()));
        }
    }

    private void setConfiguration(SetConfigurationRequest.Arguments change) throws IOException {
        try (RaftClient client = client().build()) {
            check(client.admin().setConfiguration(change));
        }
    }

    private static void check(RaftClientReply reply) {
        if (!reply.isSuccess()) {
            throw new RetriableException(
                    "the metadata quorum refused: " + reply.getException(), reply.getException());
        }
    }

    private RaftClient.Builder client() {
        RaftProperties p = new RaftProperties();
        RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
        return RaftClient.newBuilder()
                .setRaftGroup(RaftSettings.voterGroup(config))
                .setProperties(p)
                .setRetryPolicy(
                        RetryPolicies.retryUpToMaximumCountWithFixedSleep(
                                2 * config.voters().size(),
                                TimeDuration.valueOf(
                                        config.electionTimeout().toMillis() / 2,
                                        TimeUnit.MILLISECONDS)));
    }
}
