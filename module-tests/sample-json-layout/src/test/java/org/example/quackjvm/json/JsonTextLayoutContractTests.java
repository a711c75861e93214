package org.example.quackjvm.json;

import com.googlecode.cqengine.attribute.SimpleAttribute;
import io.quackjvm.api.spi.ObjectLayoutProvider;
import io.quackjvm.testkit.ObjectLayoutContract;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The json-text layout passes the provider test kit, plus its own rules about what it refuses. */
class JsonTextLayoutContractTests extends ObjectLayoutContract<Book, String> {

    @Override
    protected ObjectLayoutProvider provider() {
        return new JsonTextLayoutProvider();
    }

    @Override
    protected SimpleAttribute<Book, String> primaryKey() {
        return Book.ISBN;
    }

    @Override
    protected List<Book> sampleObjects() {
        return List.of(
                new Book("978-0", "Plain", 100, 9.5, true, Book.Genre.FICTION),
                new Book("978-1", "Quotes \" and \\ and\nnewlines, grüße ☃", 0, null, false, Book.Genre.POETRY),
                new Book("978-2", "", Integer.MAX_VALUE, -0.0, true, null),
                new Book("978-3", null, Integer.MIN_VALUE, Double.MAX_VALUE, false, Book.Genre.SCIENCE));
    }

    record Holder(java.util.List<String> values) {
    }

    @Test
    void refusesAClassThatIsNotARecordNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new JsonTextLayoutProvider().createTable(StringBuilder.class, null));
        assertTrue(e.getMessage().contains("java.lang.StringBuilder"), e.getMessage());
    }

    @Test
    void refusesAComponentTypeItCannotStoreNamingTheField() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new JsonTextLayoutProvider().createTable(Holder.class, null));
        assertTrue(e.getMessage().contains("'values'") && e.getMessage().contains("java.util.List"), e.getMessage());
    }
}
