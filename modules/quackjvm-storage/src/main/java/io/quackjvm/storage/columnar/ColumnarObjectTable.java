package io.quackjvm.storage.columnar;

import io.quackjvm.api.spi.AttributeColumn;
import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.ColumnarDescription;
import io.quackjvm.api.spi.ObjectTable;
import io.quackjvm.api.spi.RowSource;
import io.quackjvm.api.spi.RowWriter;
import org.objenesis.ObjenesisStd;
import org.objenesis.instantiator.ObjectInstantiator;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One typed column per field of a {@link ColumnarDescription}, plus bookkeeping columns: the row copy
 * ({@link ColumnarDescription#rowCopy()}) and the record of negative zeros ({@link NegativeZeros}), which FLOAT and
 * DOUBLE columns do not keep. Thread-safe: the column plan is fixed once {@link #reconcile} has run, which the
 * engine does before any read or write.
 *
 * @param <O> the object type
 */
final class ColumnarObjectTable<O> implements ObjectTable<O> {

    /** One field: which field of the layout it holds and how. */
    private record Slot(int field, String name, Codec codec, Column column, NegativeZeros.Kind zeros) {
    }

    /** A bookkeeping column, in {@link Plan#order}. */
    private enum Hidden {
        ROW_COPY, MASK, PATHS
    }

    /**
     * The table's columns in order and where each field and bookkeeping column is. Immutable; replaced as a whole
     * by {@link #reconcile}.
     */
    private static final class Plan {
        /** The fields in column order. */
        final Slot[] slots;
        /** Per column: the index of its slot, or a negative code for a bookkeeping column. */
        final int[] order;
        /** Per slot: its column. */
        final int[] at;
        /** Per slot: its bit in the mask of negative zeros (0: none, or no mask column). */
        final long[] bit;
        /** Per slot: whether its negative zeros are recorded as paths (needs the paths column). */
        final boolean[] pathed;
        final int copyAt;
        final int maskAt;
        final int pathsAt;
        final List<Column> columns;
        /** Whether the columns are the slots alone, in order (the plain fast path of write and read). */
        final boolean plain;
        /** Whether the fields need a mask column / a paths column. */
        final boolean needsMask;
        final boolean needsPaths;

        static final int COPY = -1;
        static final int MASK = -2;
        static final int PATHS = -3;

        /** @param entries the columns in order: each a {@link Slot} or a {@link Hidden} */
        Plan(List<Object> entries, Column copyColumn) {
            List<Slot> s = new ArrayList<>();
            int[] ord = new int[entries.size()];
            int copy = -1;
            int mask = -1;
            int paths = -1;
            List<Column> cols = new ArrayList<>(entries.size());
            for (int c = 0; c < ord.length; c++) {
                Object e = entries.get(c);
                if (e instanceof Slot slot) {
                    ord[c] = s.size();
                    s.add(slot);
                    cols.add(slot.column());
                } else if (e == Hidden.ROW_COPY) {
                    ord[c] = COPY;
                    copy = c;
                    cols.add(copyColumn);
                } else if (e == Hidden.MASK) {
                    ord[c] = MASK;
                    mask = c;
                    cols.add(NegativeZeros.MASK_COLUMN);
                } else {
                    ord[c] = PATHS;
                    paths = c;
                    cols.add(NegativeZeros.PATHS_COLUMN);
                }
            }
            this.slots = s.toArray(new Slot[0]);
            this.order = ord;
            this.at = new int[slots.length];
            for (int c = 0; c < ord.length; c++) {
                if (ord[c] >= 0) {
                    at[ord[c]] = c;
                }
            }
            this.bit = new long[slots.length];
            this.pathed = new boolean[slots.length];
            int scalars = 0;
            boolean wantsMask = false;
            boolean wantsPaths = false;
            for (int i = 0; i < slots.length; i++) {
                NegativeZeros.Kind kind = slots[i].zeros();
                if (kind == NegativeZeros.Kind.SCALAR && scalars < NegativeZeros.MASK_BITS) {
                    wantsMask = true;
                    bit[i] = mask >= 0 ? 1L << scalars : 0;
                    scalars++;
                } else if (kind != NegativeZeros.Kind.NONE) {
                    wantsPaths = true;
                    pathed[i] = paths >= 0;
                }
            }
            this.copyAt = copy;
            this.maskAt = mask;
            this.pathsAt = paths;
            this.columns = List.copyOf(cols);
            this.plain = copy < 0 && mask < 0 && paths < 0;
            this.needsMask = wantsMask;
            this.needsPaths = wantsPaths;
        }

        /** The slot of the column named {@code name} (ignoring case), or {@code null}. */
        Slot slot(String name) {
            for (Slot s : slots) {
                if (s.name().equalsIgnoreCase(name)) {
                    return s;
                }
            }
            return null;
        }

        int index(Slot slot) {
            for (int i = 0; i < slots.length; i++) {
                if (slots[i] == slot) {
                    return i;
                }
            }
            return -1;
        }
    }

    private final ColumnarDescription<O> layout;
    private final Class<O> objectType;
    private final ObjectInstantiator<O> instantiator;
    /** The column of the row copy ({@link ColumnarDescription#rowCopy()}); {@code null} without one. */
    private final Column copyColumn;
    /** Whether the layout keeps a row copy. */
    private final boolean rowCopy;
    private volatile Plan plan;

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
            if (f.name().equalsIgnoreCase(NegativeZeros.MASK) || f.name().equalsIgnoreCase(NegativeZeros.PATHS)) {
                throw new IllegalArgumentException("Field '" + f.name() + "' of " + layout.objectType().getName()
                        + " has the name of a column the columnar layout keeps for itself; rename it, or use "
                        + "ColumnarLayout.builder to name the columns");
            }
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
            s[i] = new Slot(i, f.name(), codec, column, NegativeZeros.kind(codec));
        }
        this.rowCopy = layout.rowCopy();
        this.copyColumn = rowCopy ? COPY_COLUMNS.get(0) : null;
        // A new table: the fields, then the row copy, then the record of negative zeros the fields need.
        List<Object> entries = new ArrayList<>(List.of((Object[]) s));
        if (rowCopy) {
            entries.add(Hidden.ROW_COPY);
        }
        Plan fieldsOnly = new Plan(entries, copyColumn);
        if (fieldsOnly.needsMask) {
            entries.add(Hidden.MASK);
        }
        if (fieldsOnly.needsPaths) {
            entries.add(Hidden.PATHS);
        }
        this.plan = new Plan(entries, copyColumn);
        this.instantiator = layout.canConstruct() ? null : new ObjenesisStd(true).getInstantiatorOf(objectType);
    }

    /**
     * The row copy's column. A field's column never starts with an underscore (the engine's key column does, and
     * {@link Column} names are plain identifiers), so it cannot collide with one.
     */
    static final String ROW_COPY = "_row";

    /** The row copy's column, as the table keeps it and as a covering index copies a row ({@link #copyColumns}). */
    private static final List<Column> COPY_COLUMNS = List.of(new Column(ROW_COPY, "BLOB", "uncompressed"));

    @Override
    public List<Column> columns() {
        return plan.columns;
    }

    /** The declarations of {@link #attributeColumns()} for one plan. */
    private record Declared(Plan of, List<AttributeColumn> columns) {
    }

    private volatile Declared declared;

    /**
     * Each field of a type whose column SQL can compare as Java does, under the field's name: whole numbers,
     * booleans, dates and enums as DuckDB's own types, floating point with the sign of zeros kept aside, strings
     * as UTF-8 text, and big numbers in their order-preserving text form.
     */
    @Override
    public List<AttributeColumn> attributeColumns() {
        Plan p = plan;
        Declared d = declared;
        if (d != null && d.of() == p) {
            return d.columns();
        }
        List<AttributeColumn> out = new ArrayList<>();
        List<ColumnarDescription.Field<O>> fields = layout.fields();
        for (Slot slot : p.slots) {
            if (!(fields.get(slot.field()).type() instanceof Class<?> raw)) {
                continue;
            }
            Class<?> type = boxed(raw);
            AttributeColumn.Comparison comparison = type == Integer.class || type == Long.class
                    || type == Short.class || type == Byte.class || type == Boolean.class || type == LocalDate.class
                    || type.isEnum() ? AttributeColumn.Comparison.NATIVE
                    : type == Double.class || type == Float.class ? AttributeColumn.Comparison.SIGNED_ZERO
                    : type == String.class ? AttributeColumn.Comparison.UTF8_ORDER
                    : type == BigDecimal.class || type == BigInteger.class ? AttributeColumn.Comparison.ENCODED
                    : null;
            if (comparison != null) {
                out.add(new AttributeColumn(slot.name(), slot.column(), type, comparison));
            }
        }
        declared = new Declared(p, List.copyOf(out));
        return declared.columns();
    }

    private static Class<?> boxed(Class<?> c) {
        if (!c.isPrimitive()) {
            return c;
        }
        return c == int.class ? Integer.class : c == long.class ? Long.class : c == short.class ? Short.class
                : c == byte.class ? Byte.class : c == boolean.class ? Boolean.class : c == double.class ? Double.class
                : c == float.class ? Float.class : c == char.class ? Character.class : c;
    }

    @Override
    public void write(O object, RowWriter row) throws SQLException {
        Plan p = plan;
        if (p.plain) {
            for (Slot s : p.slots) {
                Object value = fieldValue(s, object);
                if (value == null) {
                    row.putNull();
                } else {
                    writeValue(s, value, row);
                }
            }
            return;
        }
        Slot[] s = p.slots;
        Object[] values = new Object[s.length];
        // The row copy holds the values as they are (its encoding keeps every sign); the columns get them with
        // every negative zero made positive, recorded in the mask and the paths.
        Object[] copy = p.copyAt >= 0 ? new Object[s.length] : null;
        boolean[] nestedSql = null;
        long mask = 0;
        NegativeZeros.Paths paths = null;
        for (int i = 0; i < s.length; i++) {
            Slot slot = s[i];
            Object value = fieldValue(slot, object);
            if (value != null) {
                boolean nested = p.pathed[i] && slot.zeros() == NegativeZeros.Kind.NESTED;
                Object sql = null;
                if (copy != null || nested) {
                    sql = toSql(slot, value);
                    if (copy != null) {
                        copy[slot.field()] = sql;
                    }
                }
                if (p.bit[i] != 0) {
                    if (NegativeZeros.isNegativeZero(value)) {
                        mask |= p.bit[i];
                        value = NegativeZeros.positiveZero(value);
                    }
                } else if (nested) {
                    if (paths == null) {
                        paths = new NegativeZeros.Paths();
                    }
                    value = NegativeZeros.normalise(sql, new StringBuilder(slot.name()), paths);
                    if (nestedSql == null) {
                        nestedSql = new boolean[s.length];
                    }
                    nestedSql[i] = true;
                } else if (p.pathed[i] && NegativeZeros.isNegativeZero(value)) {
                    if (paths == null) {
                        paths = new NegativeZeros.Paths();
                    }
                    paths.add(slot.name());
                    value = NegativeZeros.positiveZero(value);
                }
            }
            values[i] = value;
        }
        byte[] copyBytes = copy != null ? RowCopy.encode(copy) : null;
        for (int c : p.order) {
            if (c >= 0) {
                Object value = values[c];
                if (value == null) {
                    row.putNull();
                } else if (nestedSql != null && nestedSql[c]) {
                    row.putNested(s[c].codec().sqlType(), value);
                } else {
                    writeValue(s[c], value, row);
                }
            } else if (c == Plan.COPY) {
                row.putBytes(copyBytes);
            } else if (c == Plan.MASK) {
                if (mask == 0) {
                    row.putNull();
                } else {
                    row.putLong(mask);
                }
            } else {
                String joined = paths == null ? null : paths.value();
                if (joined == null) {
                    row.putNull();
                } else {
                    row.putString(joined);
                }
            }
        }
    }

    /** Writes a non-null field value through its codec; a value the codec refuses fails naming the field. */
    private void writeValue(Slot slot, Object value, RowWriter row) throws SQLException {
        try {
            slot.codec().write(value, row);
        } catch (IllegalArgumentException | ClassCastException e) {
            throw cannotStore(slot, value, e);
        }
    }

    private Object toSql(Slot slot, Object value) {
        try {
            return slot.codec().toSql(value);
        } catch (IllegalArgumentException | ClassCastException e) {
            throw cannotStore(slot, value, e);
        }
    }

    /**
     * Reads and checks every field of {@code object} and returns the row copy of their SQL forms.
     */
    private byte[] encodeCopy(O object) {
        Slot[] s = plan.slots;
        Object[] sql = new Object[s.length];
        for (Slot slot : s) {
            Object value = fieldValue(slot, object);
            if (value != null) {
                sql[slot.field()] = toSql(slot, value);
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
        row.putBytes(encodeCopy(object));
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
        return rowCopy ? List.of(copyColumn) : plan.columns;
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
        Slot[] s = plan.slots;
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
        Plan p = plan;
        if (p.copyAt >= 0) {
            return fromCopy(row, p.copyAt);
        }
        Slot[] s = p.slots;
        Object[] values = new Object[s.length];
        // The sign of a zero in a FLOAT/DOUBLE column is its mask bit's, whatever sign the column holds; -0.0
        // inside a LIST or STRUCT is restored at the paths the row records.
        long mask = p.maskAt >= 0 ? row.getLong(p.maskAt) : 0;
        String paths = p.pathsAt >= 0 ? row.getString(p.pathsAt) : null;
        for (int i = 0; i < s.length; i++) {
            Slot slot = s[i];
            Object v;
            if (paths != null && p.pathed[i] && slot.zeros() == NegativeZeros.Kind.NESTED) {
                Object sql = row.getObject(p.at[i]);
                v = sql == null ? null : slot.codec().fromSql(NegativeZeros.restore(sql, slot.name(), paths));
            } else {
                v = slot.codec().read(row, p.at[i]);
                if (v != null) {
                    if (p.bit[i] != 0) {
                        v = NegativeZeros.signed(v, (mask & p.bit[i]) != 0);
                    } else if (p.pathed[i] && slot.zeros() == NegativeZeros.Kind.SCALAR) {
                        v = NegativeZeros.signed(v, NegativeZeros.lists(paths, slot.name()));
                    }
                }
            }
            if (v == null && slot.codec().primitive()) {
                throw new IllegalStateException("Column '" + slot.name() + "' is NULL in the database but field '"
                        + slot.name() + "' of " + objectType.getName() + " is a primitive " + slot.codec().javaType());
            }
            values[slot.field()] = v;
        }
        return build(values);
    }

    /**
     * The fields alone, in column order, each as {@link #sqlValue} gives it: zeros carry their sign, so no record of
     * negative zeros is read.
     */
    @Override
    public O readValues(RowSource row) throws SQLException {
        Slot[] s = plan.slots;
        Object[] values = new Object[s.length];
        for (int i = 0; i < s.length; i++) {
            Slot slot = s[i];
            Object v = slot.codec().read(row, i);
            if (v == null && slot.codec().primitive()) {
                throw new IllegalStateException("Column '" + slot.name() + "' is NULL but field '" + slot.name()
                        + "' of " + objectType.getName() + " is a primitive " + slot.codec().javaType());
            }
            values[slot.field()] = v;
        }
        return build(values);
    }

    /**
     * The value of a field's column with the sign of its zeros restored from the record of negative zeros;
     * {@code null} for the bookkeeping columns.
     */
    @Override
    public String sqlValue(Column column, String qualifier) {
        Plan p = plan;
        String name = column.name();
        if (name.equalsIgnoreCase(ROW_COPY) && p.copyAt >= 0 || name.equalsIgnoreCase(NegativeZeros.MASK)
                || name.equalsIgnoreCase(NegativeZeros.PATHS)) {
            return null;
        }
        Slot slot = p.slot(name);
        String plainSql = qualifier + NegativeZeros.quote(name);
        if (slot == null) {
            return plainSql;
        }
        int i = p.index(slot);
        if (p.bit[i] != 0) {
            return NegativeZeros.signedSql(plainSql, slot.codec().sqlType(),
                    NegativeZeros.maskSet(qualifier, p.bit[i]));
        }
        if (p.pathed[i] && slot.zeros() == NegativeZeros.Kind.SCALAR) {
            return NegativeZeros.signedSql(plainSql, slot.codec().sqlType(), "coalesce("
                    + NegativeZeros.pathListed(qualifier, "'" + slot.name() + "'") + ", FALSE)");
        }
        if (p.pathed[i]) {
            return NegativeZeros.restoredSql(slot.codec(), qualifier, slot.name());
        }
        return plainSql;
    }

    @Override
    public List<Column> reconcile(List<Column> existing) {
        return reconcile(existing, true);
    }

    /**
     * The table in the file must hold exactly this class's fields with the same types; a field the class gained
     * (of a nullable type) is added. Everything else is refused, each difference named. The record of negative
     * zeros is added when the table lacks the columns it needs and {@code writable} (then filled by
     * {@link #fillAddedColumns}); a read-only table without it is read as stored.
     */
    @Override
    public List<Column> reconcile(List<Column> existing, boolean writable) {
        Map<String, Slot> byName = new LinkedHashMap<>();
        for (Slot s : plan.slots) {
            byName.put(s.name().toLowerCase(Locale.ROOT), s);
        }
        List<String> problems = new ArrayList<>();
        List<Object> entries = new ArrayList<>();
        boolean foundCopy = false;
        boolean foundMask = false;
        boolean foundPaths = false;
        for (Column c : existing) {
            if (c.name().equalsIgnoreCase(ROW_COPY)) {
                foundCopy = true;
                entries.add(Hidden.ROW_COPY);
                continue;
            }
            if (c.name().equalsIgnoreCase(NegativeZeros.MASK) || c.name().equalsIgnoreCase(NegativeZeros.PATHS)) {
                boolean mask = c.name().equalsIgnoreCase(NegativeZeros.MASK);
                Column expected = mask ? NegativeZeros.MASK_COLUMN : NegativeZeros.PATHS_COLUMN;
                if (!normalise(c.sqlType()).equals(normalise(expected.sqlType()))) {
                    problems.add("column '" + c.name() + "' should be " + expected.sqlType() + " but is "
                            + c.sqlType());
                }
                foundMask |= mask;
                foundPaths |= !mask;
                entries.add(mask ? Hidden.MASK : Hidden.PATHS);
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
            entries.add(s);
        }
        List<Column> added = new ArrayList<>();
        for (Slot s : byName.values()) {
            if (s.codec().primitive()) {
                problems.add("field '" + s.name() + "' (" + s.codec().javaType() + ") is new, and as a primitive it "
                        + "has no value for the rows already stored; make it a boxed (nullable) type");
            } else {
                added.add(s.column());
                entries.add(s);
            }
        }
        if (rowCopy && !foundCopy) {
            problems.add("the table keeps no row copy (no column " + ROW_COPY + "): it was stored without "
                    + "ColumnarLayout.withRowCopy(); open it without withRowCopy()");
        } else if (!rowCopy && foundCopy) {
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
        Plan found = new Plan(entries, copyColumn);
        if (writable && found.needsMask && !foundMask) {
            entries.add(Hidden.MASK);
            added.add(NegativeZeros.MASK_COLUMN);
        }
        if (writable && found.needsPaths && !foundPaths) {
            entries.add(Hidden.PATHS);
            added.add(NegativeZeros.PATHS_COLUMN);
        }
        this.plan = new Plan(entries, copyColumn);
        return added;
    }

    /** Fills the record of negative zeros added to a table written before it ({@link NegativeZeros#fill}). */
    @Override
    public List<String> fillAddedColumns(String table, List<Column> added) {
        boolean mask = added.contains(NegativeZeros.MASK_COLUMN);
        boolean paths = added.contains(NegativeZeros.PATHS_COLUMN);
        if (!mask && !paths) {
            return List.of();
        }
        Plan p = plan;
        List<NegativeZeros.Field> fields = new ArrayList<>();
        for (int i = 0; i < p.slots.length; i++) {
            if (!added.contains(p.slots[i].column())) {
                fields.add(new NegativeZeros.Field(p.slots[i].name(), p.slots[i].codec(), p.bit[i], p.pathed[i]));
            }
        }
        return NegativeZeros.fill(table, fields, mask, paths);
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
        return "columnar " + Objects.toString(plan.columns);
    }
}
