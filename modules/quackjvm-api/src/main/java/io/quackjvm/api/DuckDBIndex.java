package io.quackjvm.api;

import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.index.Index;
import com.googlecode.cqengine.index.support.CloseableIterable;
import com.googlecode.cqengine.index.support.KeyStatistics;
import com.googlecode.cqengine.index.support.KeyValue;
import com.googlecode.cqengine.index.support.SortedKeyStatisticsAttributeIndex;
import com.googlecode.cqengine.index.support.indextype.NonHeapTypeIndex;
import com.googlecode.cqengine.persistence.support.ObjectSet;
import com.googlecode.cqengine.persistence.support.ObjectStore;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.internal.index.AttributeIndexQueries;
import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.collection.DuckDBObjectStore;
import io.quackjvm.api.internal.index.IndexTable;
import io.quackjvm.api.internal.database.Providers;
import io.quackjvm.api.spi.IndexStrategyProvider;
import io.quackjvm.api.spi.ValueType;

import java.util.Objects;

/**
 * A CQEngine index whose entries live in a DuckDB table beside the collection's objects: one row per object and
 * attribute value, written in the same transaction as the object.
 *
 * <pre>{@code
 * cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));             // two-column table, scanned
 * cars.addIndex(DuckDBIndex.onAttributeWithArtIndex(Car.MODEL));        // plus a DuckDB ART index on the value
 * }</pre>
 *
 * <p>Queries answered in SQL, with Java's semantics (see {@link ValueType} for how values are stored so that
 * DuckDB's comparisons are Java's): {@code equal}, {@code in}, {@code lessThan[OrEqualTo]},
 * {@code greaterThan[OrEqualTo]}, {@code between} (every inclusivity), {@code has}, and on {@code String}
 * attributes {@code startsWith} (including {@code ""}), {@code endsWith}, {@code contains}, {@code isContainedIn}
 * and {@code isPrefixOf}, and {@code min} / {@code max} (except on BigDecimal). Every other query on the attribute
 * ({@code matchesRegex}, {@code longestPrefix}, ...) is left to CQEngine, which evaluates it on the objects. Each retrieval is one SQL statement returning the
 * objects; {@code size()} is a count; retrieval is lazy.
 *
 * <p>It is a {@link SortedKeyStatisticsAttributeIndex}, every statistic computed in SQL, so that CQEngine's
 * index ordering ({@code orderBy} with {@code EngineThresholds.INDEX_ORDERING_SELECTIVITY}) and its
 * {@code MetadataEngine} work.
 *
 * <p>Only collections on {@link DuckDBPersistence} can hold it. Its table is found again when a file is reopened
 * (named after the collection and the attribute name, which must therefore be stable: unnamed lambda attributes
 * are refused). An instance belongs to one collection at a time; once that collection's persistence is closed it
 * can be added again, for example to the collection of the same file reopened. Thread-safe.
 *
 * @param <A> the attribute type
 * @param <O> the object type
 */
