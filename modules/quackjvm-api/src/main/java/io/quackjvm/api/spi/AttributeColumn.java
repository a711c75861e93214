package io.quackjvm.api.spi;

import java.time.LocalDate;
import java.util.Objects;
import java.util.Set;

/**
 * A layout's declaration that one of its columns holds the values of an attribute, so that the engine may answer
 * queries, aggregates, joins and SQL on that attribute from the column instead of rebuilding objects in Java.
 * An object table lists its declarations in {@link ObjectTable#attributeColumns()}; the engine matches a CQEngine
 * attribute to a declaration by its name (exactly, case included) and its type, and uses only what the declared
 * {@link Comparison} says DuckDB answers as Java does.
 *
 * <p>A layout declares a column only when, for every stored object, the column holds the value that the attribute
 * of that name returns for the object (NULL when it returns none). Immutable.
 *
 * @param attribute  the attribute name, for example the name of the field the column holds
 * @param column     one of the table's {@link ObjectTable#columns()}
 * @param javaType   the attribute's type (boxed for primitives: {@code Double} for a {@code double} field)
 * @param comparison how DuckDB's comparisons of the column's values relate to Java's
 */
public record AttributeColumn(String attribute, Column column, Class<?> javaType, Comparison comparison) {

    /** The Java types whose DuckDB column compares as Java does, for {@link Comparison#NATIVE}. */
    private static final Set<Class<?>> NATIVE = Set.of(Integer.class, Long.class, Short.class, Byte.class,
            Boolean.class, LocalDate.class);

    /**
     * @throws IllegalArgumentException when {@code comparison} does not hold for {@code javaType}: {@code NATIVE}
     *                                  for another type than {@code Integer}, {@code Long}, {@code Short},
     *                                  {@code Byte}, {@code Boolean}, {@code LocalDate} or an enum,
     *                                  {@code SIGNED_ZERO} for another than {@code Double} or {@code Float},
     *                                  {@code UTF8_ORDER} for another than {@code String}, {@code ENCODED} for a
     *                                  type {@link ValueType#of} does not know
     */
    public AttributeColumn {
        Objects.requireNonNull(attribute, "attribute");
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(javaType, "javaType");
        Objects.requireNonNull(comparison, "comparison");
        boolean fits = switch (comparison) {
            case NATIVE -> NATIVE.contains(javaType) || javaType.isEnum();
            case SIGNED_ZERO -> javaType == Double.class || javaType == Float.class;
            case UTF8_ORDER -> javaType == String.class;
            case ENCODED -> ValueType.isSupported(javaType);
        };
        if (!fits) {
            throw new IllegalArgumentException("Column '" + column.name() + "' cannot be declared " + comparison
                    + " for attribute '" + attribute + "' of type " + javaType.getName() + "; see "
                    + "AttributeColumn.Comparison for the types each comparison admits");
        }
    }

    /**
     * What DuckDB's comparison of a column's values keeps of Java's {@code equals} and {@code compareTo}. The engine
     * pushes down exactly what is kept; anything else is answered in Java.
     */
    public enum Comparison {
        /**
         * DuckDB's own type, whose {@code =}, {@code <} and {@code ORDER BY} are Java's for the attribute's type:
         * {@code INTEGER}, {@code BIGINT}, {@code SMALLINT}, {@code TINYINT}, {@code BOOLEAN} and {@code DATE} for
         * {@code Integer}, {@code Long}, {@code Short}, {@code Byte}, {@code Boolean} and {@code LocalDate}, and an
         * {@code ENUM} listing an enum's constants in declaration order. Every query is pushed down.
         */
        NATIVE,
        /**
         * A {@code DOUBLE} or {@code FLOAT} column: DuckDB's comparison is Java's (NaN equal to itself and above every
         * other value) except that it sees {@code -0.0} and {@code 0.0} as equal. The engine reads the sign of a zero
         * from {@link ObjectTable#sqlValue} and keeps Java's {@code -0.0 < 0.0}. Every query is pushed down.
         */
        SIGNED_ZERO,
        /**
         * A {@code VARCHAR} column of strings that are valid UTF-16 (no unpaired surrogate): equality,
         * {@code startsWith}, {@code endsWith} and {@code contains} are Java's and run on the column; DuckDB orders
         * text by UTF-8 bytes, not by UTF-16 code units, so ranges, ordering, minimums and maximums run on an
         * order-preserving re-encoding of each value (computed per row, so slower than on the column). Every query
         * is pushed down.
         */
        UTF8_ORDER,
        /**
         * The column holds {@link ValueType#of}{@code (javaType).encode(value)}, the form index tables use, whose
         * comparisons are Java's for every type {@link ValueType} knows. Every query is pushed down.
         */
        ENCODED
    }
}
