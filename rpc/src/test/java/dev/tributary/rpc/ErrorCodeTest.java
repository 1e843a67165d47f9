package dev.tributary.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.exception.NotCoordinatorException;
import dev.tributary.common.exception.OutOfOrderSequenceException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.rpc.error.ErrorCode;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.error.ServerInternalException;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ErrorCodeTest {

    @Test
    void codesAreUniqueAndStable() {
        Set<Integer> seen = new HashSet<>();
        for (ErrorCode c : ErrorCode.values()) {
            assertThat(seen.add(c.code())).as("duplicate code %s", c).isTrue();
            assertThat(ErrorCode.fromCode(c.code())).isSameAs(c);
        }
        // released codes never change meaning
        assertThat(ErrorCode.INVALID_INPUT.code()).isEqualTo(1);
        assertThat(ErrorCode.FENCED.code()).isEqualTo(5);
        assertThat(ErrorCode.RETRIABLE.code()).isEqualTo(7);
        assertThat(ErrorCode.PARTITION_NOT_FOUND.code()).isEqualTo(12);
        assertThat(ErrorCode.NOT_LEADER_FOR_BUCKET.code()).isEqualTo(13);
        assertThat(ErrorCode.NOT_COORDINATOR.code()).isEqualTo(14);
        assertThat(ErrorCode.fromCode(999)).isSameAs(ErrorCode.INTERNAL);
    }

    @Test
    void everyTypedExceptionRoundTripsToTheSameClass() {
        for (ErrorCode c : ErrorCode.values()) {
            TributaryException original = c.toException("boom " + c);
            TributaryException back = GrpcErrors.fromThrowable(GrpcErrors.toStatus(original));
            assertThat(back).isExactlyInstanceOf(original.getClass());
            assertThat(back).hasMessage("boom " + c);
        }
    }

    @Test
    void mostSpecificClassWins() {
        assertThat(ErrorCode.forThrowable(new InvalidConfigException("x")))
                .isSameAs(ErrorCode.INVALID_CONFIG);
        class DiskFull extends StorageException {
            DiskFull() {
                super("disk full");
            }
        }
        assertThat(ErrorCode.forThrowable(new DiskFull())).isSameAs(ErrorCode.STORAGE);
        assertThat(ErrorCode.forThrowable(new OutOfOrderSequenceException("gap")))
                .isSameAs(ErrorCode.OUT_OF_ORDER_SEQUENCE);
        assertThat(
                        ErrorCode.forThrowable(
                                new dev.tributary.common.exception.PartitionNotFoundException("p")))
                .isSameAs(ErrorCode.PARTITION_NOT_FOUND);
        // a retriable exception, but its own code so a client knows to look for the bucket
        assertThat(
                        ErrorCode.forThrowable(
                                new dev.tributary.common.exception.NotLeaderForBucketException(
                                        "b")))
                .isSameAs(ErrorCode.NOT_LEADER_FOR_BUCKET);
        assertThat(
                        ErrorCode.forThrowable(
                                new dev.tributary.common.exception.NotCoordinatorException(
                                        "c", "2")))
                .as("more specific than its family, FENCED")
                .isSameAs(ErrorCode.NOT_COORDINATOR);
        assertThat(ErrorCode.forThrowable(new IllegalStateException("bug")))
                .isSameAs(ErrorCode.INTERNAL);
    }

    @Test
    void notCoordinatorCarriesTheLeaderInTrailers() {
        assertThat(ErrorCode.forThrowable(new NotCoordinatorException("n", "2")))
                .isSameAs(ErrorCode.NOT_COORDINATOR);
        TributaryException back =
                GrpcErrors.fromThrowable(
                        GrpcErrors.toStatus(
                                new NotCoordinatorException("not me", "2", "host-b:9123")));
        assertThat(back).isExactlyInstanceOf(NotCoordinatorException.class).hasMessage("not me");
        NotCoordinatorException nce = (NotCoordinatorException) back;
        assertThat(nce.leaderId()).contains("2");
        assertThat(nce.leaderAddress()).contains("host-b:9123");
        // still a fenced error for callers that only know the family
        assertThat(back).isInstanceOf(FencedException.class);

        // no leader known: both absent
        NotCoordinatorException none =
                (NotCoordinatorException)
                        GrpcErrors.fromThrowable(
                                GrpcErrors.toStatus(new NotCoordinatorException("none", null)));
        assertThat(none.leaderId()).isEmpty();
        assertThat(none.leaderAddress()).isEmpty();
    }

    @Test
    void malformedLeaderTrailersAreIgnored() {
        Metadata trailers = new Metadata();
        trailers.put(GrpcErrors.ERROR_CODE_KEY, Integer.toString(ErrorCode.NOT_COORDINATOR.code()));
        trailers.put(GrpcErrors.LEADER_ID_KEY, "x".repeat(5000));
        trailers.put(GrpcErrors.LEADER_ADDRESS_KEY, "");
        StatusRuntimeException e =
                Status.FAILED_PRECONDITION.withDescription("m").asRuntimeException(trailers);
        NotCoordinatorException back = (NotCoordinatorException) GrpcErrors.fromThrowable(e);
        assertThat(back.leaderId()).isEmpty();
        assertThat(back.leaderAddress()).isEmpty();

        // an over-long address is not sent at all
        StatusRuntimeException out =
                GrpcErrors.toStatus(new NotCoordinatorException("m", "1", "h".repeat(400)));
        assertThat(out.getTrailers().get(GrpcErrors.LEADER_ADDRESS_KEY)).isNull();
        assertThat(out.getTrailers().get(GrpcErrors.LEADER_ID_KEY)).isEqualTo("1");
    }

    @Test
    void aServersTypedAnswerIsToldApartFromATransportFailure() {
        // both retriable: one a server saying "not yet", one a server that could not be reached
        StatusRuntimeException answered =
                GrpcErrors.toStatus(new RetriableException("starting its coordinator"));
        StatusRuntimeException unreachable = Status.UNAVAILABLE.asRuntimeException();
        assertThat(GrpcErrors.fromThrowable(answered)).isInstanceOf(RetriableException.class);
        assertThat(GrpcErrors.fromThrowable(unreachable)).isInstanceOf(RetriableException.class);
        assertThat(GrpcErrors.answeredByServer(answered)).isTrue();
        assertThat(GrpcErrors.answeredByServer(unreachable)).isFalse();
        assertThat(GrpcErrors.answeredByServer(new IllegalStateException())).isFalse();
    }

    @Test
    void untypedFailuresBecomeInternalWithTheirClassName() {
        TributaryException back =
                GrpcErrors.fromThrowable(GrpcErrors.toStatus(new NullPointerException("npe")));
        assertThat(back).isInstanceOf(ServerInternalException.class).hasMessageContaining("npe");
    }

    @Test
    void transportFailuresWithoutTrailerAreRetriable() {
        assertThat(GrpcErrors.fromThrowable(Status.UNAVAILABLE.asRuntimeException()))
                .isInstanceOf(RetriableException.class);
        assertThat(GrpcErrors.fromThrowable(Status.PERMISSION_DENIED.asRuntimeException()))
                .isInstanceOf(ServerInternalException.class);
        assertThat(GrpcErrors.fromThrowable(new FencedException("f")))
                .isInstanceOf(FencedException.class);
    }

    /**
     * Found by the fault soak: a write whose connection broke mid-call (the proxy reset it, the
     * server was killed) failed with UNKNOWN "channel closed", which was not retriable, so the
     * writer gave its rows up as failed although a retry was safe (T42). Transport failures caused
     * by I/O are retriable whatever status gRPC gives them.
     */
    @Test
    void aConnectionThatBrokeMidCallIsRetriableWhateverItsStatus() {
        for (Status broken :
                List.of(
                        Status.UNKNOWN.withDescription("channel closed"),
                        Status.INTERNAL.withDescription("Encountered end-of-stream mid-frame"),
                        Status.CANCELLED.withDescription("RST_STREAM"))) {
            StatusRuntimeException e =
                    broken.withCause(new java.nio.channels.ClosedChannelException())
                            .asRuntimeException();
            assertThat(GrpcErrors.fromThrowable(e))
                    .as("%s", broken)
                    .isInstanceOf(RetriableException.class)
                    .hasMessageContaining("connection to the server broke");
        }
        // without an I/O cause the same statuses stay what they were
        assertThat(
                        GrpcErrors.fromThrowable(
                                Status.UNKNOWN.withDescription("x").asRuntimeException()))
                .isInstanceOf(ServerInternalException.class);
        // a typed error from the server stays typed, whatever caused it there
        StatusRuntimeException typed =
                GrpcErrors.toStatus(
                        new StorageException("disk gone", new java.io.IOException("EIO")));
        assertThat(GrpcErrors.fromThrowable(typed)).isInstanceOf(StorageException.class);
    }
}
