package dev.tributary.server.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.rpc.proto.FetchKvSnapshotRequest;
import dev.tributary.rpc.proto.FetchKvSnapshotResponse;
import dev.tributary.storage.kv.KvSnapshotTransfer.Manifest;
import dev.tributary.storage.kv.KvSnapshotTransfer.SnapshotFile;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A KV snapshot copy's messages survive the wire; malformed ones are refused with what is wrong.
 */
class KvSnapshotFetchCodecTest {
    private static final TableBucket BUCKET = new TableBucket(7, 3, 1);

    @Test
    void requestsAndAnswersRoundTrip() {
        Manifest m =
                new Manifest(4, 9, 1200, "ordered", List.of(new SnapshotFile("000012.sst", 4096)));
        KvSnapshotFetch.Request chunk =
                KvSnapshotFetch.Request.chunk(2, BUCKET, 5, m, "000012.sst", 1024, 512);
        assertThat(KvSnapshotFetchCodec.fromProto(KvSnapshotFetchCodec.toProto(chunk)))
                .isEqualTo(chunk);

        KvSnapshotFetch.Answer first = new KvSnapshotFetch.Answer(Optional.of(m), new byte[0]);
        assertThat(
                        KvSnapshotFetchCodec.fromProto(KvSnapshotFetchCodec.toProto(first), true)
                                .manifest())
                .contains(m);
        KvSnapshotFetch.Answer data =
                new KvSnapshotFetch.Answer(Optional.empty(), new byte[] {1, 2, 3});
        assertThat(KvSnapshotFetchCodec.fromProto(KvSnapshotFetchCodec.toProto(data), false).data())
                .containsExactly(1, 2, 3);
    }

    @Test
    void malformedMessagesAreRefused() {
        assertThatThrownBy(
                        () ->
                                KvSnapshotFetchCodec.fromProto(
                                        FetchKvSnapshotRequest.newBuilder()
                                                .setBucket(0)
                                                .setPosition(-1)
                                                .build()))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining(">= 0");
        // a manifest without a lease or files
        assertThatThrownBy(
                        () ->
                                KvSnapshotFetchCodec.fromProto(
                                        FetchKvSnapshotResponse.newBuilder()
                                                .setLogOffset(10)
                                                .build(),
                                        true))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("manifest is malformed");
    }
}
