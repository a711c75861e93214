package io.quackjvm.it;

import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;

import java.util.List;

/** A record with a String primary key: records need no JVM flags and no no-argument constructor. */
public record Person(String name, int age, List<String> tags) {

    public static final SimpleAttribute<Person, String> NAME = new SimpleAttribute<>(Person.class, String.class, "name") {
        @Override
        public String getValue(Person p, QueryOptions queryOptions) {
            return p.name;
        }
    };
}
