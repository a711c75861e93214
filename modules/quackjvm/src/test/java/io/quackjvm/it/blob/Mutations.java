package io.quackjvm.it.blob;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What a collection or map does under a fixed sequence of queries and modifications: "ok" or the exception's
 * class for each step. Two collections that behave alike (one modifiable, fixed-size or unmodifiable, tolerant of
 * null or not) give the same list.
 */
final class Mutations {

    private Mutations() {
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static List<String> of(Object target) {
        List<String> outcomes = new ArrayList<>();
        if (target instanceof Map map) {
            Object key = map.isEmpty() ? null : map.keySet().iterator().next();
            Object value = key == null ? null : map.get(key);
            outcomes.add(step(() -> map.containsKey(null)));
            outcomes.add(step(() -> map.containsValue(null)));
            outcomes.add(step(() -> map.put(key, value)));
            outcomes.add(step(() -> map.remove(key)));
            outcomes.add(step(() -> { map.clear(); return null; }));
            outcomes.add(step(() -> map.put(key, value)));
        } else {
            Collection c = (Collection) target;
            Object element = c.isEmpty() ? null : c.iterator().next();
            outcomes.add(step(() -> c.contains(null)));
            if (c instanceof List list && !list.isEmpty()) {
                outcomes.add(step(() -> list.set(0, list.get(0))));
            }
            outcomes.add(step(() -> c.add(element)));
            outcomes.add(step(() -> c.remove(element)));
            outcomes.add(step(() -> { c.clear(); return null; }));
            outcomes.add(step(() -> c.add(element)));
        }
        return outcomes;
    }

    private static String step(Supplier<Object> operation) {
        try {
            operation.get();
            return "ok";
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }
}