public final class DuckDBIndex<A extends Comparable<A>, O> implements SortedKeyStatisticsAttributeIndex<A, O>,
        NonHeapTypeIndex {

    private final Attribute<O, A> attribute;
    private final ValueType<A> valueType;
    private final IndexStrategyProvider strategy;
    private final boolean covering;
    private volatile CollectionTable<O, ?> table;
    private volatile IndexTable<O, A> indexTable;
    /** The SQL of the attached table; {@code null} before {@link #init}. */
    private volatile AttributeIndexQueries<O, A> queries;

    private DuckDBIndex(Attribute<O, A> attribute, IndexStrategyProvider strategy) {
        this(attribute, strategy, false);
    }

    private DuckDBIndex(Attribute<O, A> attribute, IndexStrategyProvider strategy, boolean covering) {
        this.covering = covering;
        this.attribute = Objects.requireNonNull(attribute, "attribute");
        this.strategy = Objects.requireNonNull(strategy, "strategy");
        checkStableName(attribute);
        try {
            this.valueType = ValueType.of(attribute.getAttributeType());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Cannot index attribute '" + attribute.getAttributeName() + "' in "
                    + "DuckDB: " + e.getMessage(), e);
        }
    }

    /** An index stored as a two-column table (object key, value) that DuckDB scans; the {@code "scan"} strategy. */
    public static <A extends Comparable<A>, O> DuckDBIndex<A, O> onAttribute(Attribute<O, A> attribute) {
        return new DuckDBIndex<>(attribute, Providers.load(IndexStrategyProvider.class).named("scan"));
    }

    /**
     * The same table plus a DuckDB ART index on the value column; the {@code "art"} strategy. It makes the
     * database several times larger and helps only highly selective equality lookups: measure before using it.
     */
    public static <A extends Comparable<A>, O> DuckDBIndex<A, O> onAttributeWithArtIndex(Attribute<O, A> attribute) {
        return new DuckDBIndex<>(attribute, Providers.load(IndexStrategyProvider.class).named("art"));
    }

    /**
     * A covering index: the {@code "scan"} table plus a copy of every object (the serialised object in the blob
     * layout; in the columnar one the whole row as one BLOB, since DuckDB fetches one column of a row faster than
     * one per field). A query on this attribute then reads its objects from the index table alone, without
     * looking them up in the object table, so after {@link DuckDBPersistence#optimize()} (which sorts the table by
     * value) a narrow range or a rare value costs what its matches cost, whatever the size of the collection. The
     * price: the index table holds a second copy of the objects (about a blob object table's size on disk) and
     * every write stores the object twice. Use it for the attribute that request-serving code queries with narrow
     * ranges; see {@code docs/tuning.md}.
     */
    public static <A extends Comparable<A>, O> DuckDBIndex<A, O> onAttributeCovering(Attribute<O, A> attribute) {
        return new DuckDBIndex<>(attribute, Providers.load(IndexStrategyProvider.class).named("scan"), true);
    }

    /** An index built by an explicitly chosen strategy instead of a discovered one. */
    public static <A extends Comparable<A>, O> DuckDBIndex<A, O> onAttribute(Attribute<O, A> attribute,
                                                                            IndexStrategyProvider strategy) {
        return new DuckDBIndex<>(attribute, strategy);
    }

    /**
     * The table is named after the attribute, so the name must be the same in every run. CQEngine names an
     * attribute made from an unnamed lambda after the lambda's class ({@code Car$$Lambda$56/0x...}), which changes
     * between runs, and an unnamed anonymous attribute after its class.
     */
    private static void checkStableName(Attribute<?, ?> attribute) {
        String name = attribute.getAttributeName();
        if (name == null || name.isEmpty() || name.contains("$$Lambda") || name.contains("$Lambda$")
                || name.startsWith("<Unnamed attribute")) {
            throw new IllegalArgumentException("Attribute name '" + name + "' is not stable across JVM runs, so a "
                    + "DuckDB index table named after it could not be found again. Give the attribute a name: "
                    + "QueryFactory.attribute(" + simpleName(attribute.getObjectType()) + ".class, "
                    + simpleName(attribute.getAttributeType()) + ".class, \"myAttribute\", ...) or "
                    + "new SimpleAttribute<>(" + simpleName(attribute.getObjectType()) + ".class, "
                    + simpleName(attribute.getAttributeType()) + ".class, \"myAttribute\") { ... }.");
        }
    }

    private static String simpleName(Class<?> type) {
        return type == null ? "?" : type.getSimpleName();
    }

    /** The name of the index strategy ({@code "scan"}, {@code "art"}, ...). */
    public String getStrategyName() {
        return strategy.name();
    }

    /** Whether the index table carries a copy of the objects ({@link #onAttributeCovering}). */
    public boolean isCovering() {
        return covering;
    }

    /** The name of the DuckDB table that holds the index, or {@code null} before it is added to a collection. */
    public String getTableName() {
        IndexTable<O, A> t = indexTable;
        return t == null ? null : t.name();
    }

    // ------------------------------------------------------------------ Index

    @Override
    public Attribute<O, A> getAttribute() {
        return attribute;
    }

    @Override
    public boolean isMutable() {
        return true;
    }

    @Override
    public boolean isQuantized() {
        return false;
    }

    @Override
    public Index<O> getEffectiveIndex() {
        return this;
    }

    /**
     * Whether the query can be answered in SQL. {@code false} before the index is attached: CQEngine keeps an index
     * whose {@code init} failed (for example a second index on the same attribute) registered, and must not use it.
     */
    @Override
    public boolean supportsQuery(Query<O> query, QueryOptions queryOptions) {
        AttributeIndexQueries<O, A> q = queries;
        return q != null && q.supports(query);
    }

    @Override
    public ResultSet<O> retrieve(Query<O> query, QueryOptions queryOptions) {
        return attached().retrieve(query, queryOptions);
    }

    private AttributeIndexQueries<O, A> attached() {
        AttributeIndexQueries<O, A> t = queries;
        if (t == null) {
            throw new IllegalStateException("DuckDBIndex on '" + attribute.getAttributeName() + "' has not been "
                    + "added to a collection; call collection.addIndex(index) first");
        }
        return t;
    }

    /** Creates the index table, or finds it in a reopened file, and builds it from the stored objects if new. */
    @Override
    public synchronized void init(ObjectStore<O> objectStore, QueryOptions queryOptions) {
        if (!(objectStore instanceof DuckDBObjectStore<O, ?> store)) {
            throw new IllegalStateException("A DuckDBIndex can only be added to a collection built on a "
                    + "DuckDBPersistence; this collection stores its objects in "
                    + objectStore.getClass().getName() + ". Use an on-heap index (HashIndex, NavigableIndex) there.");
        }
        if (table != null && table.database().isClosed()) {
            // Its collection's database was closed: the index may serve the reopened one.
            table = null;
            indexTable = null;
            queries = null;
        }
        if (table != null) {
            throw new IllegalStateException("This DuckDBIndex on '" + attribute.getAttributeName() + "' already "
                    + "belongs to collection '" + table.name() + "'; create a new one for each collection");
        }
        CollectionTable<O, ?> t = store.table();
        IndexTable<O, A> it = t.indexes().describe(attribute, valueType, strategy, covering);
        t.indexes().attach(it, queryOptions);
        table = t;
        indexTable = it;
        queries = new AttributeIndexQueries<>(t, it);
    }

    /** Drops the index table (CQEngine calls this from {@code removeIndex}). */
    @Override
    public synchronized void destroy(QueryOptions queryOptions) {
        IndexTable<O, A> it = indexTable;
        if (it != null) {
            table.indexes().detach(it, queryOptions);
            queries = null;
            indexTable = null;
            table = null;
        }
    }

    /** Nothing to do: the collection writes index rows in the same transaction as the objects. */
    @Override
    public boolean addAll(ObjectSet<O> objectSet, QueryOptions queryOptions) {
        return false;
    }

    /** Nothing to do: the collection deletes index rows with the objects. */
    @Override
    public boolean removeAll(ObjectSet<O> objectSet, QueryOptions queryOptions) {
        return false;
    }

    /** Nothing to do: clearing the collection clears its index tables. */
    @Override
    public void clear(QueryOptions queryOptions) {
        // see CollectionTable.clear
    }

    // ------------------------------------------------------------------ sorted statistics, all from SQL

    @Override
    public CloseableIterable<A> getDistinctKeys(QueryOptions queryOptions) {
        return attached().getDistinctKeys(queryOptions);
    }

    @Override
    public CloseableIterable<A> getDistinctKeys(A lowerBound, boolean lowerInclusive, A upperBound,
                                                boolean upperInclusive, QueryOptions queryOptions) {
        return attached().getDistinctKeys(lowerBound, lowerInclusive, upperBound, upperInclusive, queryOptions);
    }

    @Override
    public CloseableIterable<A> getDistinctKeysDescending(QueryOptions queryOptions) {
        return attached().getDistinctKeysDescending(queryOptions);
    }

    @Override
    public CloseableIterable<A> getDistinctKeysDescending(A lowerBound, boolean lowerInclusive, A upperBound,
                                                          boolean upperInclusive, QueryOptions queryOptions) {
        return attached().getDistinctKeysDescending(lowerBound, lowerInclusive, upperBound,
                upperInclusive, queryOptions);
    }

    @Override
    public Integer getCountForKey(A key, QueryOptions queryOptions) {
        return attached().countForKey(key, queryOptions);
    }

    @Override
    public Integer getCountOfDistinctKeys(QueryOptions queryOptions) {
        return attached().countOfDistinctKeys(queryOptions);
    }

    @Override
    public CloseableIterable<KeyStatistics<A>> getStatisticsForDistinctKeys(QueryOptions queryOptions) {
        return attached().getStatisticsForDistinctKeys(queryOptions);
    }

    @Override
    public CloseableIterable<KeyStatistics<A>> getStatisticsForDistinctKeysDescending(QueryOptions queryOptions) {
        return attached().getStatisticsForDistinctKeysDescending(queryOptions);
    }

    @Override
    public CloseableIterable<KeyValue<A, O>> getKeysAndValues(QueryOptions queryOptions) {
        return attached().getKeysAndValues(queryOptions);
    }

    @Override
    public CloseableIterable<KeyValue<A, O>> getKeysAndValues(A lowerBound, boolean lowerInclusive, A upperBound,
                                                              boolean upperInclusive, QueryOptions queryOptions) {
        return attached().getKeysAndValues(lowerBound, lowerInclusive, upperBound, upperInclusive,
                queryOptions);
    }

    @Override
    public CloseableIterable<KeyValue<A, O>> getKeysAndValuesDescending(QueryOptions queryOptions) {
        return attached().getKeysAndValuesDescending(queryOptions);
    }

    @Override
    public CloseableIterable<KeyValue<A, O>> getKeysAndValuesDescending(A lowerBound, boolean lowerInclusive,
                                                                        A upperBound, boolean upperInclusive,
                                                                        QueryOptions queryOptions) {
        return attached().getKeysAndValuesDescending(lowerBound, lowerInclusive, upperBound,
                upperInclusive, queryOptions);
    }

    @Override
    public String toString() {
        return "DuckDBIndex{" + attribute.getAttributeName() + ", " + strategy.name() + "}";
    }
}
