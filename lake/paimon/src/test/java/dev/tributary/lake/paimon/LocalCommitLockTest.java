package dev.tributary.lake.paimon;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit lock of a Paimon table on a local disk excludes committers of this process and of
 * other processes (the servers of a cluster sharing one lake directory), and a dead holder frees
 * it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocalCommitLockTest {
    @TempDir Path dir;

    @Test
    void committersOfOneProcessWaitForEachOther() throws Exception {
        Path file = dir.resolve(LocalCommitLock.FILE_NAME);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> first =
                underLock(
                        file,
                        () -> {
                            holding.countDown();
                            release.await();
                            return null;
                        });
        holding.await();
        AtomicBoolean secondRan = new AtomicBoolean();
        CompletableFuture<Void> second = underLock(file, () -> secondRan.getAndSet(true));
        Thread.sleep(300);
        assertThat(secondRan).as("the second committer waits for the first").isFalse();
        release.countDown();
        first.get(10, TimeUnit.SECONDS);
        second.get(10, TimeUnit.SECONDS);
        assertThat(secondRan).isTrue();
    }

    @Test
    void aCommitterOfAnotherProcessHoldsItOffUntilThatProcessLetsGoOrDies() throws Exception {
        Path file = dir.resolve(LocalCommitLock.FILE_NAME);
        Process holder = startHolder(file);
        try {
            BufferedReader out =
                    new BufferedReader(
                            new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("locked");
            AtomicBoolean ran = new AtomicBoolean();
            CompletableFuture<Void> mine = underLock(file, () -> ran.getAndSet(true));
            Thread.sleep(500);
            assertThat(ran).as("the other process holds the lock").isFalse();
            holder.destroyForcibly(); // kill -9: the OS releases its lock
            mine.get(20, TimeUnit.SECONDS);
            assertThat(ran).isTrue();
        } finally {
            holder.destroyForcibly();
        }
    }

    /** Runs {@code work} under the lock of {@code file} on another thread. */
    private static CompletableFuture<Void> underLock(Path file, Callable<?> work) {
        return CompletableFuture.runAsync(
                () -> {
                    try {
                        LocalCommitLock.run(file, work);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
    }

    private static Process startHolder(Path file) throws Exception {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        Holder.class.getName(),
                        file.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
    }

    /** Takes the lock in a process of its own and keeps it until killed. */
    public static final class Holder {
        public static void main(String[] args) throws Exception {
            LocalCommitLock.run(
                    Paths.get(args[0]),
                    () -> {
                        System.out.println("locked");
                        System.out.flush();
                        Thread.sleep(Long.MAX_VALUE);
                        return null;
                    });
        }
    }
}
