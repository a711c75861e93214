package io.quackjvm.api.internal.answer;

import io.quackjvm.api.internal.collection.BulkLoad;
import io.quackjvm.api.internal.collection.CollectionSchema;
import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.database.Database;
import io.quackjvm.api.internal.database.Failures;

import io.quackjvm.api.QuackException;
import io.quackjvm.api.StoredDataException;
import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.ObjectTable;
import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.api.spi.RowCursor;
import io.quackjvm.api.spi.RowSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Parquet files read into a bulk load: the whole objects of {@code _object} for a layout that keeps objects in one
 * BLOB column (decoded with the record of their encoding that the export wrote into the files, and stored as they are
 * when this collection encodes objects the same way), otherwise the typed fields, rebuilt by the layout
 * ({@link io.quackjvm.api.spi.ObjectTable#readValues}).
 * Every column the collection needs is checked against the files' schema (name and DuckDB type) before anything is
 * read; partition columns, which hive-style directories hold as text, and enums, which Parquet holds as text, are
 * cast to the column's type after checking that every value casts. Stateless.
 */
public final class ParquetImport {

    private static final String OBJECT = "_object";
    /** An enum type, anywhere in a type: Parquet holds enum values as text. */
    private static final java.util.regex.Pattern ENUM = java.util.regex.Pattern.compile(
            "ENUM\\((?:'(?:[^']|'')*'(?:, )?)*\\)");

    private ParquetImport() {
    }

    /**
     * Reads the Parquet file, or every {@code .parquet} file under the directory, {@code path} names into
     * {@code load}, in the load's transaction.
     *
     * @throws QuackException before anything is stored, naming the problem: no such path, no Parquet file, a column
     *                        the collection needs that the files lack or hold with another type, a partition value
     *                        that is not of its column's type
     */
    public static <O> void read(CollectionTable<O, ?> table, BulkLoad<O, ?> load, Path path) {
        table.checkOpen();
        Path source = path.toAbsolutePath().normalize();
        boolean directory = Files.isDirectory(source);
        if (!directory && !Files.isRegularFile(source)) {
            throw new QuackException("addParquet(" + source + ") into collection '" + table.name() + "': there is no "
                    + "such file or directory");
        }
        Set<String> partitions = new LinkedHashSet<>();
        if (directory) {
            boolean any = false;
            try (Stream<Path> all = Files.walk(source)) {
                for (Path p : (Iterable<Path>) all::iterator) {
                    String name = p.getFileName().toString();
                    if (Files.isDirectory(p) && !p.equals(source) && name.indexOf('=') > 0) {
                        partitions.add(name.substring(0, name.indexOf('=')).toLowerCase(Locale.ROOT));
                    }
                    any |= Files.isRegularFile(p) && name.endsWith(".parquet");
                }
            } catch (IOException e) {
                throw new QuackException("addParquet(" + source + "): " + e, e);
            }
            if (!any) {
                throw new QuackException("addParquet(" + source + ") into collection '" + table.name() + "': the "
                        + "directory holds no .parquet file");
            }
        }
        String glob = ParquetFiles.literal(directory ? source.resolve("**").resolve("*.parquet").toString()
                : source.toString());
        String files = "read_parquet(" + glob + ", hive_partitioning = " + directory + (directory
                ? ", hive_types_autocast = false" : "") + ")";
        boolean objects = SqlViews.objectsInOneBlob(table);
        Database db = table.database();
        String sql = null;
        try (PooledConnection c = db.borrow()) {
            Map<String, String> found = ParquetFiles.describe(c, "SELECT * FROM " + files, List.of());
            Map<String, String> expected = expectedColumns(table, c, objects);
            List<String> select = new ArrayList<>();
            for (Map.Entry<String, String> e : expected.entrySet()) {
                String name = e.getKey();
                String want = e.getValue();
                String have = found.get(name.toLowerCase(Locale.ROOT));
                String col = CollectionSchema.quote(name);
                if (have == null) {
                    throw new QuackException("addParquet(" + source + ") into collection '" + table.name() + "': "
                            + "the files have no column '" + name + "' (" + want + "), which the collection needs; they "
                            + "have " + found + ". Read files that an export of this collection wrote"
                            + (objects ? " with includeObjects(true)" : ""));
                }
                boolean partition = partitions.contains(name.toLowerCase(Locale.ROOT));
                if (have.equalsIgnoreCase(want)) {
                    select.add(col);
                } else if (have.equalsIgnoreCase("VARCHAR") && partition
                        || have.equalsIgnoreCase(ENUM.matcher(want).replaceAll("VARCHAR"))) {
                    checkCasts(c, files, col, want, source, table, name);
                    select.add("CAST(" + col + " AS " + want + ")");
                } else {
                    throw new QuackException("addParquet(" + source + ") into collection '" + table.name() + "': "
                            + "column '" + name + "' holds " + have + " in the files but the collection stores " + want
                            + "; read files that an export of this collection wrote");
                }
            }
            String record = objects ? encodingRecord(table, c, glob, source) : null;
            ObjectTable<O> reader = objects ? objectReader(table, record, source) : null;
            // Rows this collection's layout would write the same way are stored as they are, not serialised again.
            boolean sameEncoding = objects && java.util.Objects.equals(record, table.columns().encoding());
            // Into an empty collection, DuckDB inserts the object rows itself; Java then decodes each object to
            // check its key against its row's and to write its index rows.
            String keyName = table.schema().primaryKey().getAttributeName();
            boolean inserted = sameEncoding && insertable(table, c, found, keyName)
                    && load.insertObjectRows("INSERT INTO " + table.schema().sqlName() + " (" + CollectionSchema.KEY
                    + ", " + CollectionSchema.quote(table.columns().all().get(0).name()) + ") SELECT "
                    + CollectionSchema.quote(keyName) + ", " + OBJECT + " FROM " + files,
                    on -> eachKeyOnce(on, CollectionSchema.quote(keyName), files));
            sql = "SELECT " + String.join(", ", select) + (inserted ? ", " + CollectionSchema.quote(keyName) : "")
                    + " FROM " + files;
            try (PreparedStatement ps = c.connection().prepareStatement(sql)) {
                db.running().started(ps);
                try (ResultSet rs = ps.executeQuery(); RowCursor cursor = db.reader(true).open(rs)) {
                    String what = "Reading " + source + " into collection '" + table.name() + "'";
                    String statement = sql;
                    Rows<O> rows = new Rows<>(table, cursor, reader, inserted, what, statement);
                    if (inserted) {
                        load.addAllIndexed(() -> rows);
                    } else if (sameEncoding) {
                        load.addAllStored(() -> rows, rows::bytes);
                    } else {
                        load.addAll(() -> rows);
                    }
                } finally {
                    db.running().finished(ps);
                }
            }
        } catch (SQLException e) {
            QuackException closed = db.running().cancelledByClose("Reading Parquet", e);
            throw closed != null ? closed : Failures.wrap("Reading " + source + " into collection '" + table.name()
                    + "'", sql, e);
        }
    }

    /** The columns an import needs, with the DuckDB type an export of this collection writes for each. */
    private static Map<String, String> expectedColumns(CollectionTable<?, ?> table, PooledConnection c,
                                                       boolean objects) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        if (objects) {
            out.put(OBJECT, "BLOB");
            return out;
        }
        SqlViews views = new SqlViews(table.database());
        views.ensureMacros(c);
        Map<String, String> exported = ParquetFiles.describe(c, views.exportSql(table, false, ""), List.of());
        for (Column col : table.columns().valueColumns()) {
            String type = exported.get(col.name().toLowerCase(Locale.ROOT));
            out.put(col.name(), type == null ? col.sqlType() : type);
        }
        return out;
    }

    /**
     * Whether DuckDB could insert the files' object rows as they are: no covering index (its rows carry copies of
     * the objects), and a key stored as the export writes it, of the same type.
     */
    private static boolean insertable(CollectionTable<?, ?> table, PooledConnection c, Map<String, String> found,
                                      String keyName) throws SQLException {
        if (table.indexes().all().stream().anyMatch(io.quackjvm.api.internal.index.IndexTable::covering)
                || !SqlDecode.expression(table.schema().keyType().valueType(), "k", "s").equals("k")) {
            return false;
        }
        String stored = ParquetFiles.describe(c, "SELECT " + CollectionSchema.KEY + " FROM "
                + table.schema().sqlName(), List.of()).get(CollectionSchema.KEY);
        String exported = found.get(keyName.toLowerCase(Locale.ROOT));
        return stored != null && stored.equalsIgnoreCase(exported);
    }

    /** Whether every row of the files has a key, and a key of its own. */
    private static boolean eachKeyOnce(PooledConnection c, String key, String files) throws SQLException {
        try (Statement s = c.connection().createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) = count("
                + key + ") AND count(*) = count(DISTINCT " + key + ") FROM " + files)) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    /**
     * The record of the encoding of the files' {@code _object} bytes that the export wrote into every file's
     * metadata ({@link ParquetFiles#ENCODING_KEY}), or null for files that carry none.
     *
     * @throws QuackException when the files carry different records, or only some carry one
     */
    private static String encodingRecord(CollectionTable<?, ?> table, PooledConnection c, String glob, Path source)
            throws SQLException {
        long files;
        long tagged;
        long records;
        String record;
        try (Statement s = c.connection().createStatement(); ResultSet rs = s.executeQuery(
                "SELECT (SELECT count(*) FROM parquet_file_metadata(" + glob + ")), count(*), count(DISTINCT value), "
                        + "min(decode(value)) FROM parquet_kv_metadata(" + glob + ") WHERE key = "
                        + ParquetFiles.literal(ParquetFiles.ENCODING_KEY) + "::BLOB")) {
            rs.next();
            files = rs.getLong(1);
            tagged = rs.getLong(2);
            records = rs.getLong(3);
            record = rs.getString(4);
        }
        String what = "addParquet(" + source + ") into collection '" + table.name() + "': ";
        if (tagged != 0 && (tagged != files || records != 1)) {
            throw new QuackException(what + "the files were not all written by one export (" + tagged + " of " + files
                    + " carry a record of how their objects are encoded, in " + records + " versions); import the "
                    + "directory of each export on its own");
        }
        return record;
    }

    /**
     * The layout reading the files' {@code _object} bytes written under {@code record}.
     *
     * @throws QuackException when the layout cannot read rows written under the record as the class is now
     */
    private static <O> ObjectTable<O> objectReader(CollectionTable<O, ?> table, String record, Path source) {
        String what = "addParquet(" + source + ") into collection '" + table.name() + "': ";
        try {
            return table.columns().readingEncoding(record);
        } catch (IllegalStateException e) {
            throw new StoredDataException(what + "the files' objects cannot be read as class "
                    + table.schema().primaryKey().getObjectType().getName() + " is now: " + e.getMessage(), e);
        }
    }

    /** Refuses, before anything is read, a partition (or enum) value that does not cast to its column's type. */
    private static void checkCasts(PooledConnection c, String files, String col, String type, Path source,
                                   CollectionTable<?, ?> table, String name) throws SQLException {
        try (Statement s = c.connection().createStatement(); ResultSet rs = s.executeQuery(
                "SELECT min(" + col + ") FROM (SELECT DISTINCT " + col + " FROM " + files + ") WHERE " + col
                        + " IS NOT NULL AND TRY_CAST(" + col + " AS " + type + ") IS NULL")) {
            if (rs.next() && rs.getString(1) != null) {
                throw new QuackException("addParquet(" + source + ") into collection '" + table.name() + "': column '"
                        + name + "' holds '" + rs.getString(1) + "', which is not a " + type + " value");
            }
        }
    }

    /** The objects of an import's rows, one per row, read as the cursor advances. */
    private static final class Rows<O> implements Iterator<O> {
        private final CollectionTable<O, ?> table;
        private final RowCursor cursor;
        private final RowSource row;
        /** The layout reading whole objects from {@code _object}, or null to rebuild them from typed columns. */
        private final ObjectTable<O> objects;
        /** The {@code _object} bytes of the row last read, as a row of the layout's one column. */
        private final StoredBlob blob = new StoredBlob();
        /** Whether each row also holds its key (after {@code _object}), which its object's key must equal. */
        private final boolean keyed;
        private final com.googlecode.cqengine.query.option.QueryOptions noOptions =
                new com.googlecode.cqengine.query.option.QueryOptions();
        private final String what;
        private final String sql;
        private Boolean ready;

        Rows(CollectionTable<O, ?> table, RowCursor cursor, ObjectTable<O> objects, boolean keyed, String what,
             String sql) {
            this.keyed = keyed;
            this.table = table;
            this.cursor = cursor;
            this.row = cursor.row();
            this.objects = objects;
            this.what = what;
            this.sql = sql;
        }

        @Override
        public boolean hasNext() {
            if (ready == null) {
                try {
                    ready = cursor.next();
                } catch (SQLException e) {
                    throw Failures.wrap(what, sql, e);
                }
            }
            return ready;
        }

        @Override
        public O next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            ready = null;
            try {
                if (objects == null) {
                    return table.columns().readValues(row);
                }
                blob.bytes = row.getBytes(0);
                O o = objects.read(blob);
                if (keyed) {
                    Object rowKey = table.schema().keyType().valueType().decode(row.getObject(1));
                    Object objectKey = table.schema().primaryKey().getValue(o, noOptions);
                    if (!rowKey.equals(objectKey)) {
                        throw new StoredDataException(what + ": the row of key " + rowKey + " holds an object whose "
                                + "key is " + objectKey + "; the files were changed after the export, or written for "
                                + "another key. Nothing of the load was stored");
                    }
                }
                return o;
            } catch (SQLException e) {
                throw Failures.wrap(what, sql, e);
            }
        }

        /** The {@code _object} bytes of the object {@link #next} returned last. */
        byte[] bytes() {
            return blob.bytes;
        }
    }

    /** One BLOB value as a row of one column: what a layout that keeps an object in one BLOB column reads. */
    private static final class StoredBlob implements RowSource {
        byte[] bytes;

        @Override
        public boolean isNull(int column) {
            return value(column) == null;
        }

        @Override
        public byte[] getBytes(int column) {
            return value(column);
        }

        @Override
        public Object getObject(int column) {
            return value(column);
        }

        @Override
        public boolean getBoolean(int column) {
            throw notBlob();
        }

        @Override
        public int getInt(int column) {
            throw notBlob();
        }

        @Override
        public long getLong(int column) {
            throw notBlob();
        }

        @Override
        public double getDouble(int column) {
            throw notBlob();
        }

        @Override
        public String getString(int column) {
            throw notBlob();
        }

        private byte[] value(int column) {
            if (column != 0) {
                throw new IndexOutOfBoundsException("the row holds one column, not " + (column + 1));
            }
            return bytes;
        }

        private static IllegalStateException notBlob() {
            return new IllegalStateException("the row holds one BLOB column");
        }
    }
}
