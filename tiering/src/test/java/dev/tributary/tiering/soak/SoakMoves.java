package dev.tributary.tiering.soak;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.ClusterInfo;
import dev.tributary.client.admin.ReplicaMove;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Predicate;

/**
 * {@link FaultKind#REPLICA_MOVE}: a server drained and filled again through the admin API, as an
 * operator does (issue 23), while the writers, lookups and tiering go on. The soak's audit then
 * checks that the moves lost and duplicated nothing.
 */
final class SoakMoves {
    /** Runs an admin call, retried while the cluster fails over (the soak's own wrapper). */
    interface Retried {
        <T> T call(Callable<T> call) throws Exception;
    }

    private final Connection admin;
    private final Retried retried;
    private final Duration maxWait;

    SoakMoves(Connection admin, Retried retried, Duration maxWait) {
        this.admin = admin;
        this.retried = retried;
        this.maxWait = maxWait;
    }

    /**
     * Drains {@code server}, runs {@code meanwhile} while the moves run (e.g. a kill -9 of some
     * server), waits until it holds no bucket and nothing moves, then undrains it and waits until
     * the moves back onto it ended.
     *
     * @return what happened, for the soak's log
     * @throws IllegalStateException if the moves did not end within the wait (the server is
     *     undrained all the same, so the rest of the soak has every server)
     */
    String drainAndRefill(int server, Callable<String> meanwhile) throws Exception {
        long start = System.nanoTime();
        List<ReplicaMove> off;
        String during;
        try {
            off = retried.call(() -> admin.admin().moveReplicas(Set.of(server), Set.of(), false));
            during = meanwhile.call();
            await("server " + server + " drained", c -> buckets(c, server) == 0);
        } catch (Exception e) {
            retried.call(() -> admin.admin().moveReplicas(Set.of(), Set.of(server), false));
            throw e;
        }
        long drainedMillis = millisSince(start);
        long back = System.nanoTime();
        List<ReplicaMove> on =
                retried.call(() -> admin.admin().moveReplicas(Set.of(), Set.of(server), false));
        await("the moves back onto server " + server, c -> on.isEmpty() || buckets(c, server) > 0);
        return String.format(
                "server %d: drained, %d buckets moved off in %d ms%s; undrained, %d moved back in"
                        + " %d ms",
                server,
                off.size(),
                drainedMillis,
                during.isEmpty() ? "" : " (meanwhile " + during + ")",
                on.size(),
                millisSince(back));
    }

    private static int buckets(ClusterInfo c, int server) {
        return c.servers().stream()
                .filter(s -> s.serverId() == server)
                .mapToInt(ClusterInfo.Server::buckets)
                .sum();
    }

    private void await(String what, Predicate<ClusterInfo> done) throws Exception {
        long deadline = System.nanoTime() + maxWait.toNanos();
        while (true) {
            ClusterInfo c = retried.call(() -> admin.admin().describeCluster());
            if (c.replication().map(r -> r.moving() == 0).orElse(false) && done.test(c)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + ": not within " + maxWait);
            }
            Thread.sleep(200);
        }
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }
}
