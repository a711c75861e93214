package io.quackjvm.api.internal.query;

import io.quackjvm.api.internal.answer.SqlDecode;
import io.quackjvm.api.internal.collection.CollectionSchema;
import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.index.IndexTable;

import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.attribute.MultiValueAttribute;
import com.googlecode.cqengine.attribute.MultiValueNullableAttribute;
import com.googlecode.cqengine.query.Query;
import io.quackjvm.api.spi.AttributeColumn;
import io.quackjvm.api.spi.ValueType;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The engine's one answer to "where does SQL find this attribute's values, and what may it ask of them": a
 * relation of {@code (_key, value)} rows, one per object and distinct value. Retrieval push-down, conditions on
 * rows, {@code database.from(...)} filters and aggregates, joins, {@code existsIn} and ordering all resolve an
 * attribute here. In order of preference:
 * <ul>
 *   <li>an attached {@code DuckDBIndex}: its index table, values in their {@link ValueType} stored form;</li>
 *   <li>the primary key: the object table's {@code _key} column, in the same stored form;</li>
 *   <li>a column the object layout declares for the attribute ({@link AttributeColumn}), used as far as its
 *   {@link AttributeColumn.Comparison} keeps Java's semantics ({@link ColumnConditions}).</li>
 * </ul>
 * Immutable.
 *
 * @param from         the relation holding {@code _key} and the value, for a {@code FROM} clause
 * @param value        the value expression in that relation (unqualified)
 * @param kind         what the value is
 * @param valueType    for {@link Kind#STORED}: how values are encoded for binding; otherwise {@code null}
 * @param javaType     the attribute's type
 * @param exact        for {@link Kind#SIGNED_ZERO}: the value with the sign of its zero, given a qualifier
 *                     ({@code "o."} or empty); otherwise {@code null}
 * @param singleValued whether every object has at most one value
 * @param describe     how a message names it
 */
public record Visible(String from, String value, Kind kind, ValueType<?> valueType, Class<?> javaType,
               UnaryOperator<String> exact, boolean singleValued, String describe) {

    /** What a visible value is, which decides what SQL may ask of it. */
    public enum Kind {
        /** A value in its {@link ValueType} stored form: an index table, the key, or an {@code ENCODED} column. */
        STORED,
        /** A {@link AttributeColumn.Comparison#NATIVE} column. */
        NATIVE,
        /** A {@link AttributeColumn.Comparison#SIGNED_ZERO} column. */
        SIGNED_ZERO,
        /** A {@link AttributeColumn.Comparison#UTF8_ORDER} column. */
        UTF8
    }

    /** How {@code attribute} is visible in {@code table}, or {@code null} when DuckDB cannot see it. */
    public static <O> Visible of(CollectionTable<O, ?> table, Attribute<O, ?> attribute) {
        if (attribute == null) {
            return null;
        }
        for (IndexTable<O, ?> index : table.indexes().all()) {
            if (index.attribute().equals(attribute)) {
                return new Visible(index.sqlName(), IndexColumn.VALUE, Kind.STORED, index.valueType(),
                        index.valueType().javaType(), null, index.singleValued(),
                        "the DuckDBIndex on '" + attribute.getAttributeName() + "'");
            }
        }
        if (attribute.equals(table.schema().primaryKey())) {
            ValueType<?> keyType = table.schema().keyType().valueType();
            return new Visible(table.schema().sqlName(), CollectionSchema.KEY, Kind.STORED, keyType, keyType.javaType(), null,
                    true, "the primary key '" + attribute.getAttributeName() + "'");
        }
        return column(table, attribute);
    }

    /**
     * How {@code attribute} is visible as a column the layout declares for it (same name, same type), whether or
     * not it also has an index; {@code null} when the layout declares none.
     */
    public static <O> Visible column(CollectionTable<O, ?> table, Attribute<O, ?> attribute) {
        if (attribute == null) {
            return null;
        }
        AttributeColumn declared = table.columns().attributeColumn(attribute.getAttributeName());
        if (declared == null || declared.javaType() != attribute.getAttributeType()) {
            return null;
        }
        String quoted = CollectionSchema.quote(declared.column().name());
        boolean single = !(attribute instanceof MultiValueAttribute) && !(attribute instanceof MultiValueNullableAttribute);
        String describe = "the column '" + declared.column().name() + "'";
        return switch (declared.comparison()) {
            case ENCODED -> new Visible(table.schema().sqlName(), quoted, Kind.STORED, ValueType.of(declared.javaType()),
                    declared.javaType(), null, single, describe);
            case NATIVE -> new Visible(table.schema().sqlName(), quoted, Kind.NATIVE, null, declared.javaType(), null, single,
                    describe);
            case SIGNED_ZERO -> new Visible(table.schema().sqlName(), quoted, Kind.SIGNED_ZERO, null, declared.javaType(),
                    qualifier -> table.columns().sqlValue(declared.column(), qualifier), single, describe);
            case UTF8_ORDER -> new Visible(table.schema().sqlName(), quoted, Kind.UTF8, null, String.class, null, single,
                    describe);
        };
    }

    /** Whether {@code ORDER BY} can give Java's {@code compareTo} order ({@link #order}): always. */
    public boolean orderable() {
        return true;
    }

    /**
     * The {@code ORDER BY} terms giving Java's order of the values, ascending or descending; {@code qualifier}
     * prefixes the relation's columns.
     */
    public String order(String qualifier, boolean descending) {
        String direction = descending ? " DESC" : " ASC";
        String v = qualifier + value;
        if (kind == Kind.UTF8) {
            // DuckDB orders text by UTF-8 bytes; the stored form orders as Java's UTF-16 code units.
            return ColumnConditions.encodedString(v) + direction;
        }
        if (kind == Kind.SIGNED_ZERO) {
            // DuckDB sees -0.0 = 0.0; Java orders -0.0 first.
            return v + direction + ", signbit(" + exact.apply(qualifier) + ")" + (descending ? " ASC" : " DESC");
        }
        return v + direction;
    }

    /**
     * Identifies the form values are stored in: values of two visible attributes with the same encoding compare
     * with {@code =} as they are.
     */
    public String encoding() {
        return switch (kind) {
            case STORED -> valueType.signature();
            case NATIVE -> ValueType.isSupported(javaType) && SqlDecode.natural(ValueType.of(javaType))
                    ? ValueType.of(javaType).signature() : javaType.getName() + ":native";
            case SIGNED_ZERO -> javaType.getName() + ":signed-zero";
            case UTF8 -> "java.lang.String:raw-VARCHAR";
        };
    }

    /**
     * The expressions, on {@code a} (aliased {@code aliasA}) and {@code b} (aliased {@code aliasB}), whose
     * equality in SQL is Java's {@code equals} of their values, or {@code null} when values of the two cannot be
     * compared in SQL (different types, or floating-point values stored in two different forms).
     */
    public static String[] comparable(Visible a, String aliasA, Visible b, String aliasB) {
        if (a.kind != Kind.SIGNED_ZERO && b.kind != Kind.SIGNED_ZERO && a.encoding().equals(b.encoding())) {
            return new String[]{aliasA + a.value, aliasB + b.value};
        }
        if (a.javaType != b.javaType) {
            return null;
        }
        if (a.kind == Kind.SIGNED_ZERO && b.kind == Kind.SIGNED_ZERO) {
            return new String[]{ColumnConditions.signedZero(aliasA + a.value, a.exact.apply(aliasA)),
                    ColumnConditions.signedZero(aliasB + b.value, b.exact.apply(aliasB))};
        }
        String x = a.stored(aliasA);
        String y = b.stored(aliasB);
        return x == null || y == null ? null : new String[]{x, y};
    }

    /** The value in its {@link ValueType} stored form, or {@code null} when SQL cannot compute it. */
    private String stored(String qualifier) {
        String v = qualifier + value;
        return switch (kind) {
            case STORED -> v;
            case UTF8 -> ColumnConditions.encodedString(v);
            case NATIVE -> javaType.isEnum() ? "CAST(enum_code(" + v + ") AS INTEGER)"
                    : javaType == java.time.LocalDate.class ? "(" + v + " - DATE '1970-01-01')"
                    : v;
            case SIGNED_ZERO -> null;
        };
    }

    /** The key set of the objects whose value satisfies {@code query}, or {@code null} when it cannot be said. */
    SqlPredicate keys(Query<?> query) {
        SqlPredicate p = translate(query);
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
        SqlPredicate p = translate(query);
        if (p != null && "TRUE".equals(p.sql()) && !isIndex()) {
            return new SqlPredicate(value + " IS NOT NULL", List.of());
        }
        return p;
    }

    private SqlPredicate translate(Query<?> query) {
        return switch (kind) {
            case STORED -> IndexPredicates.translate(query, valueType, value);
            case NATIVE -> ColumnConditions.natural(query, javaType, value);
            case SIGNED_ZERO -> ColumnConditions.signedZero(query, javaType, value, exact.apply(""));
            case UTF8 -> {
                // On the column itself where the text's own comparison is Java's (DuckDB can use its statistics);
                // otherwise (ranges, values with supplementary characters) on the order-preserving stored form.
                SqlPredicate p = ColumnConditions.string(query, value);
                yield p != null ? p : IndexPredicates.translate(query, ValueType.of(String.class),
                        ColumnConditions.encodedString(value));
            }
        };
    }

    private boolean isIndex() {
        return IndexColumn.VALUE.equals(value);
    }

    /** The message part saying how to make an attribute visible. */
    public static String howToSee(Attribute<?, ?> attribute) {
        return "attribute '" + attribute.getAttributeName() + "' is not visible to DuckDB: add a DuckDBIndex on it "
                + "(collection.addIndex(DuckDBIndex.onAttribute(...))), or store the collection in a layout that "
                + "keeps it in a column of its own (the columnar layout does for a field named '"
                + attribute.getAttributeName() + "' of a number, boolean, string, date or enum type)";
    }

    /** The column name index tables use for values. */
    static final class IndexColumn {
        static final String VALUE = io.quackjvm.api.spi.IndexTableDefinition.VALUE_COLUMN;

        private IndexColumn() {
        }
    }
}
