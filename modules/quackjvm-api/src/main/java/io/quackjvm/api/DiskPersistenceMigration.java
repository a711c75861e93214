package io.quackjvm.api;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.persistence.Persistence;
import com.googlecode.cqengine.persistence.disk.DiskPersistence;
import com.googlecode.cqengine.query.QueryFactory;
import com.googlecode.cqengine.resultset.ResultSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Properties;

/**
 * Copies the objects of a file written by CQEngine's {@code DiskPersistence} into a quackjvm collection.
 *
 * <pre>{@code
 * IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
 * long copied = DiskPersistenceMigration.copy(new File("cars.sqlite"), Car.CAR_ID, cars, null);
 * }</pre>
 *
 * <p>The file is read with CQEngine's own classes (a {@code DiskPersistence} on the same primary key, in a
 * {@code ConcurrentIndexedCollection}), so the stored objects are deserialised exactly as CQEngine wrote them: the
 * objects' class, and the serializer a {@code @PersistenceConfig} on it names, must be on the class path or module
 * path (on the module path, its package must be open to {@code cqengine} and to Kryo). The file is only read:
 * before CQEngine opens it, it is checked to be an SQLite file that holds the primary key's table, so that CQEngine
 * never creates anything in it.
 */
public final class DiskPersistenceMigration {

    private static final Logger LOG = LoggerFactory.getLogger(DiskPersistenceMigration.class);
    private static final byte[] SQLITE_HEADER = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    /** Objects between two calls of the progress listener. */
    private static final int PROGRESS_EVERY = 65_536;

    private DiskPersistenceMigration() {
    }

    /**
     * Copies every object of {@code sqliteFile} into {@code target} in one transaction of the target's
     * {@link DuckDBBulkWriter}: all of them are stored, or none (a failure at any point leaves {@code target} as it
     * was). An object whose key the target already holds replaces the stored one, as {@code addAll} would. The
     * attribute indexes of the source are not copied: add {@link DuckDBIndex}es to the target (before the copy,
     * so that they are written with the objects, or after it).
     *
     * @param sqliteFile a file written by CQEngine's {@code DiskPersistence}; never modified
     * @param primaryKey the primary-key attribute the file was written with (its name selects the table)
     * @param target     a collection stored by a {@link DuckDBPersistence}, or a {@link DuckDBDatabase} collection
     * @param listener   told of the copy's progress (operation {@code "migration"}) after every 65,536 objects and
     *                   once more at the end; may be {@code null}. An exception it throws is logged and ignored.
     * @param <O>        the type of the objects
     * @param <K>        the type of the primary key
     * @return the number of objects copied, equal to the number of objects the file holds
     * @throws IllegalArgumentException when {@code target} is not stored by quackjvm
     * @throws QuackException           when the file is missing, is not a {@code DiskPersistence} file, holds no
     *                                  table for {@code primaryKey}, cannot be read (an object CQEngine cannot
     *                                  deserialise), when the target refuses an object, or when the number of
     *                                  objects read differs from the number the file holds; {@code target} is
     *                                  unchanged then
     */
    public static <O, K extends Comparable<K>> long copy(File sqliteFile, SimpleAttribute<O, K> primaryKey,
                                                         IndexedCollection<O> target, ProgressListener listener) {
        Objects.requireNonNull(sqliteFile, "sqliteFile");
        Objects.requireNonNull(primaryKey, "primaryKey");
        Objects.requireNonNull(target, "target");
        DuckDBPersistence<O, ?> persistence = persistenceOf(target);
        checkSource(sqliteFile, primaryKey);
        long started = System.nanoTime();
        String table = persistence.getTableName();
        DiskPersistence<O, K> source = DiskPersistence.onPrimaryKeyInFile(primaryKey, sqliteFile);
        long written = 0;
        long expected = -1;
        try {
            IndexedCollection<O> objects = new ConcurrentIndexedCollection<>(source);
            expected = objects.size();
            try (DuckDBBulkWriter<O> writer = persistence.bulkWriter();
                 ResultSet<O> all = objects.retrieve(QueryFactory.all(primaryKey.getObjectType()))) {
                for (O object : all) {
                    writer.add(object);
                    written++;
                    if (written % PROGRESS_EVERY == 0) {
                        report(listener, table, written, expected, started, false);
                    }
                }
                if (written != expected) {
                    throw new QuackException("The DiskPersistence file " + sqliteFile + " holds " + expected
                            + " objects but " + written + " were read from it; nothing was stored in '" + table
                            + "'. Check that no other process writes the file during the migration, and retry");
                }
                writer.commit();
            }
            return written;
        } catch (QuackException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new QuackException("Cannot copy the objects of the DiskPersistence file " + sqliteFile + " into '"
                    + table + "' (" + e + "); nothing was stored. Check that the objects' class (and its "
                    + "@PersistenceConfig serializer) is the one the file was written with and that CQEngine can "
                    + "reach it", e);
        } finally {
            try {
                source.close();
            } finally {
                report(listener, table, written, expected, started, true);
            }
        }
    }

