package dev.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.StorageException;
import dev.tributary.server.process.ChildServerMain;
import dev.tributary.server.process.ServerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two servers never share a data directory; a killed server leaves no stale lock. */
class DataDirLockITCase {
    @TempDir Path dir;

    @Test
    void aSecondServerOnTheSameDataDirectoryFailsAtStartWithAClearError() throws Exception {
        Path data = dir.resolve("data");
        try (ServerProcess first =
                ServerProcess.start(
                        ChildServerMain.class,
                        List.of(
                                data.toString(),
                                Integer.toString(ServerProcess.freePort()),
                                dir.resolve("no-trigger").toString()),
                        dir.resolve("first.out"),
                        Duration.ofSeconds(90))) {
            assertThatThrownBy(() -> TestServers.start(data))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("data directory " + data.toAbsolutePath())
                    .hasMessageContaining("in use by another Tributary server")
                    .hasMessageContaining("pid " + first.pid())
                    .hasMessageContaining("another data.dir");
            // nothing of the second server touched the first one's files
            assertThat(first.isAlive()).isTrue();

            first.kill(); // SIGKILL: the OS releases the lock with the process
            try (TributaryServer second = TestServers.start(data)) {
                assertThat(Files.readString(data.resolve("tributary.lock")))
                        .isEqualTo("pid " + ProcessHandle.current().pid() + "\n");
                // in one JVM too
                assertThatThrownBy(() -> TestServers.start(data))
                        .isInstanceOf(StorageException.class)
                        .hasMessageContaining("in use by another Tributary server");
            }
            // a clean close frees it
            TestServers.start(data).close();
        }
    }
}
