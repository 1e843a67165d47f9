package dev.tributary.cli.command;

import dev.tributary.cli.output.TextTable;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.ClusterInfo;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The servers registered in the cluster metadata and which one coordinates (T49). */
@Command(
        name = "cluster",
        mixinStandardHelpOptions = true,
        subcommands = {
            ClusterStartCommand.class,
            ClusterRebalanceCommand.class,
            ClusterRemoveServerCommand.class
        },
        description = {
            "The cluster the server belongs to (or that it runs alone), which server is the"
                    + " coordinator and, in a cluster, the metadata quorum's Raft term and leader;"
                    + " then one line per server registered in the metadata: id, RPC address, HTTP"
                    + " address, when it registered (its last start), its role (the coordinator;"
                    + " an observer: a server added to the running cluster, which does not vote"
                    + " in the metadata quorum), and whether the"
                    + " coordinator counts it as alive with the time since its last heartbeat (a"
                    + " stopped server stays listed, EXPIRED once its heartbeats stopped for"
                    + " cluster.server.heartbeat-timeout). The coordinator also counts the"
                    + " buckets that are under-replicated (a replica outside the in-sync set)"
                    + " or have no leader (T50).",
            "'tributary cluster start --servers 3' runs a cluster of server processes on this"
                    + " machine; 'tributary cluster rebalance' moves replicas between servers (and"
                    + " drains one); 'tributary cluster remove-server' takes a drained, stopped"
                    + " server out."
        })
public final class ClusterCommand implements Callable<Integer> {
    @Mixin ConnectionOptions connection;
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (Connection c = connection.connect()) {
            print(out, c.admin().describeCluster());
        }
        return 0;
    }

    static void print(PrintWriter out, ClusterInfo info) {
        StringBuilder head = new StringBuilder();
        head.append("cluster: ").append(info.clustered() ? info.clusterId() : "(a lone server)");
        head.append("   coordinator: ")
                .append(
                        info.coordinatorId().isPresent()
                                ? "server " + info.coordinatorId().getAsInt()
                                : "unknown (an election is running)");
        if (info.raftTerm().isPresent()) {
            head.append("   metadata Raft term: ").append(info.raftTerm().getAsLong());
            head.append("   leader: ")
                    .append(
                            info.raftLeaderId().isPresent()
                                    ? "server " + info.raftLeaderId().getAsInt()
                                    : "unknown");
        }
        out.println(head);
        info.replication()
                .ifPresent(
                        r ->
                                out.println(
                                        "buckets: "
                                                + r.buckets()
                                                + "   under-replicated: "
                                                + r.underReplicated()
                                                + "   without a leader: "
                                                + r.leaderless()
                                                + (r.moving() > 0 ? "   moving: " + r.moving() : "")
                                                + (r.notPreferredLeader() > 0
                                                        ? "   not on their preferred leader: "
                                                                + r.notPreferredLeader()
                                                        : "")
                                                + (r.underReplicated() > 0
                                                        ? "   (tributary table describe <table>"
                                                                + " names them)"
                                                        : "")));
        TextTable t =
                new TextTable(
                        "SERVER",
                        "RPC ADDRESS",
                        "HTTP ADDRESS",
                        "REGISTERED",
                        "ROLE",
                        "LIVENESS",
                        "LAST HEARTBEAT",
                        "BUCKETS",
                        "REPORTED");
        for (ClusterInfo.Server s : info.servers()) {
            t.row(
                    s.serverId(),
                    s.rpcAddress(),
                    s.httpAddress().isEmpty() ? "-" : s.httpAddress(),
                    Instant.ofEpochMilli(s.registeredAtMillis()).toString(),
                    role(s),
                    s.liveness().name(),
                    s.millisSinceHeartbeat().isPresent()
                            ? s.millisSinceHeartbeat().getAsLong() + " ms ago"
                            : "-",
                    s.buckets(),
                    s.reportedBuckets());
        }
        t.print(out);
    }

    private static String role(ClusterInfo.Server s) {
        String role = s.coordinator() ? "coordinator" : s.observer() ? "observer" : "";
        if (s.draining()) {
            role = role.isEmpty() ? "draining" : role + ", draining";
        }
        return role.isEmpty() ? "-" : role;
    }
}
