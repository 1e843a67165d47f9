package dev.tributary.tiering.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The lake side's disk for the soak's lake faults, with what the machine allows: the warehouse on a
 * small loop-mounted ext4 file system that can be filled up (a real full disk), and a table's
 * directory made immutable with {@code chattr +i} (a failing directory: every create, write and
 * delete in it fails, for the server and the jobs alike). Both need root; without them the faults
 * are not available and the soak says so.
 */
public final class LakeDisk implements AutoCloseable {
    private final Path warehouse;
    private final Path image;
    private final boolean mounted;
    private final List<Path> immutable = new ArrayList<>();
    private Path filler;

    private final Thread cleanup;

    private LakeDisk(Path warehouse, Path image, boolean mounted) {
        this.warehouse = warehouse;
        this.image = image;
        this.mounted = mounted;
        // a soak stopped with Ctrl-C must not leave a mount or an immutable directory behind
        this.cleanup = new Thread(this::closeQuietly, "lake-disk-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
    }

    private void closeQuietly() {
        try {
            release();
        } catch (IOException e) {
            // best effort on the way out
        }
    }

    /**
     * Prepares {@code warehouse}: on a loop-mounted file system of {@code sizeMb} when possible
     * (and {@code sizeMb > 0}), else a plain directory.
     */
    public static LakeDisk create(Path warehouse, int sizeMb) throws IOException {
        Files.createDirectories(warehouse);
        Path image = warehouse.resolveSibling(warehouse.getFileName() + ".img");
        if (sizeMb <= 0 || !isRoot()) {
            return new LakeDisk(warehouse, image, false);
        }
        boolean ok =
                run("truncate", "-s", sizeMb + "M", image.toString())
                        && run("mkfs.ext4", "-q", "-F", "-m", "0", image.toString())
                        && run("mount", "-o", "loop", image.toString(), warehouse.toString());
        if (!ok) {
            Files.deleteIfExists(image);
        }
        return new LakeDisk(warehouse, image, ok);
    }

    public Path warehouse() {
        return warehouse;
    }

    /** Whether the warehouse is on its own small file system that {@link #fill} can fill. */
    public boolean canFill() {
        return mounted;
    }

    /** Whether {@link #makeImmutable} works here. */
    public static boolean canMakeImmutable() {
        return isRoot() && run("which", "chattr");
    }

    /** Takes every free byte of the warehouse's file system; {@link #unfill} gives it back. */
    public synchronized void fill() throws IOException {
        if (!mounted || filler != null) {
            return;
        }
        filler = warehouse.resolve("soak-filler");
        long free = Files.getFileStore(warehouse).getUsableSpace();
        run("fallocate", "-l", Long.toString(Math.max(4096, free)), filler.toString());
        // whatever fallocate left (metadata rounding), take it with a plain write
        try (var out = Files.newOutputStream(filler, java.nio.file.StandardOpenOption.APPEND)) {
            byte[] block = new byte[64 * 1024];
            while (true) {
                out.write(block);
            }
        } catch (IOException full) {
            // the disk is full now
        }
    }

    public synchronized void unfill() throws IOException {
        if (filler != null) {
            Files.deleteIfExists(filler);
            filler = null;
        }
    }

    /** {@code chattr -R +i dir}: nothing in it can be created, changed or deleted. */
    public synchronized boolean makeImmutable(Path dir) {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        immutable.add(dir);
        return run("chattr", "-R", "+i", dir.toString());
    }

    public synchronized void makeMutable(Path dir) {
        run("chattr", "-R", "-i", dir.toString());
        immutable.remove(dir);
    }

    @Override
    public void close() throws IOException {
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
        release();
    }

    private synchronized void release() throws IOException {
        for (Path d : new ArrayList<>(immutable)) {
            makeMutable(d);
        }
        unfill();
        if (mounted && Files.exists(image)) {
            unmount();
            Files.deleteIfExists(image);
        }
    }

    /**
     * A process that has just exited (a job's or a server's) can keep the file system busy for a
     * moment, and a mount left behind fails the test's temporary directory cleanup (seen once in a
     * full test run): a few tries, then a lazy unmount, which detaches it at once and lets it go
     * once idle.
     */
    private void unmount() throws IOException {
        for (int attempt = 0; attempt < 5; attempt++) {
            if (run("umount", warehouse.toString())) {
                return;
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (!run("umount", "-l", warehouse.toString())) {
            throw new IOException("cannot unmount the lake's file system at " + warehouse);
        }
    }

    private static boolean isRoot() {
        try {
            Process p = new ProcessBuilder("id", "-u").start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            return p.waitFor(10, TimeUnit.SECONDS) && out.strip().equals("0");
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    static boolean run(String... cmd) {
        try {
            Process p =
                    new ProcessBuilder(cmd)
                            .redirectErrorStream(true)
                            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                            .start();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
