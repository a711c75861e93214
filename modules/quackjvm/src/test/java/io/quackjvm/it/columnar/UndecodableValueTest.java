package io.quackjvm.it.columnar;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.StoredDataException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static com.googlecode.cqengine.query.QueryFactory.attribute;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.in;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A column value a codec cannot decode (here an empty string where a {@code char} is stored, as a file changed
 * outside the collection may hold) is a {@link StoredDataException} naming the collection and, where the row was
 * read by its key, the key; never the codec's own exception.
 */
class UndecodableValueTest {

    public record Grade(int id, char mark) {
    }

    static final SimpleAttribute<Grade, Integer> ID = attribute(Grade.class, Integer.class, "id", Grade::id);

    @TempDir
    Path dir;

    private DuckDBPersistence<Grade, Integer> open(Path file) {
        return DuckDBPersistence.builder(ID).file(file).name("grade")
                .columnarLayout(ColumnarLayout.ofRecord(Grade.class)).build();
    }

    @Test
    void aValueThatDoesNotDecodeNamesTheCollectionAndTheKey() throws Exception {
        Path file = dir.resolve("grades.duckdb");
        try (DuckDBPersistence<Grade, Integer> p = open(file)) {
            new ConcurrentIndexedCollection<>(p).addAll(List.of(new Grade(1, 'A'), new Grade(2, 'B')));
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = c.createStatement()) {
            s.execute("UPDATE grade SET mark = ''");
        }
        try (DuckDBPersistence<Grade, Integer> p = open(file)) {
            IndexedCollection<Grade> grades = new ConcurrentIndexedCollection<>(p);
            StoredDataException byKey = assertThrows(StoredDataException.class,
                    () -> grades.retrieve(equal(ID, 2)).uniqueResult());
            assertTrue(byKey.getMessage().startsWith("Collection 'grade', key 2: "), byKey.getMessage());
            StoredDataException twoKeys = assertThrows(StoredDataException.class,
                    () -> grades.retrieve(in(ID, 1, 2)).forEach(g -> { }));
            assertTrue(twoKeys.getMessage().contains("Collection 'grade', key "), twoKeys.getMessage());
            StoredDataException contains = assertThrows(StoredDataException.class,
                    () -> grades.contains(new Grade(1, 'A')));
            assertTrue(contains.getMessage().startsWith("Collection 'grade', key 1: "), contains.getMessage());
            StoredDataException scan = assertThrows(StoredDataException.class, () -> new ArrayList<>(grades));
            assertTrue(scan.getMessage().startsWith("Collection 'grade', "), scan.getMessage());
        }
    }
}
