package dev.tributary.bench.cluster;

import dev.tributary.cluster.ClusterConfig;
import dev.tributary.cluster.LeadershipListener;
import dev.tributary.cluster.RaftMetadataStore;
import dev.tributary.common.config.Configuration;
import dev.tributary.coordinator.store.StoredState;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One cluster voter as its own process, driven by {@link MetadataFailoverBench}: starts a {@link
 * RaftMetadataStore} and speaks a line protocol. Arguments: {@code --dir DIR} then the {@code
 * cluster.*} options as {@code key=value} (read through {@link ClusterConfig#from}).
 *
 * <p>Every protocol line on stdout starts with {@code "@@ "} (anything else there is not ours):
 * {@code STARTED id}, {@code LEADER_READY term}, {@code NOT_LEADER leaderId|-}. Commands on stdin,
 * one per line, run one at a time: {@code write ID} (putTable of table ID) answers {@code WRITE_OK
 * ID} or {@code WRITE_FAIL ID Exception message}; {@code sync REQ} (a linearizable load) answers
 * {@code SYNC_OK REQ tableCount} or {@code SYNC_FAIL REQ Exception message}; {@code dump REQ}
 * answers {@code DUMP REQ incarnation id,id,...} from the local state (send it after a sync);
 * {@code quit} or the end of stdin closes the store and exits.
 */
public final class RaftVoterMain {
    private static final PrintStream OUT =
            new PrintStream(System.out, false, StandardCharsets.UTF_8);

    private RaftVoterMain() {}

    public static void main(String[] args) throws Exception {
        Path dir = null;
        Configuration conf = new Configuration();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--dir")) {
                dir = Path.of(args[++i]);
            } else {
                int eq = args[i].indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("expected key=value, got " + args[i]);
                }
                conf.setString(args[i].substring(0, eq), args[i].substring(eq + 1));
            }
        }
        if (dir == null) {
            throw new IllegalArgumentException("--dir is required");
        }
        ClusterConfig config =
                ClusterConfig.from(conf)
                        .orElseThrow(() -> new IllegalArgumentException("cluster.id is not set"));
        RaftMetadataStore store = RaftMetadataStore.start(config, dir);
        store.addLeadershipListener(
                new LeadershipListener() {
                    @Override
                    public void onLeaderReady(long term) {
                        say("LEADER_READY " + term);
                    }

                    @Override
                    public void onNotLeader(Optional<String> leaderId) {
                        say("NOT_LEADER " + leaderId.orElse("-"));
                    }
                });
        say("STARTED " + store.serverId());
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] cmd = line.trim().split(" ");
                if (cmd[0].equals("quit")) {
                    break;
                }
                say(handle(store, cmd));
            }
        } finally {
            store.close();
        }
    }

    private static String handle(RaftMetadataStore store, String[] cmd) {
        switch (cmd[0]) {
            case "write" -> {
                long id = Long.parseLong(cmd[1]);
                try {
                    store.putTable(MetadataBenchData.table(id));
                    return "WRITE_OK " + id;
                } catch (RuntimeException e) {
                    return "WRITE_FAIL " + id + " " + describe(e);
                }
            }
            case "sync" -> {
                try {
                    StoredState s = store.load();
                    return "SYNC_OK " + cmd[1] + " " + s.tables().size();
                } catch (RuntimeException e) {
                    return "SYNC_FAIL " + cmd[1] + " " + describe(e);
                }
            }
            case "dump" -> {
                StoredState s = store.localState();
                String ids =
                        s.tables().keySet().stream()
                                .sorted()
                                .map(String::valueOf)
                                .collect(Collectors.joining(","));
                return "DUMP " + cmd[1] + " " + s.incarnation() + " " + (ids.isEmpty() ? "-" : ids);
            }
            default -> {
                return "UNKNOWN " + String.join(" ", cmd);
            }
        }
    }

    private static String describe(RuntimeException e) {
        String msg = String.valueOf(e.getMessage()).replace('\n', ' ');
        return e.getClass().getSimpleName() + " " + msg;
    }

    private static void say(String line) {
        synchronized (OUT) {
            OUT.println("@@ " + line);
            OUT.flush();
        }
    }
}
