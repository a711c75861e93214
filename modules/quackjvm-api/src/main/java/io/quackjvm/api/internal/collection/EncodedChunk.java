package io.quackjvm.api.internal.collection;

import io.quackjvm.api.internal.index.IndexTable;

import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.spi.RowWriter;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A chunk of a {@link BulkLoad} made ready for DuckDB ahead of time: every object's row (key and layout columns)
 * recorded as the values the layout wrote, and every attached index's stored values, so that serialising the
 * next chunk (on the loading thread) overlaps with appending this one (on the load's appender thread). It holds
 * values only; {@link CollectionWrites#appendEncoded} decides what is appended. Not thread-safe: handed from one
 * thread to the other, never shared.
 */
final class EncodedChunk<A, O> {

    private static final byte NULL = 0, BOOLEAN = 1, INT = 2, LONG = 3, DOUBLE = 4, STRING = 5, BYTES = 6,
            OBJECT = 7, NESTED = 8;

    /** The chunk's objects by key; the replace check removes the ones it leaves alone. */
    final Map<A, O> byKey;
    /** The keys, in row order. */
    final Object[] keys;
    /** The attached indexes when the chunk was encoded (the load holds the write lock, so they stay attached). */
    final List<IndexTable<O, ?>> indexes;
    /**
     * Per index: the stored values of every row, one after the other (flat, so that a chunk makes a few arrays per
     * index rather than one per row), and where each row's values start ({@code n + 1} entries).
     */
    final Object[][] indexValues;
    final int[][] indexStart;
    /**
     * Whether the chunk's object rows are in the table already (inserted by SQL, {@link BulkLoad#insertObjectRows}):
     * only its index rows are appended.
     */
    final boolean objectsInserted;
    /** The smallest and the largest key of the chunk by the key's {@code compareTo} (null when it is empty). */
    final Object minKey, maxKey;

    private byte[] tags = new byte[1024];
    private Object[] values = new Object[1024];
    private String[] nestedTypes;
    private int size;
    /** Where row {@code j}'s values start and end (its key, then its layout columns). */
    private final int[] rowStart, rowEnd;
    /**
     * Where row {@code j}'s copy for covering index tables starts (it ends where row {@code j + 1} starts), when
     * the layout's {@link io.quackjvm.api.spi.ObjectTable#copyColumns} are not its columns; {@code null} when they
     * are (the copy is then the layout's values, replayed again) or no index covers.
     */
    private final int[] copyStart;

    /**
     * @param stored for objects read from rows a collection of this layout stored with the same encoding, the bytes
     *               of each one's single BLOB column, in the order of {@code byKey}, recorded instead of serialising
     *               the object again; {@code null} for objects a user gave
     */
    EncodedChunk(CollectionSchema<O, A> schema, List<IndexTable<O, ?>> indexes, Map<A, O> byKey,
                 List<byte[]> stored, boolean objectsInserted) throws SQLException {
        this.byKey = byKey;
        this.objectsInserted = objectsInserted;
        this.indexes = indexes;
        int n = byKey.size();
        this.keys = new Object[n];
        this.rowStart = new int[n + 1];
        this.rowEnd = new int[n];
        boolean covering = indexes.stream().anyMatch(IndexTable::covering);
        if (covering && objectsInserted) {
            throw new IllegalStateException("a covering index carries copies of the objects, which a chunk of "
                    + "inserted object rows does not record");
        }
        this.copyStart = covering && !schema.layout.copyColumns().equals(schema.layout.columns()) ? new int[n] : null;
        this.indexValues = new Object[indexes.size()][];
        this.indexStart = new int[indexes.size()][n + 1];
        int[] filled = new int[indexes.size()];
        for (int i = 0; i < indexes.size(); i++) {
            indexValues[i] = new Object[n];
        }
        boolean storedRows = !objectsInserted && stored != null && stored.size() == n;
        int perRow = 1 + schema.layout.columns().size(); // the key, then one value per column (nested may add)
        tags = new byte[Math.max(16, n * perRow)];
        values = new Object[tags.length];
        Recorder recorder = new Recorder();
        int j = 0;
        Object min = null, max = null;
        // Options of this chunk alone: attribute code may keep things in them.
        QueryOptions options = new QueryOptions();
        for (Map.Entry<A, O> e : byKey.entrySet()) {
            keys[j] = e.getKey();
            if (min == null || compare(e.getKey(), min) < 0) {
                min = e.getKey();
            }
            if (max == null || compare(e.getKey(), max) > 0) {
                max = e.getKey();
            }
            rowStart[j] = size;
            schema.keyType.write(recorder, e.getKey());
            if (storedRows) {
                recorder.putBytes(stored.get(j));
            } else if (!objectsInserted) { // an inserted row is in the table: nothing of the object to record
                schema.layout.write(e.getValue(), recorder);
            }
            rowEnd[j] = size;
            if (copyStart != null) {
                copyStart[j] = size;
                schema.layout.writeCopy(e.getValue(), recorder);
            }
            for (int i = 0; i < indexes.size(); i++) {
                Set<Object> v = indexes.get(i).encodedValues(e.getValue(), options);
                indexStart[i][j] = filled[i];
                if (filled[i] + v.size() > indexValues[i].length) {
                    indexValues[i] = Arrays.copyOf(indexValues[i], Math.max(indexValues[i].length * 2,
                            filled[i] + v.size()));
                }
                for (Object value : v) {
                    indexValues[i][filled[i]++] = value;
                }
            }
            j++;
        }
        rowStart[n] = size;
        for (int i = 0; i < indexes.size(); i++) {
            indexStart[i][n] = filled[i];
        }
        this.minKey = min;
        this.maxKey = max;
    }

    /** Compares two keys with their {@code compareTo} (every supported key type is {@link Comparable}). */
    @SuppressWarnings("unchecked")
    static int compare(Object a, Object b) {
        return ((Comparable<Object>) a).compareTo(b);
    }

    int rows() {
        return keys.length;
    }

    /** Writes row {@code j} (key first) into {@code row}. */
    void replay(int j, RowWriter row) throws SQLException {
        replay(rowStart[j], rowEnd[j], row);
    }

    /**
     * Writes the copy of row {@code j}'s object that a covering index table carries into {@code row}: its
     * layout columns (without its key, which {@link KeyType#write} records as one value), or the layout's own
     * copy columns when they differ.
     */
    void replayCopy(int j, RowWriter row) throws SQLException {
        if (copyStart != null) {
            replay(copyStart[j], rowStart[j + 1], row);
        } else {
            replay(rowStart[j] + 1, rowEnd[j], row);
        }
    }

    private void replay(int from, int to, RowWriter row) throws SQLException {
        for (int k = from; k < to; k++) {
            Object v = values[k];
            switch (tags[k]) {
                case NULL -> row.putNull();
                case BOOLEAN -> row.putBoolean((Boolean) v);
                case INT -> row.putInt((Integer) v);
                case LONG -> row.putLong((Long) v);
                case DOUBLE -> row.putDouble((Double) v);
                case STRING -> row.putString((String) v);
                case BYTES -> row.putBytes((byte[]) v);
                case OBJECT -> row.putObject(v);
                default -> row.putNested(nestedTypes[k], v);
            }
        }
    }

    private void add(byte tag, Object value) {
        if (size == tags.length) {
            tags = Arrays.copyOf(tags, size * 2);
            values = Arrays.copyOf(values, size * 2);
            if (nestedTypes != null) {
                nestedTypes = Arrays.copyOf(nestedTypes, size * 2);
            }
        }
        tags[size] = tag;
        values[size++] = value;
    }

    /** Records what a layout writes. */
    private final class Recorder implements RowWriter {
        @Override public void putNull() { add(NULL, null); }
        @Override public void putBoolean(boolean v) { add(BOOLEAN, v); }
        @Override public void putInt(int v) { add(INT, v); }
        @Override public void putLong(long v) { add(LONG, v); }
        @Override public void putDouble(double v) { add(DOUBLE, v); }
        @Override public void putString(String v) { add(STRING, v); }
        @Override public void putBytes(byte[] v) { add(BYTES, v); }
        @Override public void putObject(Object v) { add(OBJECT, v); }
        @Override public void putNested(String sqlType, Object v) {
            if (nestedTypes == null) {
                nestedTypes = new String[tags.length];
            }
            add(NESTED, v);
            nestedTypes[size - 1] = sqlType;
        }
    }
}
