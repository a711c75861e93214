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
    /** The column of the row copy ({@link ColumnarDescription#rowCopy()}); {@code null} without one. */
    private final Column copyColumn;
    /** Whether the layout keeps a row copy. */
    private final boolean rowCopy;
    private volatile Slot[] slots;
    /** Where the row copy sits among {@link #columns}: after the slots before it; -1 without a copy. */
    private volatile int copyAt;
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
        this.rowCopy = layout.rowCopy();
        this.copyColumn = rowCopy ? COPY_COLUMNS.get(0) : null;
        this.copyAt = rowCopy ? s.length : -1;
        this.columns = columnsOf(s, copyAt, copyColumn);
        this.instantiator = layout.canConstruct() ? null : new ObjenesisStd(true).getInstantiatorOf(objectType);
    }

    /**
     * The row copy's column. A field's column never starts with an underscore (the engine's key column does, and
     * {@link Column} names are plain identifiers), so it cannot collide with one.
     */
    static final String ROW_COPY = "_row";

    /** The row copy's column, as the table keeps it and as a covering index copies a row ({@link #copyColumns}). */
    private static final List<Column> COPY_COLUMNS = List.of(new Column(ROW_COPY, "BLOB", "uncompressed"));

    private static List<Column> columnsOf(Slot[] slots, int copyAt, Column copy) {
        List<Column> out = new ArrayList<>(slots.length + 1);
        for (int i = 0; i < slots.length; i++) {
            if (i == copyAt) {
                out.add(copy);
            }
            out.add(slots[i].column());
        }
        if (copyAt == slots.length) {
            out.add(copy);
        }
        return List.copyOf(out);
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public void write(O object, RowWriter row) throws SQLException {
        if (rowCopy) {
            writeWithCopy(object, row);
            return;
        }
        for (Slot s : slots) {
            Object value = fieldValue(s, object);
            if (value == null) {
                row.putNull();
                continue;
            }
            try {
                s.codec().write(value, row);
            } catch (IllegalArgumentException | ClassCastException e) {
                throw cannotStore(s, value, e);
            }
        }
    }

    /** Reads and checks every field first, then writes the typed columns with the copy at its place. */
    private void writeWithCopy(O object, RowWriter row) throws SQLException {
        Slot[] s = slots;
        int at = copyAt;
        Object[] values = new Object[s.length];
        byte[] copy = encodeCopy(object, values);
        for (int i = 0; i < s.length; i++) {
            if (i == at) {
                row.putBytes(copy);
            }
            if (values[i] == null) {
                row.putNull();
            } else {
                s[i].codec().write(values[i], row);
            }
        }
        if (at == s.length) {
            row.putBytes(copy);
        }
    }

    /**
     * Reads and checks every field of {@code object} and returns the row copy of their SQL forms; the values are
     * also kept in {@code values} (slot order) when it is not {@code null}.
     */
    private byte[] encodeCopy(O object, Object[] values) {
        Slot[] s = slots;
        Object[] sql = new Object[s.length];
        for (int i = 0; i < s.length; i++) {
            Object value = fieldValue(s[i], object);
            if (values != null) {
                values[i] = value;
            }
            if (value != null) {
                try {
                    sql[s[i].field()] = s[i].codec().toSql(value);
                } catch (IllegalArgumentException | ClassCastException e) {
                    throw cannotStore(s[i], value, e);
                }
            }
        }
        return RowCopy.encode(sql);
    }

    /** The value of {@code slot}'s field in {@code object}, or an exception naming the field. */
    private Object fieldValue(Slot slot, O object) {
        try {
            return layout.fields().get(slot.field()).get(object);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Cannot read field '" + slot.name() + "' of " + object + ": " + e, e);
        }
    }

    /** The exception for a field value its codec refused: names the field, its type, the value and why. */
    private IllegalArgumentException cannotStore(Slot slot, Object value, RuntimeException e) {
        return new IllegalArgumentException("Cannot store field '" + slot.name() + "' (" + slot.codec().javaType()
                + ") of " + objectType.getName() + " with value " + abbreviate(value) + ": " + e.getMessage(), e);
    }

    /**
     * One column: the whole row in the row copy's encoding, whether or not the table itself keeps a row copy. A
     * covering index is chosen for its narrow ranges, and DuckDB fetches one column of a row faster than one
     * column per field.
     */
    @Override
    public List<Column> copyColumns() {
        return COPY_COLUMNS;
    }

    @Override
    public void writeCopy(O object, RowWriter row) throws SQLException {
        row.putBytes(encodeCopy(object, null));
    }

    @Override
    public O readCopy(RowSource row) throws SQLException {
        return fromCopy(row, 0);
    }

    private static String abbreviate(Object value) {
        String s = String.valueOf(value);
        return s.length() > 100 ? s.substring(0, 100) + "..." : s;
    }

    @Override
    public List<Column> lookupColumns() {
        return rowCopy ? List.of(copyColumn) : columns;
    }

    @Override
    public O readLookup(RowSource row) throws SQLException {
        return rowCopy ? fromCopy(row, 0) : read(row);
    }

    /** Rebuilds the object from the row copy in {@code column}, as {@link #read} would from the typed columns. */
    private O fromCopy(RowSource row, int column) throws SQLException {
        byte[] bytes = row.getBytes(column);
        if (bytes == null) {
            throw new IllegalStateException("The row copy (column " + ROW_COPY + ") of a " + objectType.getName()
                    + " is NULL; was the table written outside the collection?");
        }
        Slot[] s = slots;
        Object[] sql = RowCopy.decode(bytes, s.length);
        Object[] values = new Object[s.length];
        for (Slot slot : s) {
            Object v = sql[slot.field()];
            if (v == null && slot.codec().primitive()) {
                throw new IllegalStateException("Field '" + slot.name() + "' of " + objectType.getName() + " is a "
                        + "primitive " + slot.codec().javaType() + " but its row copy holds NULL");
            }
            values[slot.field()] = v == null ? null : slot.codec().fromSql(v);
        }
        return build(values);
    }

    private O build(Object[] values) {
        if (instantiator == null) {
            return layout.newObject(values);
        }
        O o = instantiator.newInstance();
        layout.fill(o, values);
        return o;
    }

    @Override
    public O read(RowSource row) throws SQLException {
        if (rowCopy) {
            return fromCopy(row, copyAt);
        }
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
        return build(values);
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
        int foundCopy = -1;
        for (Column c : existing) {
            if (c.name().equalsIgnoreCase(ROW_COPY)) {
                foundCopy = ordered.size();
                continue;
            }
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
        if (rowCopy && foundCopy < 0) {
            problems.add("the table keeps no row copy (no column " + ROW_COPY + "): it was stored without "
                    + "ColumnarLayout.withRowCopy(); open it without withRowCopy()");
        } else if (!rowCopy && foundCopy >= 0) {
            problems.add("the table keeps a row copy (column " + ROW_COPY + "): it was stored with "
                    + "ColumnarLayout.withRowCopy(); open it with withRowCopy(), since writes without it would leave "
                    + "the copies stale");
        } else if (rowCopy && !added.isEmpty()) {
            problems.add("field(s) " + added.stream().map(Column::name).toList() + " are new, but the row copies "
                    + "stored in the table do not hold them; open it without the new fields, or store the objects in "
                    + "a new collection");
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException(String.join("; ", problems)
                    + ". Only a gained nullable field is reconciled (its column is added); migrate the table "
                    + "with SQL or store the objects in a new collection.");
        }
        Slot[] s = ordered.toArray(new Slot[0]);
        this.slots = s;
        this.copyAt = foundCopy;
        this.columns = columnsOf(s, foundCopy, copyColumn);
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
