package io.quackjvm.api.internal.database;

import io.quackjvm.api.QuackException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Recognises a database file before DuckDB opens it, so that a file that is not ours is refused with a message
 * saying what it is, and nothing in it is changed; and removing what a failed open created. Opening is
 * {@link Database}'s.
 */
public final class DatabaseFiles {

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseFiles.class);

    /** A DuckDB file has its magic bytes after an 8-byte checksum. */
    private static final byte[] DUCKDB_MAGIC = "DUCK".getBytes(StandardCharsets.US_ASCII);
    private static final int DUCKDB_MAGIC_OFFSET = 8;
    private static final byte[] SQLITE_MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

    private DatabaseFiles() {
    }

    /**
     * Accepts a missing file (DuckDB creates it) and a DuckDB file. An empty file, as {@code File.createTempFile}
     * leaves (CQEngine's {@code DiskPersistence.onPrimaryKey} makes one), is taken as a new database: it is
     * removed so that DuckDB can create the file. Anything else is refused.
     *
     * @throws QuackException naming the file, what it is and that nothing was changed
     */
    static void checkIsDuckDB(Path file, boolean readOnly) {
        if (!Files.exists(file)) {
            if (readOnly) {
                throw new QuackException("Cannot open " + file + " read-only: there is no such file. A read-only "
                        + "database must already exist; create it first with a writable persistence.");
            }
            return;
        }
        if (Files.isDirectory(file)) {
            throw new QuackException("Cannot open " + file + " as a database file: it is a directory. Give the path "
                    + "of a file inside it, for example " + file.resolve("data.duckdb"));
        }
        byte[] head = new byte[SQLITE_MAGIC.length];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        } catch (IOException e) {
            throw new QuackException("Cannot read database file " + file + ": " + e.getMessage(), e);
        }
        if (n == 0 && !readOnly) {
            try {
                Files.delete(file);
            } catch (IOException e) {
                throw new QuackException("Cannot replace the empty file " + file + " with a new database: "
                        + e.getMessage(), e);
            }
            return;
        }
        if (n >= DUCKDB_MAGIC_OFFSET + DUCKDB_MAGIC.length
                && Arrays.equals(head, DUCKDB_MAGIC_OFFSET, DUCKDB_MAGIC_OFFSET + DUCKDB_MAGIC.length,
                DUCKDB_MAGIC, 0, DUCKDB_MAGIC.length)) {
            return;
        }
        String what = n == SQLITE_MAGIC.length && Arrays.equals(head, SQLITE_MAGIC)
                ? "an SQLite database (CQEngine's DiskPersistence writes such files), not a DuckDB one"
                : n == 0 ? "empty" : "not a DuckDB database file";
        throw new QuackException("Cannot open " + file + ": it is " + what + ". Nothing in it was changed. Give "
                + "quackjvm a path of its own (a new file is created there); to move a collection over from another "
                + "store, read its objects there and addAll them here.");
    }

    /** Of the database file, its write-ahead log and its spill directory, those that do not exist now. */
    static List<Path> absent(Path file) {
        List<Path> absent = new ArrayList<>(3);
        for (Path p : List.of(file, Path.of(file + ".wal"), Path.of(file + ".tmp"))) {
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                absent.add(p);
            }
        }
        return absent;
    }

    /** Deletes what {@link #absent} listed and DuckDB has created since; a failure is logged, not thrown. */
    static void deleteCreated(List<Path> created) {
        for (Path p : created) {
            try {
                deleteTree(p);
            } catch (IOException | RuntimeException e) {
                LOG.warn("Could not delete {}, created by a database that failed to open: {}", p, e.getMessage());
            }
        }
    }

    /** Deletes a file, or a directory and everything in it; nothing when it does not exist. */
    public static void deleteTree(Path path) throws IOException {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Moves a finished file or directory into place: atomically where the file system can, else plainly. */
    public static void moveIntoPlace(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (java.nio.file.AtomicMoveNotSupportedException e) {
            Files.move(from, to);
        }
    }

    /**
     * What identifies the file itself rather than one of its names: its real path (for a file not yet created,
     * the real path of its directory and its name) and, when it exists, its file key (device and inode on
     * Linux), so that a hard link, a symbolic link, a linked directory or {@code ..} all give the same identity.
     */
    static List<Object> identities(Path file) {
        List<Object> ids = new ArrayList<>(2);
        try {
            if (Files.exists(file)) {
                ids.add(file.toRealPath());
                Object key = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
                if (key != null) {
                    ids.add(key);
                }
            } else {
                Path parent = file.getParent();
                ids.add(parent != null && Files.isDirectory(parent)
                        ? parent.toRealPath().resolve(file.getFileName()) : file);
            }
        } catch (IOException e) {
            throw new QuackException("Cannot resolve database file " + file + ": " + e.getMessage(), e);
        }
        return ids;
    }
}
