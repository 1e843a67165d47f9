package dev.tributary.server.rpc;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.rpc.error.GrpcErrors;
import io.grpc.MethodDescriptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Answers a request that is not a valid protobuf message of its method as bad input
 * (INVALID_ARGUMENT with the typed error trailer) instead of gRPC's own INTERNAL, so a client
 * learns that its bytes are at fault and not the server (T55).
 */
public final class MalformedRequests {
    private MalformedRequests() {}

    /** {@code service} with every method's request parsing failing as invalid input. */
    public static ServerServiceDefinition refusedAsInvalidInput(ServerServiceDefinition service) {
        ServiceDescriptor old = service.getServiceDescriptor();
        List<ServerMethodDefinition<?, ?>> methods = new ArrayList<>();
        for (ServerMethodDefinition<?, ?> m : service.getMethods()) {
            methods.add(typed(m));
        }
        ServiceDescriptor.Builder descriptor =
                ServiceDescriptor.newBuilder(old.getName())
                        .setSchemaDescriptor(old.getSchemaDescriptor());
        methods.forEach(m -> descriptor.addMethod(m.getMethodDescriptor()));
        ServerServiceDefinition.Builder out = ServerServiceDefinition.builder(descriptor.build());
        methods.forEach(out::addMethod);
        return out.build();
    }

    private static <Q, R> ServerMethodDefinition<Q, R> typed(ServerMethodDefinition<Q, R> m) {
        MethodDescriptor<Q, R> md = m.getMethodDescriptor();
        MethodDescriptor.Marshaller<Q> inner = md.getRequestMarshaller();
        MethodDescriptor.Marshaller<Q> checked =
                new MethodDescriptor.Marshaller<>() {
                    @Override
                    public InputStream stream(Q value) {
                        return inner.stream(value);
                    }

                    @Override
                    public Q parse(InputStream stream) {
                        try {
                            return inner.parse(stream);
                        } catch (StatusRuntimeException e) {
                            if (e.getStatus().getCode() != Status.Code.INTERNAL) {
                                throw e;
                            }
                            throw GrpcErrors.toStatus(
                                    new InvalidInputException(
                                            "the request is not a valid "
                                                    + md.getFullMethodName()
                                                    + " message ("
                                                    + e.getStatus().getDescription()
                                                    + "); send it with a client of this"
                                                    + " server's release"));
                        }
                    }
                };
        return ServerMethodDefinition.create(
                md.toBuilder().setRequestMarshaller(checked).build(), m.getServerCallHandler());
    }
}
