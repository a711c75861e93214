package io.quackjvm.api.internal.collection;

import com.googlecode.cqengine.index.support.CloseableIterator;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.Operation;
import io.quackjvm.api.internal.database.Statements;
import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.ObjectTable;
import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.api.spi.RowCursor;
import io.quackjvm.api.spi.RowSource;
import io.quackjvm.api.spi.RowWriter;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Every read of one collection's objects and keys: counts, a lookup by key, set-semantics {@code contains}, and
 * cursors over objects, over joined rows that start with an object, and over keys. Each is one SQL statement run
 * through {@link CollectionStatements}, so that a read inside a request that has written sees its own writes. It
 * never writes, and it builds no index-table SQL (the index adapters hand it theirs). Thread-safe.
 */
public final class CollectionReads<O, A> {

    private final CollectionSchema<O, A> schema;
    private final CollectionStatements statements;
    private final ObjectCache<A, O> cache;

    public CollectionReads(CollectionSchema<O, A> schema, CollectionStatements statements, ObjectCache<A, O> cache) {
        this.schema = schema;
        this.statements = statements;
        this.cache = cache;
    }

    /** Maps one result row to a value: the object read from the layout columns, then any further columns. */
    @FunctionalInterface
    public interface RowMapper<O, T> {
        T map(O object, RowSource row) throws SQLException;
    }

    public int size(QueryOptions options) {
        return (int) Math.min(Integer.MAX_VALUE, statements.queryLong(options, "SELECT count(*) FROM "
                + schema.table, List.of()));
    }

    public boolean isEmpty(QueryOptions options) {
        return statements.queryLong(options, "SELECT count(*) FROM (SELECT 1 FROM " + schema.table + " LIMIT 1)",
                List.of()) == 0;
    }

    /** The stored object with this key, or {@code null}. */
    public O get(A key, QueryOptions options) {
        if (key == null) {
            return null;
        }
        if (cache.enabled()) {
            return cached(key, options);
        }
        return statements.read(options, "Looking up a key", c -> find(c, key, options));
    }

    /**
     * A lookup through the object cache: a hit opens no statement and borrows no connection. A request that has
     * written reads its own uncommitted rows, so it neither reads nor fills the cache. See {@link ObjectCache}
     * for why the stamp is taken before the statement.
     */
    private O cached(A key, QueryOptions options) {
        schema.db.checkOpen();
        if (statements.writing(options)) {
            return statements.read(options, "Looking up a key", c -> find(c, key, options));
        }
        O hit = cache.get(key);
        if (hit != null) {
            return hit;
        }
        long stamp = cache.stamp(key);
        O found = statements.read(options, "Looking up a key", c -> find(c, key, options));
        if (found != null) {
            cache.put(key, found, stamp);
        }
        return found;
    }

    private O find(PooledConnection c, A key, QueryOptions options) throws SQLException {
        String sql = schema.columns.sql().selectByKey();
        PreparedStatement ps = c.prepare(sql);
        try {
            schema.keyType.bind(ps, 1, key);
            try (Statements.Run run = statements.start(ps, Operation.LOOKUP, sql, options);
                 ResultSet rs = ps.executeQuery(); RowCursor rows = schema.db.reader(false).open(rs)) {
                O found = rows.next() ? schema.layout.readLookup(rows.row(), key) : null;
                run.rows(found == null ? 0 : 1);
                run.succeeded();
                return found;
            }
        } finally {
            c.recycle(ps);
        }
    }

    /** Set semantics, as on the heap: the stored object with this key must be {@code equals} to {@code o}. */
    public boolean contains(Object o, QueryOptions options) {
        A key = schema.keyOrNull(o);
        if (key == null) {
            return false;
        }
        O stored = get(key, options);
        return stored != null && stored.equals(o);
    }

    /** A cursor over the objects of {@code SELECT columns FROM table <tail>}. */
    public CloseableIterator<O> objects(QueryOptions options, String tail, List<?> params, boolean large) {
        return statements.cursor(options, "SELECT " + schema.columns.sqlList() + " FROM " + schema.table
                + (tail.isEmpty() ? "" : " " + tail), params, large, schema.layout);
    }

    /** Every object, streamed, through the cursor CQEngine's {@code Iterator.remove()} removes through. */
    CloseableIterator<O> iterator(QueryOptions options) {
        return statements.cursor(options, "SELECT " + schema.columns.sqlList() + " FROM " + schema.table,
                List.of(), true, schema.layout, true);
    }

    /**
     * As {@link #objects}, selecting only the layout's {@link ObjectTable#lookupColumns}: for reads of a few
     * objects by key ({@code equal} or {@code in} on the primary key), which a layout with a row copy answers
     * from one column. {@code key} is the one key an {@code equal} asks for, which names the row should it fail to
     * read; for several keys ({@code null}) the key column is selected too, read only for a failure.
     */
    public CloseableIterator<O> lookups(QueryOptions options, String tail, List<?> params, A key) {
        StoredRows<O> layout = schema.layout;
        ObjectTable<O> lookup = new ObjectTable<>() {
            @Override public List<Column> columns() { return layout.lookupColumns(); }
            @Override public void write(O object, RowWriter row) { throw new UnsupportedOperationException(); }
            @Override public O read(RowSource row) throws SQLException {
                return key != null ? layout.readLookup(row, key) : layout.readLookupKeyed(row);
            }
        };
        return statements.cursor(options, "SELECT " + schema.columns.sql().lookupColumns()
                + (key != null ? "" : ", " + CollectionSchema.KEY) + " FROM " + schema.table
                + (tail.isEmpty() ? "" : " " + tail), params, false, lookup, false, Operation.LOOKUP);
    }

