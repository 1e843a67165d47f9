package dev.tributary.rpc.error;

import dev.tributary.common.exception.AlreadyExistsException;
import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotCoordinatorException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.exception.OutOfOrderSequenceException;
import dev.tributary.common.exception.PartitionNotFoundException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.exception.UnauthenticatedException;
import io.grpc.Status;
import java.util.function.Function;

/**
 * The stable wire codes of Tributary's typed exceptions. A code never changes meaning once
 * released: clients of any version map it back to the same exception class. New exception types get
 * new codes; a code a client does not know maps to {@link #INTERNAL}.
 */
public enum ErrorCode {
    INVALID_INPUT(
            1,
            InvalidInputException.class,
            Status.Code.INVALID_ARGUMENT,
            InvalidInputException::new),
    INVALID_CONFIG(
            2,
            InvalidConfigException.class,
            Status.Code.INVALID_ARGUMENT,
            InvalidConfigException::new),
    NOT_FOUND(3, NotFoundException.class, Status.Code.NOT_FOUND, NotFoundException::new),
    ALREADY_EXISTS(
            4,
            AlreadyExistsException.class,
            Status.Code.ALREADY_EXISTS,
            AlreadyExistsException::new),
    FENCED(5, FencedException.class, Status.Code.FAILED_PRECONDITION, FencedException::new),
    UNAUTHENTICATED(
            6,
            UnauthenticatedException.class,
            Status.Code.UNAUTHENTICATED,
            UnauthenticatedException::new),
    RETRIABLE(7, RetriableException.class, Status.Code.UNAVAILABLE, RetriableException::new),
    STORAGE(8, StorageException.class, Status.Code.INTERNAL, StorageException::new),
    CORRUPT_DATA(9, CorruptDataException.class, Status.Code.DATA_LOSS, CorruptDataException::new),
    /** A server bug or an exception outside the typed hierarchy. */
    INTERNAL(10, ServerInternalException.class, Status.Code.INTERNAL, ServerInternalException::new),
    /** An idempotent writer's batch out of sequence (T42); older clients see it as INTERNAL. */
    OUT_OF_ORDER_SEQUENCE(
            11,
            OutOfOrderSequenceException.class,
            Status.Code.FAILED_PRECONDITION,
            OutOfOrderSequenceException::new),
    /**
     * A write or lookup named a partition that does not exist and is not created on first write
     * (T30); older clients see it as INTERNAL.
     */
    PARTITION_NOT_FOUND(
            12,
            PartitionNotFoundException.class,
            Status.Code.NOT_FOUND,
            PartitionNotFoundException::new),
    /**
     * A write, read or lookup reached a server that does not hold the bucket (T49); older clients
     * see it as INTERNAL, or as retriable by its gRPC code.
     */
    NOT_LEADER_FOR_BUCKET(
            13,
            NotLeaderForBucketException.class,
            Status.Code.UNAVAILABLE,
            NotLeaderForBucketException::new),
    /**
     * A coordinator call (admin, tiering) reached a server that does not lead the metadata quorum
     * (T49); the leader's id and RPC address, when known, travel in trailers ({@link
     * GrpcErrors#LEADER_ID_KEY}, {@link GrpcErrors#LEADER_ADDRESS_KEY}). Older clients see it as
     * INTERNAL, or as retriable by its gRPC code (a failover is brief).
     */
    NOT_COORDINATOR(
            14,
            NotCoordinatorException.class,
            Status.Code.UNAVAILABLE,
            message -> new NotCoordinatorException(message, null));

    private final int code;
    private final Class<? extends TributaryException> exceptionClass;
    private final Status.Code grpcCode;
    private final Function<String, TributaryException> factory;

    ErrorCode(
            int code,
            Class<? extends TributaryException> exceptionClass,
            Status.Code grpcCode,
            Function<String, TributaryException> factory) {
        this.code = code;
        this.exceptionClass = exceptionClass;
        this.grpcCode = grpcCode;
        this.factory = factory;
    }

    public int code() {
        return code;
    }

    public Class<? extends TributaryException> exceptionClass() {
        return exceptionClass;
    }

    /** The gRPC status code that carries this error (for clients that ignore the trailer). */
    public Status.Code grpcCode() {
        return grpcCode;
    }

    /** A new exception of this code's class with the given message. */
    public TributaryException toException(String message) {
        return factory.apply(message);
    }

    /** The code for {@code code}, or {@link #INTERNAL} when unknown (a newer server). */
    public static ErrorCode fromCode(int code) {
        for (ErrorCode c : values()) {
            if (c.code == code) {
                return c;
            }
        }
        return INTERNAL;
    }

    /**
     * The code of the most specific class in the table that {@code t} is an instance of, so that a
     * subclass defined by a module (e.g. a storage-specific {@link StorageException}) keeps its
     * family's code.
     */
    public static ErrorCode forThrowable(Throwable t) {
        ErrorCode best = INTERNAL;
        Class<?> bestClass = null;
        for (ErrorCode c : values()) {
            if (c.exceptionClass.isInstance(t)
                    && (bestClass == null || bestClass.isAssignableFrom(c.exceptionClass))) {
                best = c;
                bestClass = c.exceptionClass;
            }
        }
        return best;
    }
}
