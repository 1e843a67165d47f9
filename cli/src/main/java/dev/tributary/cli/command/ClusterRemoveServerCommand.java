package dev.tributary.cli.command;

import dev.tributary.client.Connection;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tributary cluster remove-server}: takes a drained, stopped server out (issue 23). */
@Command(
        name = "remove-server",
        mixinStandardHelpOptions = true,
        description = {
            "Takes a server out of the cluster: out of the metadata quorum's configuration and out"
                    + " of the servers 'tributary cluster' lists. Only a server added to the"
                    + " running cluster (an observer) can go, once it holds no replica and is"
                    + " stopped: first 'tributary cluster rebalance --drain ID', wait until"
                    + " 'tributary cluster' shows its BUCKETS at 0, stop it, wait until it shows"
                    + " EXPIRED, then run this. Its data directory is left alone; started again,"
                    + " the server joins again."
        })
public final class ClusterRemoveServerCommand implements Callable<Integer> {
    @Mixin ConnectionOptions connection;
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "SERVER", description = "The id of the server to remove.")
    int serverId;

    @Override
    public Integer call() {
        try (Connection c = connection.connect()) {
            c.admin().removeServer(serverId);
        }
        spec.commandLine().getOut().println("server " + serverId + " removed from the cluster");
        return 0;
    }
}
