package io.quackjvm.api.internal;

import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.simple.Equal;
import com.googlecode.cqengine.query.simple.Has;
import com.googlecode.cqengine.query.simple.In;
import com.googlecode.cqengine.query.simple.StringContains;
import com.googlecode.cqengine.query.simple.StringEndsWith;
import com.googlecode.cqengine.query.simple.StringStartsWith;
import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.ValueType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * An attribute of one collection as DuckDB sees it: a relation of {@code (_key, value)} rows, one per object and
 * distinct value, whose values compare in DuckDB as the attribute's values compare in Java. Three kinds exist:
 * <ul>
 *   <li>an attached {@code DuckDBIndex}: its index table, values in their {@link ValueType} stored form;</li>
 *   <li>the primary key: the object table's {@code _key} column, in the same stored form;</li>
 *   <li>a field of the columnar layout whose name is the attribute's name and whose type is one whose DuckDB
 *   column is Java's value as it is: {@code Integer}, {@code Long}, {@code Short}, {@code Byte}, {@code Boolean}
 *   (every query), and {@code String} (equality, {@code in}, {@code has}, {@code startsWith}, {@code endsWith},
 *   {@code contains}: DuckDB orders VARCHAR by UTF-8 bytes, not by UTF-16 code units, so ranges and ordering
 *   are not pushed down). Floating-point, decimal, enum, temporal and collection fields are stored in DuckDB's
 *   own types, whose equality or order differ from Java's (-0.0, NaN, scale), so they are visible only through a
 *   {@code DuckDBIndex}.</li>
 * </ul>
 * Immutable.
 *
 * @param from        the relation holding {@code _key} and the value, for a {@code FROM} clause
 * @param value       the value expression in that relation
 * @param valueType   how values are encoded for binding (for a raw string column: {@code null})
 * @param encoding    identifies the stored form: two visible attributes can be compared (joined) only when equal
 * @param singleValued whether every object has at most one value (so ordering by it is ordering by a value)
 * @param orderable   whether {@code ORDER BY value} is Java's {@code compareTo} order
 * @param describe    how a message names it
 */
