package io.quackjvm.api;

import io.quackjvm.api.layout.Descriptions;
import io.quackjvm.api.layout.FieldDescription;
import io.quackjvm.api.spi.ColumnarDescription;
import io.quackjvm.api.spi.ObjectLayoutProvider;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Describes how a class's objects are spread over typed DuckDB columns, for
 * {@link DuckDBPersistence.Builder#columnarLayout(ColumnarLayout)}: one column per field, named after the field,
 * so that the object table is an ordinary DuckDB table any SQL tool can query.
 *
 * <pre>{@code
 * record Car(int carId, String manufacturer, double price, List<String> features) { }
 *
 * DuckDBPersistence.builder(CAR_ID).columnarLayout(ColumnarLayout.ofRecord(Car.class)).build();
 * }</pre>
 *
 * <p>Three ways to describe a class:
 * <ul>
 *   <li>{@link #ofRecord(Class)}: a record's components, rebuilt through its canonical constructor.</li>
 *   <li>{@link #reflective(Class)}: every non-static, non-transient field of any class and its superclasses.
 *   Objects are rebuilt with the class's no-argument constructor when it has one, otherwise without calling any
 *   constructor (as Kryo does for the blob layout), and then every field is set.</li>
 *   <li>{@link #builder(Class)}: explicit named columns, each with a getter and a type, and a factory that builds an
 *   object from a row's values.</li>
 * </ul>
 * Only describing happens here; whether every field's type can be stored is checked by the columnar layout when the
 * persistence is built, and an unsupported type fails there, naming the class, the field and its type. The
 * supported types and their DuckDB columns are listed in {@code docs/columnar.md}. What a layout provider needs to
 * read and rebuild objects is in {@link #description()}.
 *
 * <p><b>Modules.</b> Reading and writing fields reflectively needs access: on the module path, a record's or
 * class's package must be opened to {@code io.quackjvm.api} ({@code opens my.pkg to io.quackjvm.api;}), unless
 * the layout is made with {@link #builder(Class)} and plain method references. A missing {@code opens} fails here,
 * with the directive to add.
 *
 * <p>Immutable and thread-safe.
 *
 * @param <O> the type of the described objects
 */
public final class ColumnarLayout<O> {

    /** How a layout was described. */
    public enum Kind {
        /** {@link #ofRecord(Class)}. */
        RECORD,
        /** {@link #reflective(Class)}. */
        REFLECTIVE,
        /** {@link #builder(Class)}. */
        EXPLICIT
    }

    private final Kind kind;
    private final List<Field<O>> fields;
    private final FieldDescription<O> description;

    private ColumnarLayout(Kind kind, FieldDescription<O> description) {
        this.kind = kind;
        this.description = description;
        List<Field<O>> named = new ArrayList<>(description.fields().size());
        for (ColumnarDescription.Field<O> f : description.fields()) {
            named.add(new Field<>(f.name(), f.type()));
        }
        this.fields = List.copyOf(named);
    }

    /** The same layout with {@link #withRowCopy()} applied: the same fields. */
    private ColumnarLayout(ColumnarLayout<O> base) {
        this.kind = base.kind;
        this.description = base.description.withRowCopy();
        this.fields = base.fields;
    }

    /**
     * This layout with a copy of each whole row kept in one more column, {@code _row} (a BLOB, hidden from the
     * collection's SQL view), next to the typed columns. A lookup by primary key then fetches that one column
     * instead of one column per field: DuckDB's cost of fetching one row grows with the number of columns fetched,
     * so without the copy a lookup of an eight-field object costs about 1.3x the blob layout's, and with it about
     * the same (measured in {@code benchmarks/results/archive/columnar-lookup/}). The cost is size: the copy is stored
     * uncompressed, about as large as the blob layout's object column, and adds a few percent to each write.
     * Queries, aggregates and SQL read the typed columns as before.
     *
     * <p>Every write through the collection keeps the copy exact. A table changed by SQL outside the collection
     * ({@code UPDATE car SET ...} on the physical table) would leave its copies stale: do not do that with a row
     * copy. A file's table must be reopened with the same choice; one stored without the copy is refused with a
     * message, as is the reverse.
     */
    public ColumnarLayout<O> withRowCopy() {
        return new ColumnarLayout<>(this);
    }

    /** Whether {@link #withRowCopy()} was applied. */
    public boolean rowCopy() {
        return description.rowCopy();
    }

    /**
     * A record's components, in declaration order, rebuilt through the canonical constructor.
     *
     * @throws IllegalArgumentException when {@code recordType} is not a record, or its package is not open to
     *                                  {@code io.quackjvm.api}
     */
    public static <O> ColumnarLayout<O> ofRecord(Class<O> recordType) {
        return new ColumnarLayout<>(Kind.RECORD, Descriptions.ofRecord(recordType));
    }

    /**
     * Every instance field of {@code type} and of its superclasses (superclass fields first), except static and
     * {@code transient} ones, each stored in a column named after the field. Objects are rebuilt with the
     * no-argument constructor when there is one (of any visibility), otherwise without calling a constructor, and
     * then every described field is set, {@code final} ones included.
     *
     * @throws IllegalArgumentException when {@code type} is a record (use {@link #ofRecord}), an interface, an
     *                                  abstract class, or its package is not open to {@code io.quackjvm.api}
     */
    public static <O> ColumnarLayout<O> reflective(Class<O> type) {
        return new ColumnarLayout<>(Kind.REFLECTIVE, Descriptions.reflective(type));
    }

    /** Starts an explicit description of {@code type}'s columns. */
    public static <O> Builder<O> builder(Class<O> type) {
        return new Builder<>(Objects.requireNonNull(type, "type"));
    }

    /** The described class. */
    public Class<O> objectType() {
        return description.objectType();
    }

    /** How this layout was described. */
    public Kind kind() {
        return kind;
    }

    /** The fields, in column order. */
    public List<Field<O>> fields() {
        return fields;
    }

    /**
     * The provider's side of this layout: how to read each field and build objects again. The builder passes it to
     * {@link ObjectLayoutProvider#createTable}; users do not need it.
     */
    public ColumnarDescription<O> description() {
        return description;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("ColumnarLayout{").append(kind).append(' ')
                .append(objectType().getName());
        for (Field<O> f : fields) {
            sb.append(", ").append(f.name()).append(": ").append(f.type().getTypeName());
        }
        return sb.append(rowCopy() ? ", with row copy}" : "}").toString();
    }

    /**
     * One field of a layout: a column name and a Java type (generic, so that {@code List<String>} is known to be a
     * list of strings). Immutable.
     *
     * @param <O> the object type
     */
    public static final class Field<O> {
        private final String name;
        private final Type type;

        Field(String name, Type type) {
            this.name = name;
            this.type = type;
        }

        /** The column name: the field's or component's name. */
        public String name() {
            return name;
        }

        /** The field's Java type, with type arguments where it has them. */
        public Type type() {
            return type;
        }

        @Override
        public String toString() {
            return name + ": " + type.getTypeName();
        }
    }

    /** The values of one row, by column name or position, for a {@link Builder#factory} function. */
    public interface Values {
        /** The value of the column at {@code index} (0-based, in the order the columns were declared). */
        Object get(int index);

        /**
         * The value of the named column, cast to what the caller expects; a primitive column's value is boxed.
         *
         * @throws IllegalArgumentException when there is no such column
         */
        <T> T get(String column);
    }

    /**
     * Builds an explicit layout: {@code ColumnarLayout.builder(Car.class).column("price", double.class, Car::price)
     * ... .factory(v -> new Car(v.get("id"), v.get("price"))).build()}. Not thread-safe.
     *
     * @param <O> the object type
     */
    public static final class Builder<O> {
        private final Class<O> type;
        private final List<ColumnarDescription.Field<O>> fields = new ArrayList<>();
        private final Map<String, Integer> positions = new LinkedHashMap<>();
        private Function<Values, O> factory;

        private Builder(Class<O> type) {
            this.type = type;
        }

        /**
         * Adds a column holding {@code getter}'s value, of a type such as {@code double.class}, {@code String.class}
         * or a record class.
         */
        public <T> Builder<O> column(String name, Class<T> columnType, Function<? super O, ? extends T> getter) {
            return add(name, Objects.requireNonNull(columnType, "column type"), getter);
        }

        /** Adds a DuckDB LIST column of {@code elementType} values. */
        public <E> Builder<O> listColumn(String name, Class<E> elementType,
                                         Function<? super O, ? extends List<E>> getter) {
            return add(name, Descriptions.parameterized(List.class,
                    Objects.requireNonNull(elementType, "element type")), getter);
        }

        /** Adds a DuckDB LIST column holding a set of {@code elementType} values (read back in stored order). */
        public <E> Builder<O> setColumn(String name, Class<E> elementType,
                                        Function<? super O, ? extends Set<E>> getter) {
            return add(name, Descriptions.parameterized(Set.class,
                    Objects.requireNonNull(elementType, "element type")), getter);
        }

        private Builder<O> add(String name, Type columnType, Function<? super O, ?> getter) {
            Objects.requireNonNull(name, "column name");
            Objects.requireNonNull(getter, "getter of column " + name);
            if (!name.matches("[A-Za-z][A-Za-z0-9_]*")) {
                throw new IllegalArgumentException("Column name '" + name + "' must start with a letter and contain "
                        + "only letters, digits and underscores");
            }
            if (positions.containsKey(name)) {
                throw new IllegalStateException("Column '" + name + "' was already declared");
            }
            positions.put(name, fields.size());
            fields.add(Descriptions.field(name, columnType, getter));
            return this;
        }

        /** How an object is built from a row's values. */
        public Builder<O> factory(Function<Values, O> rowFactory) {
            if (factory != null) {
                throw new IllegalStateException("The factory was already set");
            }
            this.factory = Objects.requireNonNull(rowFactory, "factory");
            return this;
        }

        /**
         * The layout.
         *
         * @throws IllegalStateException when no column or no factory was given
         */
        public ColumnarLayout<O> build() {
            if (fields.isEmpty()) {
                throw new IllegalStateException("ColumnarLayout.builder(" + type.getName() + ") declares no column");
            }
            if (factory == null) {
                throw new IllegalStateException("ColumnarLayout.builder(" + type.getName() + ") needs a factory");
            }
            Map<String, Integer> pos = Map.copyOf(positions);
            Function<Values, O> f = factory;
            return new ColumnarLayout<>(Kind.EXPLICIT, Descriptions.explicit(type, fields, values -> f.apply(
                    new Values() {
                        @Override
                        public Object get(int index) {
                            return values[index];
                        }

                        @Override
                        @SuppressWarnings("unchecked")
                        public <T> T get(String column) {
                            Integer i = pos.get(column);
                            if (i == null) {
                                throw new IllegalArgumentException("No column '" + column + "' in the layout of "
                                        + type.getName() + "; columns: " + pos.keySet());
                            }
                            return (T) values[i];
                        }
                    })));
        }
    }
}
