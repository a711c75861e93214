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
import org.junit.jupiter.params.provider.CsvSource;
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

    /** Each line: the SQL (a backslash-n stands for a line break) and the construct its refusal must name. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            `SELECT * FROM read_csv('/etc/passwd')` | `read_csv`
            `SELECT * FROM read_csv_auto('/etc/passwd')` | `read_csv_auto`
            `SELECT * FROM read_text('/etc/passwd')` | `read_text`
            `SELECT * FROM read_blob('/etc/shadow')` | `read_blob`
            `SELECT * FROM glob('/root/*')` | `glob`
            `SELECT * FROM read_json('/tmp/x.json')` | `read_json`
            `SELECT * FROM read_json_auto('/tmp/x.json')` | `read_json_auto`
            `SELECT * FROM read_parquet('/tmp/x.parquet')` | `read_parquet`
            `SELECT * FROM parquet_scan('/tmp/x.parquet')` | `parquet_scan`
            `SELECT * FROM '/etc/passwd'` | `'/etc/passwd'`
            `SELECT * FROM "file.parquet"` | `'file.parquet'`
            `SELECT * FROM "read_csv"('/etc/passwd')` | `read_csv`
            `SELECT * FROM /* c */ READ_CSV /* d */ ('/etc/passwd') -- x` | `READ_CSV`
            `select * from Read_Blob('/etc/shadow')` | `Read_Blob`
            `WITH t AS (SELECT * FROM read_csv('/etc/passwd')) SELECT * FROM t` | `read_csv`
            `SELECT (SELECT count(*) FROM glob('/root/*')) FROM sale` | `glob`
            `SELECT id FROM sale WHERE id IN (SELECT 1 FROM read_text('/etc/passwd'))` | `read_text`
            `SELECT * FROM (SELECT * FROM read_blob('/etc/shadow')) b` | `read_blob`
            `SELECT * FROM sale, range(3) r, read_csv('/etc/passwd') y` | `read_csv`
            `SELECT * FROM query('SELECT 1')` | `query`
            `SELECT * FROM main.sale` | `main.sale`
            `SELECT * FROM memory.main.sale` | `memory.main.sale`
            `SELECT * FROM memory.quackjvm_sql.sale` | `memory.quackjvm_sql.sale`
            `SELECT * FROM quackjvm_collections` | `'quackjvm_collections'`
            `SELECT * FROM sale s JOIN quackjvm_collections c ON true` | `'quackjvm_collections'`
            `WITH a AS (SELECT * FROM quackjvm_collections), quackjvm_collections AS (SELECT 1) SELECT * FROM a` | `'quackjvm_collections'`
            `WITH quackjvm_collections AS (SELECT * FROM quackjvm_collections) SELECT * FROM quackjvm_collections` | `'quackjvm_collections'`
            `WITH sale AS (SELECT 1) SELECT * FROM sale, main.quackjvm_collections` | `main.quackjvm_collections`
            `SELECT * FROM information_schema.tables` | `information_schema.tables`
            `SELECT * FROM pg_catalog.pg_class` | `pg_catalog.pg_class`
            `SELECT * FROM duckdb_settings()` | `duckdb_settings`
            `SELECT * FROM duckdb_databases()` | `duckdb_databases`
            `SELECT * FROM duckdb_tables()` | `duckdb_tables`
            `SELECT current_setting('home_directory')` | `current_setting`
            `SELECT id FROM sale WHERE maker = current_setting('temp_directory')` | `current_setting`
            `SELECT getenv('HOME')` | `getenv`
            `SELECT memory.main.upper('x')` | `main.upper`
            `SELECT quackjvm_sql.upper('x')` | `quackjvm_sql.upper`
            `SELECT * FROM checkpoint()` | `checkpoint`
            `SELECT setseed(0.5)` | `setseed`
            `SELECT nextval('s')` | `nextval`
            `SELECT json_serialize_plan('SELECT * FROM read_csv(''/etc/passwd'')')` | `json_serialize_plan`
            `SUMMARIZE sale` | `SHOW_REF`
            `SELECT 1; SELECT 2` | `2 statements`
            `SELECT 1; -- x\\n SELECT * FROM read_csv('/etc/passwd')` | `2 statements`
            `PRAGMA version` | `PRAGMA`
            `COPY sale TO '/tmp/x.csv'` | `COPY`
            `EXPORT DATABASE '/tmp/x'` | `EXPORT`
            `ATTACH '/tmp/x.db' AS x` | `ATTACH`
            `DETACH x` | `DETACH`
            `USE memory` | `USE`
            `INSTALL httpfs` | `INSTALL`
            `/* x */ LOAD json` | `LOAD`
            `CALL pragma_version()` | `CALL`
            `SET threads = 1` | `SET`
            `RESET threads` | `RESET`
            `CREATE TABLE x AS SELECT 1` | `CREATE`
            `INSERT INTO sale SELECT * FROM sale` | `INSERT`
            `-- comment\\nDELETE FROM sale` | `DELETE`
            `DROP TABLE sale` | `DROP`
            `ALTER TABLE sale ADD COLUMN x INTEGER` | `ALTER`
            """)
    void refusedBeforeAnythingRunsNamingTheConstruct(String text, String construct) {
        String sql = text.replace("\\n", "\n");
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
                Arguments.of("SELECT \"a\"\"b\" FROM (SELECT length('x\\y\"z\t') AS \"a\"\"b\")", new Object[0], "6"),
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
