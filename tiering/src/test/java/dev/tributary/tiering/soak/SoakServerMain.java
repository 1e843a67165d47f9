package dev.tributary.tiering.soak;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.TieredRound;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.server.ServerExtension;
import dev.tributary.server.TributaryServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The soak's server: a real {@link TributaryServer} in its own JVM (so the soak can SIGKILL it),
 * whose lake commit step obeys the {@link SoakControl} triggers. Arguments: data dir, rpc port,
 * control dir, then {@code key=value} options. Prints {@code started <host:port>} once it serves.
 */
public final class SoakServerMain {
    private SoakServerMain() {}

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("data.dir", args[0]);
        conf.setString("server.rpc.port", args[1]);
        SoakControl control = new SoakControl(Path.of(args[2]));
        for (int i = 3; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            conf.setString(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        ServerExtension faults =
                new ServerExtension() {
                    @Override
                    public LakeCommitStep lakeCommitStep(LakeCommitStep step) {
                        return new FaultyCommitStep(step, control);
                    }
                };
        TributaryServer server = TributaryServer.start(conf, Clock.system(), List.of(faults));
        System.out.println("started " + server.rpcTarget());
        System.out.flush();
        server.awaitTermination();
        // a server stopped by a fault (e.g. its coordinator failed to take over) exits non-zero,
        // whatever threads are left
        Optional<Throwable> fatal = server.fatalError();
        System.out.println("stopped" + fatal.map(e -> ": " + e).orElse(""));
        System.out.flush();
        System.exit(fatal.isPresent() ? 1 : 0);
    }

    /** The server's real lake commit step with the soak's triggers around {@link #commit}. */
    private static final class FaultyCommitStep implements LakeCommitStep {
        private final LakeCommitStep step;
        private final SoakControl control;

        FaultyCommitStep(LakeCommitStep step, SoakControl control) {
            this.step = step;
            this.control = control;
        }

        @Override
        public LakeCommitResult commit(
                TablePath path,
                List<byte[]> writeResults,
                TieringSnapshotProperties properties,
                TieredRound base)
                throws Exception {
            if (!writeResults.isEmpty() && control.consume(SoakControl.FAIL_BEFORE_COMMIT)) {
                throw new StorageException("injected: lake commit of " + path + " failed");
            }
            if (!writeResults.isEmpty() && control.consume(SoakControl.PAUSE_BEFORE_COMMIT)) {
                System.out.println(
                        "pausing myself before the lake commit of "
                                + path
                                + " epoch "
                                + properties.epoch()
                                + " round "
                                + properties.roundId());
                System.out.flush();
                signalMyself("-STOP");
                System.out.println("resumed: committing round " + properties.roundId() + " now");
                System.out.flush();
            }
            LakeCommitResult result = step.commit(path, writeResults, properties, base);
            if (writeResults.isEmpty()) {
                return result;
            }
            if (control.consume(SoakControl.KILL_AFTER_COMMIT)) {
                System.out.println(
                        "killing myself after the lake commit of "
                                + path
                                + " epoch "
                                + properties.epoch()
                                + ", before the coordinator records it");
                System.out.flush();
                signalMyself("-9");
                Runtime.getRuntime().halt(137);
            }
            if (control.consume(SoakControl.FAIL_AFTER_COMMIT)) {
                throw new StorageException(
                        "injected: the lake commit of " + path + " landed, then the call failed");
            }
            return result;
        }

        /** Sends {@code signal} to this process; returns once it runs again (if it does). */
        private static void signalMyself(String signal) throws Exception {
            new ProcessBuilder("kill", signal, Long.toString(ProcessHandle.current().pid()))
                    .start()
                    .waitFor(10, TimeUnit.SECONDS);
        }

        @Override
        public void abort(TablePath path, List<byte[]> writeResults) throws Exception {
            step.abort(path, writeResults);
        }

        @Override
        public List<String> deleteOrphanFiles(TablePath path, OrphanPolicy policy)
                throws Exception {
            return step.deleteOrphanFiles(path, policy);
        }

        @Override
        public Optional<LakeSnapshot> latestTieringSnapshot(TablePath path, long tableId)
                throws Exception {
            return step.latestTieringSnapshot(path, tableId);
        }
    }
}
