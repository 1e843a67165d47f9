package dev.tributary.lake.paimon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.io.ObjectStoreCounts;
import dev.tributary.lake.api.io.ObjectStoreRequest;
import dev.tributary.lake.api.io.ObjectStoreRequests;
import dev.tributary.lake.api.testing.S3FaultProxy;
import dev.tributary.lake.api.testing.S3Server;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.local.LocalFileIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Paimon's S3 file IO (its plugin, over s3proxy) counted at the file-IO level (T47): the operations
 * Paimon calls are charged to the table whose location holds the path.
 */
class CountingFileIOTest {
    @TempDir Path dir;

    @Test
    void t47_fileOperationsOnAnObjectStoreWarehouseAreCountedByKindAndTable() throws Exception {
        try (S3Server s3 = S3Server.start(dir.resolve("s3"), "lake");
                S3FaultProxy proxy = S3FaultProxy.start(s3)) {
            CatalogContext context =
                    CountingFileIOLoader.context(
                            Map.of(
                                    "warehouse",
                                    "s3://lake/wh",
                                    "s3.endpoint",
                                    proxy.endpoint(),
                                    "s3.access-key",
                                    S3Server.ACCESS_KEY,
                                    "s3.secret-key",
                                    S3Server.SECRET_KEY,
                                    "s3.path.style.access",
                                    "true"));
            TablePath table = TablePath.of("db", "counted");
            ObjectStoreRequests.global().registerTable(table, "s3://lake/wh/db.db/counted");
            org.apache.paimon.fs.Path root = new org.apache.paimon.fs.Path("s3://lake/wh");
            try (FileIO io = FileIO.get(root, context)) {
                assertThat(io).isInstanceOf(CountingFileIO.class);
                org.apache.paimon.fs.Path file =
                        new org.apache.paimon.fs.Path("s3://lake/wh/db.db/counted/bucket-0/f");
                ObjectStoreCounts before = ObjectStoreRequests.global().snapshot(table);
                try (PositionOutputStream out = io.newOutputStream(file, false)) {
                    out.write(new byte[1000]);
                }
                assertThat(io.exists(file)).isTrue();
                try (InputStream in = io.newInputStream(file)) {
                    assertThat(in.readAllBytes()).hasSize(1000);
                }
                assertThat(io.listStatus(file.getParent())).hasSize(1);
                io.delete(file, false);

                ObjectStoreCounts c = ObjectStoreRequests.global().snapshot(table).minus(before);
                assertThat(c.requests(ObjectStoreRequest.PUT)).isEqualTo(1);
                assertThat(c.requests(ObjectStoreRequest.HEAD)).isEqualTo(1);
                assertThat(c.requests(ObjectStoreRequest.GET)).isEqualTo(1);
                assertThat(c.requests(ObjectStoreRequest.LIST)).isEqualTo(1);
                assertThat(c.requests(ObjectStoreRequest.DELETE)).isEqualTo(1);
                assertThat(c.bytesUp()).isEqualTo(1000);
                assertThat(c.bytesDown()).isEqualTo(1000);
                // the plugin made real requests through the proxy
                assertThat(proxy.requestsByMethod()).containsKeys("PUT", "GET", "DELETE");
            }
        }
    }

    @Test
    void t47_aLocalWarehouseKeepsPaimonsOwnFileIo() throws Exception {
        CatalogContext context =
                CountingFileIOLoader.context(Map.of("warehouse", dir.toUri().toString()));
        try (FileIO io = FileIO.get(new org.apache.paimon.fs.Path(dir.toUri()), context)) {
            assertThat(io).isInstanceOf(LocalFileIO.class);
        }
    }
}
