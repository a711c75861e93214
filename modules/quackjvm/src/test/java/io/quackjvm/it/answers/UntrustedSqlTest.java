package io.quackjvm.it.answers;

import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.UnsafeQueryException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** database.query with text an end user typed: what reaches beyond the collections is refused before it runs. */
class UntrustedSqlTest {

    private static DuckDBDatabase db;
    private static List<Sale> data;

    @BeforeAll
    static void open() {
        db = DuckDBDatabase.builder().build();
        IndexedCollection<Sale> sales = AggregatesTest.sales(db, "blob");
        data = Sale.random(20, 7);
        sales.addAll(data);
        IndexedCollection<Sale> rival = db.collection(Sale.ID).name("rival").build();
        rival.addAll(data.subList(0, 10));
    }

    @AfterAll
    static void close() {
        db.close();
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("SELECT * FROM read_csv('/etc/passwd')", "read_csv"),
                Arguments.of("SELECT * FROM read_csv_auto('/etc/passwd')", "read_csv_auto"),
                Arguments.of("SELECT * FROM read_text('/etc/passwd')", "read_text"),
                Arguments.of("SELECT * FROM read_blob('/etc/shadow')", "read_blob"),
                Arguments.of("SELECT * FROM glob('/root/*')", "glob"),
                Arguments.of("SELECT * FROM read_json('/tmp/x.json')", "read_json"),
                Arguments.of("SELECT * FROM read_json_auto('/tmp/x.json')", "read_json_auto"),
                Arguments.of("SELECT * FROM read_parquet('/tmp/x.parquet')", "read_parquet"),
                Arguments.of("SELECT * FROM parquet_scan('/tmp/x.parquet')", "parquet_scan"),
                Arguments.of("SELECT * FROM '/etc/passwd'", "'/etc/passwd'"),
                Arguments.of("SELECT * FROM \"file.parquet\"", "'file.parquet'"),
                Arguments.of("SELECT * FROM \"read_csv\"('/etc/passwd')", "read_csv"),
                Arguments.of("SELECT * FROM /* c */ READ_CSV /* d */ ('/etc/passwd') -- x", "READ_CSV"),
                Arguments.of("select * from Read_Blob('/etc/shadow')", "Read_Blob"),
                Arguments.of("WITH t AS (SELECT * FROM read_csv('/etc/passwd')) SELECT * FROM t", "read_csv"),
                Arguments.of("SELECT (SELECT count(*) FROM glob('/root/*')) FROM sale", "glob"),
                Arguments.of("SELECT id FROM sale WHERE id IN (SELECT 1 FROM read_text('/etc/passwd'))", "read_text"),
                Arguments.of("SELECT * FROM (SELECT * FROM read_blob('/etc/shadow')) b", "read_blob"),
                Arguments.of("SELECT * FROM sale, range(3) r, read_csv('/etc/passwd') y", "read_csv"),
                Arguments.of("SELECT * FROM query('SELECT 1')", "query"),
                Arguments.of("SELECT * FROM main.sale", "main.sale"),
                Arguments.of("SELECT * FROM memory.main.sale", "memory.main.sale"),
                Arguments.of("SELECT * FROM memory.quackjvm_sql.sale", "memory.quackjvm_sql.sale"),
                Arguments.of("SELECT * FROM quackjvm_collections", "'quackjvm_collections'"),
                Arguments.of("SELECT * FROM sale s JOIN quackjvm_collections c ON true", "'quackjvm_collections'"),
                Arguments.of("WITH a AS (SELECT * FROM quackjvm_collections), quackjvm_collections AS (SELECT 1) "
                        + "SELECT * FROM a", "'quackjvm_collections'"),
                Arguments.of("WITH quackjvm_collections AS (SELECT * FROM quackjvm_collections) "
                        + "SELECT * FROM quackjvm_collections", "'quackjvm_collections'"),
                Arguments.of("WITH sale AS (SELECT 1) SELECT * FROM sale, main.quackjvm_collections",
                        "main.quackjvm_collections"),
                Arguments.of("SELECT * FROM information_schema.tables", "information_schema.tables"),
                Arguments.of("SELECT * FROM pg_catalog.pg_class", "pg_catalog.pg_class"),
                Arguments.of("SELECT * FROM duckdb_settings()", "duckdb_settings"),
                Arguments.of("SELECT * FROM duckdb_databases()", "duckdb_databases"),
                Arguments.of("SELECT * FROM duckdb_tables()", "duckdb_tables"),
                Arguments.of("SELECT current_setting('home_directory')", "current_setting"),
                Arguments.of("SELECT id FROM sale WHERE maker = current_setting('temp_directory')", "current_setting"),
                Arguments.of("SELECT getenv('HOME')", "getenv"),
                Arguments.of("SELECT memory.main.upper('x')", "main.upper"),
                Arguments.of("SELECT quackjvm_sql.upper('x')", "quackjvm_sql.upper"),
                Arguments.of("SELECT * FROM checkpoint()", "checkpoint"),
                Arguments.of("SELECT setseed(0.5)", "setseed"),
                Arguments.of("SELECT nextval('s')", "nextval"),
                Arguments.of("SELECT json_serialize_plan('SELECT * FROM read_csv(''/etc/passwd'')')",
                        "json_serialize_plan"),
                Arguments.of("SUMMARIZE sale", "SHOW_REF"),
                Arguments.of("SELECT 1; SELECT 2", "2 statements"),
                Arguments.of("SELECT 1; -- x\n SELECT * FROM read_csv('/etc/passwd')", "2 statements"),
                Arguments.of("PRAGMA version", "PRAGMA"),
                Arguments.of("COPY sale TO '/tmp/x.csv'", "COPY"),
                Arguments.of("EXPORT DATABASE '/tmp/x'", "EXPORT"),
                Arguments.of("ATTACH '/tmp/x.db' AS x", "ATTACH"),
                Arguments.of("DETACH x", "DETACH"),
                Arguments.of("USE memory", "USE"),
                Arguments.of("INSTALL httpfs", "INSTALL"),
                Arguments.of("/* x */ LOAD json", "LOAD"),
                Arguments.of("CALL pragma_version()", "CALL"),
                Arguments.of("SET threads = 1", "SET"),
                Arguments.of("RESET threads", "RESET"),
                Arguments.of("CREATE TABLE x AS SELECT 1", "CREATE"),
                Arguments.of("INSERT INTO sale SELECT * FROM sale", "INSERT"),
                Arguments.of("-- comment\nDELETE FROM sale", "DELETE"),
                Arguments.of("DROP TABLE sale", "DROP"),
                Arguments.of("ALTER TABLE sale ADD COLUMN x INTEGER", "ALTER"));
    }

    @ParameterizedTest
    @MethodSource("refused")
    void refusedBeforeAnythingRunsNamingTheConstruct(String sql, String construct) {
        UnsafeQueryException e = assertThrows(UnsafeQueryException.class, () -> db.query(sql).list(Object.class));
        assertTrue(e.getMessage().contains("refused"), e.getMessage());
        assertTrue(e.getMessage().contains(construct), "'" + construct + "' not in: " + e.getMessage());
        assertEquals(20L, db.query("SELECT count(*) FROM sale").scalar(Long.class));
    }

    @Test
    void unicodeEscapesDoNotGetPastTheParser() {
        QuackException e = assertThrows(QuackException.class,
                () -> db.query("SELECT * FROM U&\"\\0072ead_csv\"('/etc/passwd')").list(Object.class));
        assertTrue(e.getMessage().contains("cannot be parsed") || e instanceof UnsafeQueryException, e.getMessage());
    }

    static Stream<Arguments> legitimate() {
        String maker = data.get(0).maker();
        long ofMaker = data.stream().filter(s -> s.maker().equals(maker)).count();
        long cheap = data.stream().filter(s -> s.price() < 100.0).count();
        long tags = data.stream().mapToLong(s -> s.tags().size()).sum();
        long fOrZ = data.stream().filter(s -> s.maker().startsWith("F") || s.maker().startsWith("z")).count();
        long makers = data.stream().map(Sale::maker).distinct().count();
        return Stream.of(
                Arguments.of("SELECT count(*) FROM sale", new Object[0], "20"),
                Arguments.of("SELECT count(*) FROM (SELECT maker, count(*) FROM sale GROUP BY maker)", new Object[0],
                        String.valueOf(makers)),
                Arguments.of("SELECT count(*) FROM sale s JOIN rival r ON s.id = r.id", new Object[0], "10"),
                Arguments.of("WITH cheap AS (SELECT * FROM sale WHERE price < ?) SELECT count(*) FROM cheap",
                        new Object[]{100.0}, String.valueOf(cheap)),
                Arguments.of("SELECT rn FROM (SELECT id, row_number() OVER (ORDER BY id DESC) AS rn FROM sale) "
                        + "WHERE id = 0", new Object[0], "20"),
                Arguments.of("SELECT (SELECT max(id) FROM rival)", new Object[0], "9"),
                Arguments.of("SELECT count(*) FROM sale WHERE id IN (SELECT id FROM rival WHERE id < 5)",
                        new Object[0], "5"),
                Arguments.of("SELECT sum(a) FROM (VALUES (1), (2), (3)) v(a)", new Object[0], "6"),
                Arguments.of("SELECT date_diff('day', DATE '2024-01-01', DATE '2024-03-01') + year(DATE '2024-03-01')",
                        new Object[0], "2084"),
                Arguments.of("SELECT upper('ab') || lower('CD') || length('xyz')", new Object[0], "ABcd3"),
                Arguments.of("SELECT count(*) FROM sale WHERE maker = ?", new Object[]{maker}, String.valueOf(ofMaker)),
                Arguments.of("WITH quackjvm_collections AS (SELECT 1 AS a) SELECT a FROM quackjvm_collections",
                        new Object[0], "1"),
                Arguments.of("WITH sale AS (SELECT 7 AS id) SELECT id FROM sale", new Object[0], "7"),
                Arguments.of("SELECT count(*) FROM (SELECT unnest(tags) FROM sale)", new Object[0],
                        String.valueOf(tags)),
                Arguments.of("SELECT sum(range) FROM range(5)", new Object[0], "10"),
                Arguments.of("SELECT count(*) FROM (SELECT id FROM sale UNION SELECT id FROM rival)", new Object[0],
                        "20"),
                Arguments.of("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4) "
                        + "SELECT sum(i) FROM n", new Object[0], "10"),
                Arguments.of("SELECT list_transform([1, 2], x -> x * 2)[2]", new Object[0], "4"),
                Arguments.of("SELECT count(*) FROM sale WHERE id BETWEEN 1 AND 3 AND CASE WHEN price > -1e9 THEN true "
                        + "ELSE false END AND CAST(id AS VARCHAR) <> 'x'", new Object[0], "3"),
                Arguments.of("SELECT count(*) FROM sale WHERE maker LIKE 'F%' OR maker ILIKE 'Z%'", new Object[0],
                        String.valueOf(fOrZ)),
                Arguments.of("SELECT count(*) FROM sale WHERE id IN (SELECT id FROM sale ORDER BY id LIMIT 4)",
                        new Object[0], "4"));
    }

    @ParameterizedTest
    @MethodSource("legitimate")
    void readsOfTheCollectionsStillAnswer(String sql, Object[] params, String expected) {
        assertEquals(expected, String.valueOf(db.query(sql, params).scalar(Object.class)), sql);
    }
}