    /**
     * A cursor over the rows of {@code sql}, whose first columns are the layout columns, each mapped with
     * {@code mapper}. Meant for joins; cached statements are safe for them because statistics propagation is off
     * (see {@link Database}).
     */
    public <T> CloseableIterator<T> query(QueryOptions options, String sql, List<?> params, boolean large,
                                   RowMapper<O, T> mapper) {
        return statements.cursor(options, sql, params, large, view(mapper, false));
    }

    /** As {@link #query}, every row read at once through the point reader: for a result bounded by a LIMIT. */
    public <T> List<T> queryAll(QueryOptions options, String sql, List<?> params, RowMapper<O, T> mapper) {
        return statements.list(options, sql, params, view(mapper, false));
    }

    /**
     * As {@link #query}, over rows whose first columns are the layout's {@link ObjectTable#copyColumns}: the
     * copies a covering index table carries.
     */
    public <T> CloseableIterator<T> queryCopies(QueryOptions options, String sql, List<?> params, boolean large,
                                         RowMapper<O, T> mapper) {
        return statements.cursor(options, sql, params, large, view(mapper, true));
    }

    /** As {@link #queryCopies}, every row read at once, as {@link #queryAll} reads. */
    public <T> List<T> queryAllCopies(QueryOptions options, String sql, List<?> params, RowMapper<O, T> mapper) {
        return statements.list(options, sql, params, view(mapper, true));
    }

    /** Rows that start with the layout's columns, or with its copy columns when {@code copies}. */
    private <T> ObjectTable<T> view(RowMapper<O, T> mapper, boolean copies) {
        ObjectTable<O> layout = schema.layout;
        List<Column> columns = copies ? layout.copyColumns() : layout.columns();
        return new ObjectTable<>() {
            @Override public List<Column> columns() { return columns; }
            @Override public void write(T object, RowWriter row) { throw new UnsupportedOperationException(); }
            @Override public T read(RowSource row) throws SQLException {
                return mapper.map(copies ? layout.readCopy(row) : layout.read(row), row);
            }
        };
    }

    /**
     * A cursor over the keys of {@code sql}, whose only column is the key column, decoded and in result order.
     * It streams like {@link #objects} (row by row, through the point reader the keys were always read with).
     */
    public CloseableIterator<A> keys(QueryOptions options, String sql, List<?> params) {
        KeyType<A> keyType = schema.keyType;
        ObjectTable<A> keys = new ObjectTable<>() {
            @Override public List<Column> columns() { return List.of(); }
            @Override public void write(A key, RowWriter row) { throw new UnsupportedOperationException(); }
            @Override public A read(RowSource row) throws SQLException { return keyType.read(row, 0); }
        };
        return statements.cursor(options, sql, params, false, keys);
    }

    /**
     * The objects whose keys {@code keysSql} selects when there are at most {@code limit} of them, else
     * {@code null}. Two statements in one snapshot: the keys (stopping after {@code limit + 1} rows), then the
     * objects by an {@code IN} list of those keys, which DuckDB answers through the primary key's ART, where
     * {@code _key IN (<keys>)} as one statement scans every stored key to probe the matches.
     */
    public List<O> fewObjects(QueryOptions options, String keysSql, List<?> params, int limit) {
        return statements.readInOneSnapshot(options, "Querying", c -> {
            // No DISTINCT, which would compute every key before the first: a key set with more than limit rows
            // stops streaming at limit + 1 and the caller falls back, even if some rows repeat a key.
            java.util.Set<A> keys = new java.util.LinkedHashSet<>();
            int rowCount = 0;
            String sql = "SELECT " + CollectionSchema.KEY + " FROM (" + keysSql + ") LIMIT " + (limit + 1);
            PreparedStatement ps = c.prepare(sql);
            try {
                CollectionStatements.bind(ps, params);
                try (Statements.Run run = statements.start(ps, Operation.RETRIEVAL, sql, options);
                     ResultSet rs = ps.executeQuery(); RowCursor rows = schema.db.reader(false).open(rs)) {
                    while (rows.next()) {
                        keys.add(schema.keyType.read(rows.row(), 0));
                        rowCount++;
                    }
                    run.rows(rowCount);
                    run.succeeded();
                }
            } finally {
                c.recycle(ps);
            }
            if (rowCount > limit) {
                return null;
            }
            List<O> objects = new java.util.ArrayList<>(keys.size());
            if (!keys.isEmpty()) {
                new KeyBatches<>(schema, limit).forStoredObjectsOnce(c, keys, (key, stored) -> objects.add(stored));
            }
            return objects;
        });
    }
}