record Visible(String from, String value, ValueType<?> valueType, String encoding, boolean singleValued,
               boolean orderable, String describe) {

    private static final Map<Class<?>, String> COLUMNAR = Map.of(Integer.class, "INTEGER", Long.class, "BIGINT",
            Short.class, "SMALLINT", Byte.class, "TINYINT", Boolean.class, "BOOLEAN", String.class, "VARCHAR");

    /** How {@code attribute} is visible in {@code table}, or {@code null} when DuckDB cannot see it. */
    static <O> Visible of(CollectionTable<O, ?> table, Attribute<O, ?> attribute) {
        if (attribute == null) {
            return null;
        }
        for (IndexTable<O, ?> index : table.indexTables()) {
            if (index.attribute().equals(attribute)) {
                return new Visible(index.sqlName(), IndexPredicatesAccess.VALUE, index.valueType(),
                        index.valueType().signature(), index.singleValued(), index.singleValued(),
                        "the DuckDBIndex on '" + attribute.getAttributeName() + "'");
            }
        }
        if (attribute.equals(table.primaryKey())) {
            ValueType<?> keyType = table.keyType().valueType();
            return new Visible(table.sqlName(), CollectionSchema.KEY, keyType, keyType.signature(), true, true,
                    "the primary key '" + attribute.getAttributeName() + "'");
        }
        return column(table, attribute);
    }

    /**
     * How {@code attribute} is visible as a typed column of {@code table}'s object table (a columnar field of its
     * name and of a type whose DuckDB column is Java's value as it is), whether or not it also has an index;
     * {@code null} when it is not such a column.
     */
    static <O> Visible column(CollectionTable<O, ?> table, Attribute<O, ?> attribute) {
        if (!"columnar".equals(table.layoutName())) {
            return null;
        }
        String sqlType = COLUMNAR.get(attribute.getAttributeType());
        if (sqlType == null) {
            return null;
        }
        for (Column c : table.valueColumns()) {
            if (c.name().equals(attribute.getAttributeName()) && c.sqlType().equalsIgnoreCase(sqlType)) {
                boolean string = attribute.getAttributeType() == String.class;
                ValueType<?> type = string ? null : ValueType.of(attribute.getAttributeType());
                return new Visible(table.sqlName(), CollectionSchema.quote(c.name()), type,
                        string ? "java.lang.String:raw-VARCHAR" : type.signature(),
                        attribute instanceof SimpleAttribute, !string,
                        "the columnar field '" + c.name() + "'");
            }
        }
        return null;
    }

    /** The key set of the objects whose value satisfies {@code query}, or {@code null} when it cannot be said. */
    SqlPredicate keys(Query<?> query) {
        SqlPredicate p = valueType != null ? IndexPredicates.translate(query, valueType, value) : rawString(query);
        if (p == null) {
            return null;
        }
        boolean all = "TRUE".equals(p.sql());
        // Index tables hold no row for a missing value; a column holds NULL, which no condition but IS NULL meets.
        String where = all ? (isIndex() ? "" : " WHERE " + value + " IS NOT NULL") : " WHERE " + p.sql();
        return new SqlPredicate("SELECT " + CollectionSchema.KEY + " FROM " + from + where, p.params());
    }

    /**
     * The condition {@code query} puts on one row of {@link #from()} (unqualified column names), or {@code null}
     * when it cannot be said. On a column {@code has} is {@code IS NOT NULL}; a NULL value meets no other
     * condition, so callers that negate it must make NULL false first.
     */
    SqlPredicate condition(Query<?> query) {
        SqlPredicate p = valueType != null ? IndexPredicates.translate(query, valueType, value) : rawString(query);
        if (p != null && "TRUE".equals(p.sql()) && !isIndex()) {
            return new SqlPredicate(value + " IS NOT NULL", List.of());
        }
        return p;
    }

    private boolean isIndex() {
        return IndexPredicatesAccess.VALUE.equals(value);
    }

    /**
     * Conditions on a raw VARCHAR column that are Java's String methods: for strings that are valid UTF-16 (the
     * columnar layout refuses any other), equality and code-point prefixes, suffixes and infixes are the UTF-16
     * ones. A query value holding a surrogate is left to Java, since the driver could not bind it exactly.
     */
    private SqlPredicate rawString(Query<?> query) {
        if (query instanceof Has) {
            return new SqlPredicate("TRUE", List.of());
        }
        if (query instanceof Equal<?, ?> q) {
            return plain(q.getValue()) ? new SqlPredicate(value + " = ?", List.of(q.getValue())) : null;
        }
        if (query instanceof In<?, ?> q) {
            StringJoiner marks = new StringJoiner(", ", value + " IN (", ")");
            List<Object> params = new ArrayList<>();
            for (Object v : q.getValues()) {
                if (!plain(v)) {
                    return null;
                }
                marks.add("?");
                params.add(v);
            }
            return params.isEmpty() ? new SqlPredicate("FALSE", List.of()) : new SqlPredicate(marks.toString(), params);
        }
        if (query instanceof StringStartsWith<?, ?> q && plain(q.getValue())) {
            return new SqlPredicate("starts_with(" + value + ", ?)", List.of(q.getValue().toString()));
        }
        if (query instanceof StringEndsWith<?, ?> q && plain(q.getValue())) {
            return new SqlPredicate("ends_with(" + value + ", ?)", List.of(q.getValue().toString()));
        }
        if (query instanceof StringContains<?, ?> q && plain(q.getValue())) {
            return new SqlPredicate("contains(" + value + ", ?)", List.of(q.getValue().toString()));
        }
        return null;
    }

    private static boolean plain(Object v) {
        if (!(v instanceof CharSequence s)) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (Character.isSurrogate(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** The message part saying how to make an attribute visible. */
    static String howToSee(Attribute<?, ?> attribute) {
        return "attribute '" + attribute.getAttributeName() + "' is not visible to DuckDB: add a DuckDBIndex on it "
                + "(collection.addIndex(DuckDBIndex.onAttribute(...))), or store the collection with the columnar "
                + "layout with a field named '" + attribute.getAttributeName() + "' of type Integer, Long, Short, "
                + "Byte, Boolean or String";
    }

    /** The column name index tables use for values. */
    static final class IndexPredicatesAccess {
        static final String VALUE = io.quackjvm.api.spi.IndexTableDefinition.VALUE_COLUMN;

        private IndexPredicatesAccess() {
        }
    }
}
