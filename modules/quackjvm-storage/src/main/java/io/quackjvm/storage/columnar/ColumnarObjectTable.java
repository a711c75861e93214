package io.quackjvm.storage.columnar;

import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.ColumnarDescription;
import io.quackjvm.api.spi.ObjectTable;
import io.quackjvm.api.spi.RowSource;
import io.quackjvm.api.spi.RowWriter;
import org.objenesis.ObjenesisStd;
import org.objenesis.instantiator.ObjectInstantiator;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One typed column per field of a {@link ColumnarDescription}. Thread-safe: the slots are fixed once
 * {@link #reconcile} has run, which the engine does before any read or write.
 *
 * @param <O> the object type
 */
final class ColumnarObjectTable<O> implements ObjectTable<O> {

    /** One column: which field of the layout it holds and how. */
    private record Slot(int field, String name, Codec codec, Column column) {
    }

    private final ColumnarDescription<O> layout;
    private final Class<O> objectType;
    private final ObjectInstantiator<O> instantiator;
    private volatile Slot[] slots;
    private volatile List<Column> columns;

    ColumnarObjectTable(Class<O> objectType, ColumnarDescription<O> layout) {
        this.layout = layout;
        this.objectType = objectType;
        List<ColumnarDescription.Field<O>> fields = layout.fields();
        if (fields.isEmpty()) {
            throw new IllegalArgumentException(objectType.getName() + " has no fields to store in columns; the blob "
                    + "layout stores any object");
        }
        Slot[] s = new Slot[fields.size()];
        for (int i = 0; i < s.length; i++) {
            ColumnarDescription.Field<O> f = fields.get(i);
            Codec codec;
            try {
                codec = Codecs.of(f.type(), false, new HashSet<>(List.of(layout.objectType())));
            } catch (Codecs.Unsupported e) {
                throw new IllegalArgumentException("Field '" + f.name() + "' of " + layout.objectType().getName()
                        + " has type " + f.type().getTypeName() + ", which the columnar layout cannot store: "
                        + e.getMessage() + ". Supported: String, char, boolean, byte, short, int, long, float, double "
                        + "(primitive or boxed), BigInteger, BigDecimal, UUID, byte[], enums, java.util.Date, "
                        + "java.sql.Date/Time/Timestamp, LocalDate, LocalTime, LocalDateTime, Instant, "
                        + "OffsetDateTime, List/Set of those, and records of those. The blob layout "
                        + "(the default) stores any object.");
            }
            Column column;
            try {
                column = new Column(f.name(), codec.sqlType());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("Field '" + f.name() + "' of " + layout.objectType().getName()
                        + " cannot name a DuckDB column: " + e.getMessage() + "; use ColumnarLayout.builder to name "
                        + "the columns", e);
            }
            s[i] = new Slot(i, f.name(), codec, column);
        }
        this.slots = s;
        this.columns = columnsOf(s);
        this.instantiator = layout.canConstruct() ? null : new ObjenesisStd(true).getInstantiatorOf(objectType);
    }

    private static List<Column> columnsOf(Slot[] slots) {
        List<Column> out = new ArrayList<>(slots.length);
        for (Slot s : slots) {
            out.add(s.column());
        }
        return List.copyOf(out);
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public void write(O object, RowWriter row) throws SQLException {
        for (Slot s : slots) {
            Object value;
            try {
                value = layout.fields().get(s.field()).get(object);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("Cannot read field '" + s.name() + "' of " + object + ": " + e, e);
            }
            if (value == null) {
                row.putNull();
                continue;
            }
            try {
                s.codec().write(value, row);
            } catch (IllegalArgumentException | ClassCastException e) {
                throw new IllegalArgumentException("Cannot store field '" + s.name() + "' (" + s.codec().javaType()
                        + ") of " + objectType.getName() + " with value " + abbreviate(value) + ": " + e.getMessage(), e);
            }
        }
    }

    private static String abbreviate(Object value) {
        String s = String.valueOf(value);
        return s.length() > 100 ? s.substring(0, 100) + "..." : s;
    }

    @Override
    public O read(RowSource row) throws SQLException {
        Slot[] s = slots;
        Object[] values = new Object[s.length];
        for (int i = 0; i < s.length; i++) {
            Object v = s[i].codec().read(row, i);
            if (v == null && s[i].codec().primitive()) {
                throw new IllegalStateException("Column '" + s[i].name() + "' is NULL in the database but field '"
                        + s[i].name() + "' of " + objectType.getName() + " is a primitive " + s[i].codec().javaType());
            }
            values[s[i].field()] = v;
        }
        if (instantiator == null) {
            return layout.newObject(values);
        }
        O o = instantiator.newInstance();
        layout.fill(o, values);
        return o;
    }

    /**
     * The table in the file must hold exactly this class's fields with the same types; a field the class gained
     * (of a nullable type) is added. Everything else is refused, each difference named.
     */
    @Override
    public List<Column> reconcile(List<Column> existing) {
        Map<String, Slot> byName = new LinkedHashMap<>();
        for (Slot s : slots) {
            byName.put(s.name().toLowerCase(Locale.ROOT), s);
        }
        List<String> problems = new ArrayList<>();
        List<Slot> ordered = new ArrayList<>();
        for (Column c : existing) {
            Slot s = byName.remove(c.name().toLowerCase(Locale.ROOT));
            if (s == null) {
                problems.add("column '" + c.name() + "' (" + c.sqlType() + ") has no field: was field '" + c.name()
                        + "' removed or renamed?");
                continue;
            }
            if (!normalise(c.sqlType()).equals(normalise(s.column().sqlType()))) {
                problems.add(retyped(s, c));
            }
            ordered.add(s);
        }
        List<Column> added = new ArrayList<>();
        for (Slot s : byName.values()) {
            if (s.codec().primitive()) {
                problems.add("field '" + s.name() + "' (" + s.codec().javaType() + ") is new, and as a primitive it "
                        + "has no value for the rows already stored; make it a boxed (nullable) type");
            } else {
                added.add(s.column());
                ordered.add(s);
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException(String.join("; ", problems)
                    + ". Only a gained nullable field is reconciled (its column is added); migrate the table "
                    + "with SQL or store the objects in a new collection.");
        }
        Slot[] s = ordered.toArray(new Slot[0]);
        this.slots = s;
        this.columns = columnsOf(s);
        return added;
    }

    private static String retyped(Slot s, Column c) {
        String found = c.sqlType();
        String wanted = s.column().sqlType();
        if (found.toUpperCase(Locale.ROOT).startsWith("ENUM(") && wanted.startsWith("ENUM(")) {
            return "field '" + s.name() + "' is enum " + s.codec().javaType() + " whose constants are now "
                    + wanted.substring(4) + ", but the column was stored with " + found.substring(4)
                    + " (constants added, removed, renamed or reordered; their order is the column's order)";
        }
        return "field '" + s.name() + "' (" + s.codec().javaType() + ") needs a column of type " + wanted
                + " but the column in the file is " + found + ": was its type changed?";
    }

    /**
     * Compares DuckDB types as information_schema spells them with how we wrote them: DuckDB drops quotes around
     * plain STRUCT field names and identifiers are case-insensitive, but ENUM constants (in single quotes) are
     * case-sensitive.
     */
    static String normalise(String type) {
        StringBuilder sb = new StringBuilder(type.length());
        boolean quoted = false;
        for (int i = 0; i < type.length(); i++) {
            char ch = type.charAt(i);
            if (ch == '\'') {
                quoted = !quoted;
                sb.append(ch);
            } else if (quoted) {
                sb.append(ch);
            } else if (ch != '"' && !Character.isWhitespace(ch)) {
                sb.append(Character.toUpperCase(ch));
            }
        }
        return sb.toString().replace("TIMESTAMPTZ", "TIMESTAMPWITHTIMEZONE");
    }

    @Override
    public String toString() {
        return "columnar " + Objects.toString(columns);
    }
}
