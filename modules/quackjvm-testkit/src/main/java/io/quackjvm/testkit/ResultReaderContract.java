package io.quackjvm.testkit;

import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.api.spi.RowCursor;
import io.quackjvm.api.spi.RowSource;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The contract of a {@link ResultReaderProvider}: it reports its availability without throwing, and a usable
 * reader reads every supported column type by position, SQL NULL, empty and large results, and leaves the
 * JDBC result set to the engine. A reader that reports itself unavailable in the test JVM skips the reading
 * tests (with its reason as the message) rather than failing them.
 *
 * <pre>{@code
 * class CountingReaderContractTests extends ResultReaderContract {
 *     protected ResultReaderProvider provider() { return new CountingReaderProvider(); }
 * }
 * }</pre>
 */
public abstract class ResultReaderContract extends ProviderContract<ResultReaderProvider> {

    /** Rows in the large-result test: more than one DuckDB vector (2048) and than a typical batch. */
    protected int largeResultRows() {
        return 20_000;
    }

    private ResultReaderProvider usable() {
        ResultReaderProvider reader = provider();
        Optional<String> reason = reader.unavailableReason();
        assumeTrue(reason.isEmpty(), () -> "'" + reader.name() + "' is unavailable in this JVM: " + reason.orElse(""));
        return reader;
    }

    @Test
    public void unavailableReasonNeverThrowsAndIsStable() {
        ResultReaderProvider reader = provider();
        Optional<String> first = reader.unavailableReason();
        assertNotNull(first, "unavailableReason() must return an Optional, never null");
        first.ifPresent(r -> assertFalse(r.isBlank(), "An unavailable reader must say why"));
        assertEquals(first, reader.unavailableReason(), "unavailableReason() must give the same answer every time");
    }

    @Test
    public void readsEveryColumnTypeByPosition() throws Exception {
        ResultReaderProvider reader = usable();
        String sql = "SELECT 42::INTEGER, 9000000000::BIGINT, 2.5::DOUBLE, 'grüße ☃'::VARCHAR, true, "
                + "'\\x00\\xFFab'::BLOB, NULL::INTEGER, NULL::VARCHAR, NULL::BOOLEAN";
        try (Connection db = Scratch.open(); Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql);
             RowCursor cursor = reader.open(rs)) {
            assertTrue(cursor.next(), "A one-row result must have a row");
            RowSource row = cursor.row();
            assertEquals(42, row.getInt(0));
            assertEquals(9_000_000_000L, row.getLong(1));
            assertEquals(2.5, row.getDouble(2));
            assertEquals("grüße ☃", row.getString(3));
            assertTrue(row.getBoolean(4));
            assertArrayEquals(new byte[] {0, (byte) 0xFF, 'a', 'b'}, row.getBytes(5));
            assertEquals(42, ((Number) row.getObject(0)).intValue());
            for (int c = 0; c <= 5; c++) {
                assertFalse(row.isNull(c), "column " + c + " is not NULL");
            }
            for (int c = 6; c <= 8; c++) {
                assertTrue(row.isNull(c), "column " + c + " is NULL");
                assertNull(row.getObject(c), "getObject of SQL NULL must be null");
            }
            assertEquals(0, row.getInt(6), "getInt of SQL NULL must be 0");
            assertNull(row.getString(7), "getString of SQL NULL must be null");
            assertFalse(row.getBoolean(8), "getBoolean of SQL NULL must be false");
            assertFalse(cursor.next(), "A one-row result has one row");
        }
    }

    @Test
    public void readsEveryRowOfALargeResultInOrder() throws Exception {
        ResultReaderProvider reader = usable();
        int n = largeResultRows();
        String sql = "SELECT i::BIGINT, 'v' || i FROM range(0, " + n + ") t(i) ORDER BY i";
        try (Connection db = Scratch.open(); Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql);
             RowCursor cursor = reader.open(rs)) {
            long expected = 0;
            while (cursor.next()) {
                long i = cursor.row().getLong(0);
                assertEquals(expected, i, "Rows must arrive in the order of the result");
                if (i % 997 == 0) {
                    assertEquals("v" + i, cursor.row().getString(1));
                }
                expected++;
            }
            assertEquals(n, expected, "Every row must be read");
        }
    }

    @Test
    public void anEmptyResultHasNoRows() throws Exception {
        ResultReaderProvider reader = usable();
        try (Connection db = Scratch.open(); Statement s = db.createStatement();
             ResultSet rs = s.executeQuery("SELECT 1 WHERE false"); RowCursor cursor = reader.open(rs)) {
            assertFalse(cursor.next());
        }
    }

    @Test
    public void closingTheCursorLeavesTheResultSetToTheEngine() throws Exception {
        ResultReaderProvider reader = usable();
        try (Connection db = Scratch.open(); Statement s = db.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM range(3)")) {
            RowCursor cursor = reader.open(rs);
            assertTrue(cursor.next());
            cursor.close();
            assertFalse(rs.isClosed(), "RowCursor.close() must not close the JDBC result set");
        }
    }
}
