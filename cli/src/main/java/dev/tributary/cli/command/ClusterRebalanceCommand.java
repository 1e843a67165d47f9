package dev.tributary.cli.command;

import dev.tributary.cli.output.TextTable;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.ReplicaMove;
import java.io.PrintWriter;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tributary cluster rebalance}: moves replicas between servers (issue 23). */
@Command(
        name = "rebalance",
        mixinStandardHelpOptions = true,
        description = {
            "Moves replicas between the servers: every replica on a draining server (named by"
                    + " --drain now or before) moves to another server, then replicas move from the"
                    + " servers holding most to those holding fewest until every alive server that"
                    + " is not draining holds within one of the others. A drained server stays"
                    + " draining, across its restarts, until --undrain names it or it is removed:"
                    + " new tables and later rebalances place no replica on it ('tributary"
                    + " cluster' shows it as draining). Prints one line per bucket that moves and"
                    + " returns once the moves"
                    + " started; each ends on its own once its new replicas copied the log and are"
                    + " in sync (throttled by the receiving server's"
                    + " replica.move.max-bytes-per-second). Writes and reads go on meanwhile."
                    + " 'tributary cluster' counts the buckets still moving and 'tributary table"
                    + " describe' names them.",
            "Drain a server before stopping it for good: once 'tributary cluster' shows its"
                    + " BUCKETS at 0, no bucket needs it; stopped, 'tributary cluster"
                    + " remove-server' takes it out of the cluster.",
            "--cancel stops the moves under way instead: each moving bucket goes back to the"
                    + " replicas it held before, and the copies its move added go. Drained servers"
                    + " stay marked draining: the next rebalance moves replicas off them again"
                    + " unless --undrain names them."
        })
public final class ClusterRebalanceCommand implements Callable<Integer> {
    @Mixin ConnectionOptions connection;
    @Spec CommandSpec spec;

    @Option(
            names = "--drain",
            split = ",",
            paramLabel = "SERVER",
            description =
                    "Server ids to mark draining and move every replica off (e.g. --drain 3 or"
                            + " --drain 2,3).")
    List<Integer> drain = List.of();

    @Option(
            names = "--undrain",
            split = ",",
            paramLabel = "SERVER",
            description =
                    "Server ids drained before that may receive replicas again; this rebalance"
                            + " moves replicas onto them.")
    List<Integer> undrain = List.of();

    @Option(
            names = "--cancel",
            description =
                    "Cancel the moves under way: each moving bucket goes back to the replicas it"
                            + " held before. Takes no --drain or --undrain.")
    boolean cancel;

    @Option(
            names = "--dry-run",
            description = "Print the moves without marking servers or starting anything.")
    boolean dryRun;

    @Override
    public Integer call() {
        if (cancel && (!drain.isEmpty() || !undrain.isEmpty())) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--cancel takes no --drain or --undrain: cancel first, then rebalance again");
        }
        PrintWriter out = spec.commandLine().getOut();
        try (Connection c = connection.connect()) {
            if (cancel) {
                printCancelled(out, c.admin().cancelReplicaMoves(dryRun), dryRun);
            } else {
                print(
                        out,
                        c.admin().moveReplicas(Set.copyOf(drain), Set.copyOf(undrain), dryRun),
                        dryRun);
            }
        }
        return 0;
    }

    private static void printCancelled(PrintWriter out, List<ReplicaMove> moves, boolean dryRun) {
        if (moves.isEmpty()) {
            out.println("nothing to cancel: no bucket is moving");
            return;
        }
        out.println(
                moves.size()
                        + (moves.size() == 1 ? " bucket " : " buckets ")
                        + (dryRun
                                ? "would go back (dry run, nothing cancelled):"
                                : "going back (moves cancelled):"));
        table(out, moves);
    }

    static void print(PrintWriter out, List<ReplicaMove> moves, boolean dryRun) {
        if (moves.isEmpty()) {
            out.println("nothing to move: the replicas are balanced");
            return;
        }
        out.println(
                moves.size()
                        + (moves.size() == 1 ? " bucket " : " buckets ")
                        + (dryRun ? "would move (dry run, nothing started):" : "moving:"));
        table(out, moves);
    }

    private static void table(PrintWriter out, List<ReplicaMove> moves) {
        TextTable t = new TextTable("TABLE", "PARTITION", "BUCKET", "FROM", "TO");
        for (ReplicaMove m : moves) {
            t.row(m.table(), m.partition().orElse("-"), m.bucket(), m.from(), m.to());
        }
        t.print(out);
    }
}
