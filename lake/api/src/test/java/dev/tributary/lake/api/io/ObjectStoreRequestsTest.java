package dev.tributary.lake.api.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.TablePath;
import org.junit.jupiter.api.Test;

class ObjectStoreRequestsTest {
    private static final TablePath T = TablePath.of("db", "t");
    private static final TablePath T1 = TablePath.of("db", "t1");
    private static final TablePath INNER = TablePath.of("db", "inner");

    @Test
    void t47_requestsAreChargedToTheLongestRegisteredPrefixOnASlashBoundary() {
        ObjectStoreRequests r = ObjectStoreRequests.create();
        r.registerTable(T, "s3://bucket/wh/db/t/");
        r.registerTable(T1, "s3a://bucket/wh/db/t1");
        r.registerTable(INNER, "s3://bucket/wh/db/t/nested");

        r.record("bucket", "wh/db/t/data/a.parquet", ObjectStoreRequest.PUT, 100, 0);
        r.record("bucket", "wh/db/t1/data/b.parquet", ObjectStoreRequest.GET, 0, 50);
        r.record("bucket", "/wh/db/t/nested/x", ObjectStoreRequest.HEAD, 0, 0);
        r.record("bucket", "wh/db/t10/x", ObjectStoreRequest.DELETE, 0, 0);
        r.record("other-bucket", "wh/db/t/x", ObjectStoreRequest.LIST, 0, 0);
        r.recordLocation("s3://bucket/wh/db/t/metadata/v1.json", ObjectStoreRequest.GET, 0, 7);

        assertThat(r.snapshot(T).requests(ObjectStoreRequest.PUT)).isEqualTo(1);
        assertThat(r.snapshot(T).requests(ObjectStoreRequest.GET)).isEqualTo(1);
        assertThat(r.snapshot(T).bytesUp()).isEqualTo(100);
        assertThat(r.snapshot(T).bytesDown()).isEqualTo(7);
        assertThat(r.snapshot(T1).totalRequests()).isEqualTo(1);
        assertThat(r.snapshot(T1).bytesDown()).isEqualTo(50);
        assertThat(r.snapshot(INNER).requests(ObjectStoreRequest.HEAD)).isEqualTo(1);
        assertThat(r.snapshotOther().totalRequests()).isEqualTo(2);
        assertThat(r.snapshotAll()).containsKeys("db.t", "db.t1", "db.inner", "other");
    }

    @Test
    void t47_localPathsMatchWhateverTheirSpelling() {
        ObjectStoreRequests r = ObjectStoreRequests.create();
        r.registerTable(T, "file:/tmp/wh/db.db/t");
        r.recordLocation(
                "file:///tmp/wh/db.db/t/snapshot/snapshot-1", ObjectStoreRequest.PUT, 1, 0);
        r.recordLocation("/tmp/wh/db.db/t/manifest/m-1", ObjectStoreRequest.GET, 0, 1);
        assertThat(r.snapshot(T).totalRequests()).isEqualTo(2);
    }

    @Test
    void t47_deltasSubtractPerKind() {
        ObjectStoreRequests r = ObjectStoreRequests.create();
        r.registerTable(T, "s3://b/t");
        r.record("b", "t/x", ObjectStoreRequest.PUT, 10, 0);
        ObjectStoreCounts before = r.snapshot(T);
        r.record("b", "t/x", ObjectStoreRequest.MULTIPART_PART, 10, 0);
        r.record("b", "t/y", ObjectStoreRequest.MULTIPART_PART, 5, 0);
        ObjectStoreCounts d = r.snapshot(T).minus(before);
        assertThat(d.totalRequests()).isEqualTo(2);
        assertThat(d.requests(ObjectStoreRequest.PUT)).isZero();
        assertThat(d.requests(ObjectStoreRequest.MULTIPART_PART)).isEqualTo(2);
        assertThat(d.bytesUp()).isEqualTo(15);
        assertThat(d.plus(before).totalRequests()).isEqualTo(3);
        assertThat(d.toMap()).containsEntry("requests", 2L).containsEntry("bytes_up", 15L);
        assertThat(r.snapshot(TablePath.of("db", "unknown"))).isSameAs(ObjectStoreCounts.ZERO);
    }
}
