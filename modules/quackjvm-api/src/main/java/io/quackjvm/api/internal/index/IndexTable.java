package io.quackjvm.api.internal.index;

import io.quackjvm.api.internal.collection.CollectionSchema;

import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.IndexStrategyProvider;
import io.quackjvm.api.spi.IndexTableDefinition;
import io.quackjvm.api.spi.ValueType;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One attribute index table of a collection: {@code (_key, value)}, one row per object and distinct attribute
 * value, written by {@link CollectionWrites} in the same transaction as the objects. A <em>covering</em> index
 * table also carries a copy of the object's layout columns (named {@code o_<column>}), so that a query on the
 * attribute reads its objects from the index table alone, without a join to the object table. Immutable and
 * thread-safe.
 *
 * @param <O> the object type
 * @param <V> the attribute type
 */
public final class IndexTable<O, V> {

    private final Attribute<O, V> attribute;
    private final ValueType<V> valueType;
    private final IndexStrategyProvider strategy;
    private final String name;
    private final String quoted;
    private final IndexTableDefinition definition;
    private final boolean singleValued;
    /** The layout columns copied into the table, or empty when it is not covering. */
    private final List<Column> covered;
    /**
     * About how many distinct values the table held when {@code optimize()} last measured it (DuckDB's
     * {@code approx_count_distinct}); 0 when never measured. Only orders the parts of a query; never stale in a
     * way that matters for answers.
     */
    private volatile long distinctValues;

    public IndexTable(String collection, String keySqlType, Attribute<O, V> attribute, ValueType<V> valueType,
               IndexStrategyProvider strategy, List<Column> covered) {
        this.covered = List.copyOf(covered);
        this.attribute = attribute;
        this.valueType = valueType;
        this.strategy = strategy;
        this.name = tableName(collection, attribute.getAttributeName());
        this.quoted = CollectionSchema.quote(name);
        this.definition = new IndexTableDefinition(name, CollectionSchema.KEY, keySqlType,
                valueType.sqlType());
        // A SimpleAttribute has exactly one value per object, a SimpleNullableAttribute at most one: no DISTINCT.
        this.singleValued = attribute instanceof SimpleAttribute
                || attribute instanceof com.googlecode.cqengine.attribute.SimpleNullableAttribute;
    }

    /** Measures {@link #distinctValues()} on {@code c}, in its transaction. */
    public void measureDistinct(io.quackjvm.api.spi.PooledConnection c) throws java.sql.SQLException {
        try (java.sql.Statement s = c.connection().createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT approx_count_distinct(value) FROM " + quoted)) {
            distinctValues = rs.next() ? rs.getLong(1) : 0;
        }
    }

    /** About how many distinct values the table held when last optimized; 0 when unknown. */
    public long distinctValues() {
        return distinctValues;
    }

    /**
     * {@code <collection>_idx_<attribute letters and digits>_<hash of the exact name>}: readable, and distinct for
     * names that differ only in punctuation or case (DuckDB identifiers are case-insensitive).
     */
    static String tableName(String collection, String attributeName) {
        String letters = attributeName.replaceAll("[^A-Za-z0-9]", "");
        if (letters.length() > 40) {
            letters = letters.substring(0, 40);
        }
        return collection + "_idx_" + letters + "_" + Integer.toHexString(attributeName.hashCode());
    }

    public Attribute<O, V> attribute() {
        return attribute;
    }

    public ValueType<V> valueType() {
        return valueType;
    }

    public IndexStrategyProvider strategy() {
        return strategy;
    }

    /** The unquoted table name. */
    public String name() {
        return name;
    }

    /** The quoted table name, for SQL. */
    public String sqlName() {
        return quoted;
    }

    public IndexTableDefinition definition() {
        return definition;
    }

    /** Whether every object has exactly one row at most (counts need no DISTINCT). */
    public boolean singleValued() {
        return singleValued;
    }

    /** Whether the table carries a copy of each object's layout columns. */
    public boolean covering() {
        return !covered.isEmpty();
    }

    /** The layout columns the table carries a copy of (empty when not covering). */
    public List<Column> coveredColumns() {
        return covered;
    }

    /** The copied layout columns, quoted and optionally qualified, for SQL: {@code i."o_c1", i."o_c2"}. */
    public String sqlCoveredColumns(String alias) {
        StringBuilder sb = new StringBuilder();
        for (Column c : covered) {
            sb.append(sb.length() == 0 ? "" : ", ").append(alias == null ? "" : alias + ".")
                    .append(CollectionSchema.quote(coveredName(c)));
        }
        return sb.toString();
    }

    /** The name of the copy of a layout column: prefixed, so that it never clashes with {@code _key} or {@code value}. */
    public static String coveredName(Column c) {
        return "o_" + c.name();
    }

    /**
     * What the file's index metadata records as the table's strategy: the strategy name, plus for a covering table
     * the copied columns and their types, so that a table built for other columns is rebuilt rather than reused.
     */
    public String storedStrategy() {
        if (covered.isEmpty()) {
            return strategy.name();
        }
        StringBuilder sb = new StringBuilder(strategy.name()).append("+covering(");
        for (Column c : covered) {
            sb.append(c.name()).append(' ').append(c.sqlType()).append(';');
        }
        return sb.append(')').toString();
    }

    /** The stored forms of an object's distinct non-null values: the rows it gets. */
    public Set<Object> encodedValues(O object, QueryOptions options) {
        if (attribute instanceof SimpleAttribute<O, V> simple) {
            // one value: no set to build (this runs for every object of a bulk load, per index)
            V v = simple.getValue(object, options);
            return v == null ? Set.of() : Collections.singleton(encoded(object, v));
        }
        Set<Object> out = new LinkedHashSet<>();
        Iterable<V> values = attribute.getValues(object, options);
        if (values == null) {
            return out;
        }
        for (V v : values) {
            if (v != null) {
                out.add(encoded(object, v));
            }
        }
        return out;
    }

    private Object encoded(O object, V v) {
        if (!valueType.javaType().isInstance(v)) {
            throw new IllegalArgumentException("Attribute '" + attribute.getAttributeName() + "' of " + object
                    + " returned " + v.getClass().getName() + " where its index expects "
                    + valueType.javaType().getName());
        }
        return valueType.encode(v);
    }
}
