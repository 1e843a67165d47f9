package dev.tributary.cluster;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidConfigException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The validated cluster settings of one server.
 *
 * @param clusterId the cluster's name (never empty)
 * @param serverId this server's id: one of {@code voters}, or the observer's
 * @param voters the servers replicating the metadata, in configured order
 * @param electionTimeout the minimum election timeout (the maximum is twice it)
 * @param requestTimeout bound on a metadata write or read barrier
 * @param snapshotThreshold applied entries between two snapshots
 * @param logSegmentBytes size at which a log segment is closed
 * @param observer this server's Raft address when it is an observer (not among {@code voters}: it
 *     follows the metadata without voting), empty for a voter
 */
public record ClusterConfig(
        String clusterId,
        int serverId,
        List<Voter> voters,
        Duration electionTimeout,
        Duration requestTimeout,
        long snapshotThreshold,
        long logSegmentBytes,
        Optional<Voter> observer) {

    /** One voter: its id and the address of its Raft port. */
    public record Voter(int id, String host, int port) {
        /** {@code host:port}, bracketing an IPv6 host. */
        public String address() {
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        }

        @Override
        public String toString() {
            return id + "@" + address();
        }
    }

    public ClusterConfig {
        voters = List.copyOf(voters);
    }

    /** A voter's settings. */
    public ClusterConfig(
            String clusterId,
            int serverId,
            List<Voter> voters,
            Duration electionTimeout,
            Duration requestTimeout,
            long snapshotThreshold,
            long logSegmentBytes) {
        this(
                clusterId,
                serverId,
                voters,
                electionTimeout,
                requestTimeout,
                snapshotThreshold,
                logSegmentBytes,
                Optional.empty());
    }

    /** This server's id and Raft address. */
    public Voter self() {
        return observer.orElseGet(
                () -> voters.stream().filter(v -> v.id() == serverId).findFirst().orElseThrow());
    }

    /** Whether this server follows the metadata without voting (it never coordinates). */
    public boolean isObserver() {
        return observer.isPresent();
    }

    /**
     * Reads and validates the {@link ClusterOptions}.
     *
     * @return empty when {@code cluster.id} is unset (the single embedded server)
     * @throws InvalidConfigException naming the option and what to change
     */
    public static Optional<ClusterConfig> from(Configuration conf) {
        String clusterId = conf.get(ClusterOptions.CLUSTER_ID).trim();
        String votersText = conf.get(ClusterOptions.VOTERS).trim();
        if (clusterId.isEmpty()) {
            if (!votersText.isEmpty() || conf.contains(ClusterOptions.SERVER_ID)) {
                throw new InvalidConfigException(
                        "'"
                                + ClusterOptions.VOTERS.key()
                                + "' or '"
                                + ClusterOptions.SERVER_ID.key()
                                + "' is set but '"
                                + ClusterOptions.CLUSTER_ID.key()
                                + "' is not: set cluster.id (the same on every voter) to run as"
                                + " a cluster, or remove the cluster.* options to run alone");
            }
            return Optional.empty();
        }
        if (votersText.isEmpty()) {
            throw new InvalidConfigException(
                    "'"
                            + ClusterOptions.CLUSTER_ID.key()
                            + "' is set but '"
                            + ClusterOptions.VOTERS.key()
                            + "' is empty: list every voter as id@host:raftPort, separated by"
                            + " commas (the same list on every voter)");
        }
        List<Voter> voters = parseVoters(votersText);
        Integer serverId =
                conf.getOptional(ClusterOptions.SERVER_ID)
                        .orElseThrow(
                                () ->
                                        new InvalidConfigException(
                                                "'"
                                                        + ClusterOptions.SERVER_ID.key()
                                                        + "' is not set: set it to this"
                                                        + " server's id among "
                                                        + ClusterOptions.VOTERS.key()
                                                        + " "
                                                        + voters));
        String observerText = conf.get(ClusterOptions.OBSERVER_ADDRESS).trim();
        Optional<Voter> observer = Optional.empty();
        if (!observerText.isEmpty()) {
            observer = Optional.of(observer(serverId, observerText, voters));
        } else if (voters.stream().noneMatch(v -> v.id() == serverId)) {
            throw new InvalidConfigException(
                    "'"
                            + ClusterOptions.SERVER_ID.key()
                            + "' is "
                            + serverId
                            + ", which is not among '"
                            + ClusterOptions.VOTERS.key()
                            + "' "
                            + voters
                            + ": use this server's id from that list, or set '"
                            + ClusterOptions.OBSERVER_ADDRESS.key()
                            + "' to add this server to the running cluster as an observer");
        }
        return Optional.of(
                new ClusterConfig(
                        clusterId,
                        serverId,
                        voters,
                        conf.get(ClusterOptions.ELECTION_TIMEOUT),
                        conf.get(ClusterOptions.REQUEST_TIMEOUT),
                        conf.get(ClusterOptions.SNAPSHOT_THRESHOLD),
                        conf.get(ClusterOptions.LOG_SEGMENT_SIZE).bytes(),
                        observer));
    }

    private static Voter observer(int serverId, String address, List<Voter> voters) {
        Voter self;
        try {
            self = parseVoter(serverId + "@" + address);
        } catch (InvalidConfigException e) {
            throw new InvalidConfigException(
                    "invalid value '"
                            + address
                            + "' in '"
                            + ClusterOptions.OBSERVER_ADDRESS.key()
                            + "': not of the form host:raftPort, e.g. 10.0.0.4:9301");
        }
        for (Voter v : voters) {
            if (v.id() == serverId || v.address().equalsIgnoreCase(self.address())) {
                throw new InvalidConfigException(
                        "'"
                                + ClusterOptions.OBSERVER_ADDRESS.key()
                                + "' is set but voter "
                                + v
                                + " has this server's "
                                + (v.id() == serverId ? "id " + serverId : "address")
                                + ": an observer is a server that is not among '"
                                + ClusterOptions.VOTERS.key()
                                + "'; give it its own id and Raft address, or remove '"
                                + ClusterOptions.OBSERVER_ADDRESS.key()
                                + "' to run it as that voter");
            }
        }
        return self;
    }

    /**
     * Parses {@code id@host:port,...}; refuses malformed entries and duplicate ids or addresses.
     */
    static List<Voter> parseVoters(String text) {
        List<Voter> voters = new ArrayList<>();
        Map<Integer, Voter> byId = new HashMap<>();
        Map<String, Voter> byAddress = new HashMap<>();
        for (String raw : text.split(",", -1)) {
            Voter v = parseVoter(raw.trim());
            Voter sameId = byId.putIfAbsent(v.id(), v);
            if (sameId != null) {
                throw invalidVoters(
                        text,
                        "id " + v.id() + " is used twice (" + sameId + ", " + v + ")",
                        "give every voter its own id");
            }
            Voter sameAddress = byAddress.putIfAbsent(v.address().toLowerCase(Locale.ROOT), v);
            if (sameAddress != null) {
                throw invalidVoters(
                        text,
                        "address "
                                + v.address()
                                + " is used twice ("
                                + sameAddress
                                + ", "
                                + v
                                + ")",
                        "give every voter its own host:raftPort");
            }
            voters.add(v);
        }
        return voters;
    }

    private static Voter parseVoter(String s) {
        String form = "id@host:raftPort, e.g. 1@127.0.0.1:9301";
        int at = s.indexOf('@');
        int colon = s.lastIndexOf(':');
        if (at <= 0 || colon < at + 2 || colon == s.length() - 1) {
            throw invalidVoters(s, "not of the form " + form, "fix the entry");
        }
        String host = s.substring(at + 1, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int id;
        int port;
        try {
            id = Integer.parseInt(s.substring(0, at));
            port = Integer.parseInt(s.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw invalidVoters(s, "the id or the port is not a number (" + form + ")", "fix it");
        }
        if (id < 0) {
            throw invalidVoters(s, "the id is negative", "use a non-negative integer");
        }
        if (port < 1 || port > 65535) {
            throw invalidVoters(s, "the port is not between 1 and 65535", "fix it");
        }
        if (host.isBlank() || host.chars().anyMatch(Character::isWhitespace)) {
            throw invalidVoters(s, "the host is empty or has blanks", "fix it");
        }
        return new Voter(id, host, port);
    }

    private static InvalidConfigException invalidVoters(String value, String why, String todo) {
        return new InvalidConfigException(
                "invalid value '"
                        + value
                        + "' in '"
                        + ClusterOptions.VOTERS.key()
                        + "': "
                        + why
                        + "; "
                        + todo);
    }
}
