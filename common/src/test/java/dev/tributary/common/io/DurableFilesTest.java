package dev.tributary.common.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DurableFilesTest {
    @TempDir Path dir;

    @Test
    @DisplayName("replace writes a new file and replaces an old one whole, leaving no temp file")
    void replaces() throws Exception {
        Path file = dir.resolve("state.bin");
        DurableFiles.replace(file, bytes("first, longer content"), 0, 21);
        DurableFiles.replace(file, bytes("xxsecondxx"), 2, 6);
        assertThat(Files.readString(file)).isEqualTo("second");
        try (var entries = Files.list(dir)) {
            assertThat(entries).containsExactly(file);
        }
    }

    @Test
    @DisplayName("a crash before the rename leaves the old content in place")
    void aCrashBeforeTheRenameKeepsTheOldContent() throws Exception {
        Path file = dir.resolve("state.bin");
        DurableFiles.replace(file, ByteBuffer.wrap(bytes("old")));
        // the first step only: the process dies before moveAtomically
        DurableFiles.writeSynced(dir.resolve("state.bin.tmp"), ByteBuffer.wrap(bytes("new")));
        assertThat(Files.readString(file)).isEqualTo("old");
        DurableFiles.replace(file, ByteBuffer.wrap(bytes("newer")));
        assertThat(Files.readString(file)).isEqualTo("newer");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