    private static <O> DuckDBPersistence<O, ?> persistenceOf(IndexedCollection<O> target) {
        Persistence<O, ?> persistence = target.getPersistence();
        if (!(persistence instanceof DuckDBPersistence)) {
            throw new IllegalArgumentException("The target collection is not stored by quackjvm (its persistence is "
                    + (persistence == null ? "null" : persistence.getClass().getName()) + "); build it on a "
                    + "DuckDBPersistence (DuckDBPersistence.onPrimaryKeyInFile(pk, file) or builder(pk)) or with "
                    + "DuckDBDatabase.collection(pk)");
        }
        return (DuckDBPersistence<O, ?>) persistence;
    }

    /** Refuses, before CQEngine opens the file, a missing file, a file that is not SQLite, a wrong primary key. */
    static void checkSource(File file, SimpleAttribute<?, ?> primaryKey) {
        if (!file.isFile()) {
            throw new QuackException("The DiskPersistence file " + file.getAbsolutePath() + " does not exist (or is "
                    + "not a file); pass the file the CQEngine collection was stored in");
        }
        byte[] header = new byte[SQLITE_HEADER.length];
        int read;
        try (InputStream in = Files.newInputStream(file.toPath())) {
            read = in.readNBytes(header, 0, header.length);
        } catch (IOException e) {
            throw new QuackException("Cannot read the DiskPersistence file " + file + " (" + e + "); check its "
                    + "permissions", e);
        }
        if (read < header.length || !Arrays.equals(header, SQLITE_HEADER)) {
            throw new QuackException("The file " + file + " is not a CQEngine DiskPersistence file (not an SQLite "
                    + "database); pass the file a DiskPersistence wrote");
        }
        String table = "cqtbl_" + primaryKey.getAttributeName().replaceAll("[^A-Za-z0-9]", "");
        List<String> tables = collectionTables(file);
        if (tables.isEmpty()) {
            throw new QuackException("The SQLite file " + file + " holds no CQEngine DiskPersistence collection (no "
                    + "cqtbl_ table); pass the file a DiskPersistence wrote");
        }
        if (!tables.contains(table)) {
            throw new QuackException("The DiskPersistence file " + file + " holds no collection keyed on '"
                    + primaryKey.getAttributeName() + "' (table " + table + "); its tables are " + tables
                    + ". Pass the primary-key attribute the file was written with (same name)");
        }
    }

    private static List<String> collectionTables(File file) {
        Properties readOnly = new Properties();
        readOnly.setProperty("open_mode", "1");   // SQLITE_OPEN_READONLY, never create
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file.getAbsolutePath(), readOnly);
             Statement statement = connection.createStatement();
             java.sql.ResultSet rs = statement.executeQuery(
                     "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'cqtbl\\_%' ESCAPE '\\'")) {
            List<String> names = new ArrayList<>();
            while (rs.next()) {
                names.add(rs.getString(1));
            }
            return names;
        } catch (SQLException e) {
            throw new QuackException("Cannot read the file " + file + " as a CQEngine DiskPersistence file (" + e
                    + "); pass the file a DiskPersistence wrote, and check that the SQLite driver CQEngine depends "
                    + "on (org.xerial:sqlite-jdbc) is on the class path or module path", e);
        }
    }

    private static void report(ProgressListener listener, String table, long done, long expected, long started,
                               boolean finished) {
        if (listener == null) {
            return;
        }
        try {
            listener.onProgress(new Progress("migration", table, done, expected,
                    Duration.ofNanos(System.nanoTime() - started), finished));
        } catch (RuntimeException e) {
            LOG.warn("The progress listener of the migration into '{}' failed; ignored", table, e);
        }
    }
}
