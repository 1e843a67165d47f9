package dev.tributary.server.process;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.time.Clock;
import dev.tributary.rpc.proto.WriteResponse;
import dev.tributary.server.ServerExtension;
import dev.tributary.server.TributaryServer;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real server in a child JVM that SIGKILLs itself between the fsync of a write and its ack: while
 * the trigger file exists, the first write response about to be sent (the store answers only once
 * the batch is durable) kills the process instead. Arguments: data dir, rpc port, trigger file,
 * then {@code key=value} options.
 */
public final class ChildServerMain {
    private ChildServerMain() {}

    public static void main(String[] args) throws Exception {
        Path trigger = Path.of(args[2]);
        Configuration conf = new Configuration();
        conf.setString("data.dir", args[0]);
        conf.setString("server.rpc.port", args[1]);
        conf.setString("server.http.port", "-1");
        for (int i = 3; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            conf.setString(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        ServerExtension killer =
                new ServerExtension() {
                    @Override
                    public List<ServerInterceptor> rpcInterceptors() {
                        return List.of(new KillBeforeAck(trigger));
                    }
                };
        TributaryServer server = TributaryServer.start(conf, Clock.system(), List.of(killer));
        System.out.println("started " + server.rpcTarget());
        System.out.flush();
        server.awaitTermination();
    }

    private static final class KillBeforeAck implements ServerInterceptor {
        private final Path trigger;

        KillBeforeAck(Path trigger) {
            this.trigger = trigger;
        }

        @Override
        public <Q, R> ServerCall.Listener<Q> interceptCall(
                ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
            return next.startCall(
                    new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
                        @Override
                        public void sendMessage(R message) {
                            if (message instanceof WriteResponse && Files.exists(trigger)) {
                                killSelf();
                            }
                            super.sendMessage(message);
                        }
                    },
                    headers);
        }
    }

    private static void killSelf() {
        System.out.println("durable, killing myself before the ack");
        System.out.flush();
        try {
            new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid()))
                    .start()
                    .waitFor(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            // fall through to halt
        }
        Runtime.getRuntime().halt(137);
    }
}
