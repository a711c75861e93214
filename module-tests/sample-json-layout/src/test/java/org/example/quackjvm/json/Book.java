package org.example.quackjvm.json;

import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;

/** The record the sample's tests store. */
public record Book(String isbn, String title, int pages, Double price, boolean inPrint, Genre genre) {

    public enum Genre { FICTION, SCIENCE, POETRY }

    public static final SimpleAttribute<Book, String> ISBN = new SimpleAttribute<>(Book.class, String.class, "isbn") {
        @Override
        public String getValue(Book book, QueryOptions queryOptions) {
            return book.isbn();
        }
    };
}
