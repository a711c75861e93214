package io.quackjvm.api;

import io.quackjvm.api.spi.ColumnarDescription;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a layout provider reads from each kind of {@link ColumnarLayout} through its {@link ColumnarDescription}. */
class ColumnarDescriptionTest {

    record Car(int carId, String manufacturer, List<String> features) {
    }

    static class Base {
        long id;
    }

    static final class WithNoArgs extends Base {
        final String name;
        transient String cache = "not stored";
        static int counter;

        WithNoArgs() {
            this.name = "unset";
        }

        WithNoArgs(long id, String name) {
            this.id = id;
            this.name = name;
        }
    }

    static final class WithoutNoArgs {
        private final int a;
        private final Double b;

        WithoutNoArgs(int a, Double b) {
            this.a = a;
            this.b = b;
        }
    }

    private static <O> Object[] read(ColumnarDescription<O> d, O object) {
        return d.fields().stream().map(f -> f.get(object)).toArray();
    }

    @Test
    void aRecordIsReadByItsAccessorsAndRebuiltByItsCanonicalConstructor() {
        ColumnarDescription<Car> d = ColumnarLayout.ofRecord(Car.class).description();
        Car car = new Car(7, "Ford", List.of("radio", "sunroof"));
        assertSame(Car.class, d.objectType());
        assertEquals(List.of("carId", "manufacturer", "features"), d.fields().stream().map(f -> f.name()).toList());
        assertEquals("java.util.List<java.lang.String>", d.fields().get(2).type().getTypeName());
        Object[] values = read(d, car);
        assertEquals(Arrays.asList(7, "Ford", List.of("radio", "sunroof")), Arrays.asList(values));
        assertTrue(d.canConstruct());
        assertEquals(car, d.newObject(values));
        assertThrows(IllegalStateException.class, () -> d.fill(car, values), "only reflective layouts are filled");
        assertEquals(ColumnarDescription.ofRecord(Car.class).fields().toString(), d.fields().toString());
    }

    @Test
    void aReflectiveLayoutWithANoArgumentConstructorBuildsAndFillsItsObjects() {
        ColumnarLayout<WithNoArgs> layout = ColumnarLayout.reflective(WithNoArgs.class);
        ColumnarDescription<WithNoArgs> d = layout.description();
        assertEquals(List.of("id", "name"), d.fields().stream().map(f -> f.name()).toList(),
                "superclass fields first; static and transient fields left out");
        assertEquals(List.of("id", "name"), layout.fields().stream().map(f -> f.name()).toList());
        Object[] values = read(d, new WithNoArgs(3L, "x"));
        assertEquals(Arrays.asList(3L, "x"), Arrays.asList(values));
        assertTrue(d.canConstruct());
        WithNoArgs rebuilt = d.newObject(values);
        assertEquals(3L, rebuilt.id);
        assertEquals("x", rebuilt.name, "a final field is set after the constructor ran");
    }

    @Test
    void aReflectiveLayoutWithoutANoArgumentConstructorLeavesAllocationToTheProvider() {
        ColumnarDescription<WithoutNoArgs> d = ColumnarLayout.reflective(WithoutNoArgs.class).description();
        assertFalse(d.canConstruct());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> d.newObject(new Object[]{1, 2.0}));
        assertTrue(e.getMessage().contains(WithoutNoArgs.class.getName()) && e.getMessage().contains("fill"),
                e.getMessage());
        WithoutNoArgs allocated = new WithoutNoArgs(0, null); // a provider allocates without a constructor
        d.fill(allocated, new Object[]{5, 2.5});
        assertEquals(Arrays.asList(5, 2.5), Arrays.asList(read(d, allocated)));
        IllegalStateException wrongType = assertThrows(IllegalStateException.class,
                () -> d.fill(allocated, new Object[]{"five", 2.5}));
        assertTrue(wrongType.getMessage().contains("Cannot set field"), wrongType.getMessage());
    }

    @Test
    void anExplicitLayoutReadsWithItsGettersAndBuildsWithItsFactory() {
        ColumnarDescription<Car> d = ColumnarLayout.builder(Car.class)
                .column("id", int.class, Car::carId)
                .setColumn("tags", String.class, c -> Set.copyOf(c.features()))
                .factory(v -> new Car(v.get("id"), "?", List.copyOf(v.<Set<String>>get("tags"))))
                .build().description();
        assertEquals("java.util.Set<java.lang.String>", d.fields().get(1).type().getTypeName());
        Object[] values = read(d, new Car(9, "Seat", List.of("radio")));
        assertEquals(Arrays.asList(9, Set.of("radio")), Arrays.asList(values));
        assertEquals(new Car(9, "?", List.of("radio")), d.newObject(values));
        assertThrows(IllegalStateException.class, () -> d.fill(new Car(0, "", List.of()), values));
    }

    @Test
    void theDescriptionIsOneObjectPerLayout() {
        ColumnarLayout<Car> layout = ColumnarLayout.ofRecord(Car.class);
        assertSame(layout.description(), layout.description());
        assertTrue(Objects.toString(layout.description()).contains(Car.class.getName()));
    }
}
