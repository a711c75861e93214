package io.quackjvm.it.answers;

import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.UUID;

import static com.googlecode.cqengine.query.QueryFactory.attribute;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SQL sees indexed values decoded from their order-preserving stored forms: edge doubles and floats, strings
 * beyond the BMP and around the private-use area, dates before the epoch, instants, UUIDs, decimals, enums.
 */
class SqlViewValuesTest {

    enum Colour { RED, GREEN }

    record Holder(Integer id, Double d, Float f, String s, Long l, LocalDate date, Instant at, UUID u,
                  BigDecimal dec, Colour colour, LocalDateTime ldt) {
    }

    static final SimpleAttribute<Holder, Integer> ID = attribute(Holder.class, Integer.class, "id", Holder::id);

    static List<Holder> holders() {
        return List.of(
                new Holder(0, -0.0, -0.0f, "plain", Long.MIN_VALUE, LocalDate.of(-100, 3, 1),
                        Instant.ofEpochSecond(-1, 500_000_000), new UUID(-5, 7), new BigDecimal("-123.4500"),
                        Colour.RED, LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000)),
                new Holder(1, Double.NaN, Float.NaN, "é\uD83D\uDE00\uE000x\uFFFF", Long.MAX_VALUE,
                        LocalDate.of(1970, 1, 1), Instant.parse("2024-02-29T12:34:56.123456Z"),
                        new UUID(Long.MAX_VALUE, Long.MIN_VALUE), new BigDecimal("0.000"), Colour.GREEN,
                        LocalDateTime.of(2024, 2, 29, 12, 0)),
                new Holder(2, Double.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, "lone\uD83D", 0L,
                        LocalDate.of(2262, 4, 12), Instant.EPOCH, new UUID(0, 0), new BigDecimal("1E+40"),
                        Colour.RED, LocalDateTime.of(1, 1, 1, 0, 0)),
                new Holder(3, Double.MIN_VALUE, Float.MIN_VALUE, "", -1L, LocalDate.of(1, 1, 1),
                        Instant.ofEpochSecond(-62_000_000_000L), UUID.fromString("123e4567-e89b-12d3-a456-426614174000"),
                        new BigDecimal("-0.001"), Colour.GREEN, LocalDateTime.of(9999, 12, 31, 23, 59, 59)),
                new Holder(4, -Double.MAX_VALUE, Float.MAX_VALUE, "Citroën", 42L, LocalDate.of(1969, 12, 31),
                        Instant.ofEpochSecond(1, 1000), new UUID(-1, -1), new BigDecimal("98765432109876543210.5"),
                        Colour.RED, LocalDateTime.of(2000, 1, 1, 0, 0, 0, 1000)),
                new Holder(5, -2.5e-300, -1.5f, "\uFFFF\uD83D\uDE00", 7L, LocalDate.of(-5000, 1, 1),
                        Instant.ofEpochSecond(0, -1000), new UUID(1L << 63, 1L), new BigDecimal("12"),
                        Colour.GREEN, LocalDateTime.of(-50, 6, 15, 6, 30)));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static void index(IndexedCollection<Holder> holders, com.googlecode.cqengine.attribute.Attribute<Holder, ?> a) {
        holders.addIndex(DuckDBIndex.onAttribute((com.googlecode.cqengine.attribute.Attribute) a));
    }

    @Test
    void everyValueTypeIsDecoded() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Holder> holders = db.collection(ID).name("holder").build();
            index(holders, attribute(Holder.class, Double.class, "d", Holder::d));
            index(holders, attribute(Holder.class, Float.class, "f", Holder::f));
            index(holders, attribute(Holder.class, String.class, "s", Holder::s));
            index(holders, attribute(Holder.class, Long.class, "l", Holder::l));
            index(holders, attribute(Holder.class, LocalDate.class, "date", Holder::date));
            index(holders, attribute(Holder.class, Instant.class, "at", Holder::at));
            index(holders, attribute(Holder.class, UUID.class, "u", Holder::u));
            index(holders, attribute(Holder.class, BigDecimal.class, "dec", Holder::dec));
            index(holders, attribute(Holder.class, Colour.class, "colour", Holder::colour));
            index(holders, attribute(Holder.class, LocalDateTime.class, "ldt", Holder::ldt));
            holders.addAll(holders());
            String described = db.describe();
            assertTrue(described.contains("sql holder: id INTEGER, d DOUBLE, f FLOAT, s VARCHAR, l BIGINT, date DATE, "
                    + "at TIMESTAMP WITH TIME ZONE, u UUID, dec DOUBLE, colour VARCHAR, ldt TIMESTAMP"), described);
            for (Holder h : holders()) {
                String where = " FROM holder WHERE id = ?";
                String what = "row " + h.id();
                assertEquals(0, Double.compare(h.d(), db.query("SELECT d" + where, h.id()).scalar(Double.class)), what);
                assertEquals(h.d().equals(-0.0) || h.d() < 0,
                        db.query("SELECT signbit(d)" + where, h.id()).scalar(Boolean.class), what);
                assertEquals(0, Float.compare(h.f(), db.query("SELECT f" + where, h.id()).scalar(Float.class)), what);
                String expected = h.s().replace("lone\uD83D", "lone\uFFFD");
                assertEquals(expected, db.query("SELECT s" + where, h.id()).scalar(String.class), what);
                assertEquals(h.l(), db.query("SELECT l" + where, h.id()).scalar(Long.class), what);
                assertEquals(h.date(), db.query("SELECT date" + where, h.id()).scalar(LocalDate.class), what);
                assertEquals(h.at(), db.query("SELECT \"at\"" + where, h.id()).scalar(Instant.class), what);
                assertEquals(h.u(), db.query("SELECT u" + where, h.id()).scalar(UUID.class), what);
                assertEquals(h.dec().doubleValue(), db.query("SELECT dec" + where, h.id()).scalar(Double.class), what);
                assertEquals(h.colour().name(), db.query("SELECT colour" + where, h.id()).scalar(String.class), what);
                assertEquals(h.ldt(), db.query("SELECT ldt" + where, h.id()).scalar(LocalDateTime.class), what);
                // SQL compares the natural values
                assertEquals(1L, db.query("SELECT count(*)" + where + " AND u = ?", h.id(), h.u()).scalar(Long.class));
            }
            assertEquals(6L, db.query("SELECT count(*) FROM holder WHERE s = ? OR s <> ?", "plain", "plain")
                    .scalar(Long.class));
            assertFalse(db.query("SELECT d FROM holder WHERE isnan(d)").list(Double.class).isEmpty());
        }
    }
}
