package io.quackjvm.it.blob;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBPersistence;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.nio.file.Path;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.Month;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Currency;
import java.util.Date;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * Every common JDK value type, held in a field of a record and of a plain class, is stored in the blob layout of
 * a real DuckDB collection and read back exactly: equal, of the same class, and for collections just as
 * modifiable (or not) as the original. Runs with no {@code --add-opens} for {@code java.base}.
 */
class JdkValueTypesTest {

    /** A record whose field is declared {@code Object}, so the value's class is written with it. */
    public record Holder(int id, Object value) {
        static final SimpleAttribute<Holder, Integer> ID = new SimpleAttribute<>(Holder.class, Integer.class, "id") {
            @Override
            public Integer getValue(Holder h, QueryOptions q) {
                return h.id;
            }
        };
    }

    /** A plain class, with no no-argument constructor, whose field is declared {@code Object}. */
    public static final class PlainHolder {
        static final SimpleAttribute<PlainHolder, Integer> ID = new SimpleAttribute<>(PlainHolder.class, Integer.class, "id") {
            @Override
            public Integer getValue(PlainHolder h, QueryOptions q) {
                return h.id;
            }
        };
        private final int id;
        private final Object value;

        PlainHolder(int id, Object value) {
            this.id = id;
            this.value = value;
        }
    }

    /** An enum whose constants have bodies, so each constant is of its own anonymous subclass. */
    public enum Op {
        PLUS { @Override int apply(int a, int b) { return a + b; } },
        TIMES { @Override int apply(int a, int b) { return a * b; } };

        abstract int apply(int a, int b);
    }

    static Stream<Arguments> values() {
        List<Arguments> cases = new ArrayList<>();
        add(cases, "UUID", () -> UUID.fromString("123e4567-e89b-12d3-a456-426614174000"));
        add(cases, "UUID nil", () -> new UUID(0, 0));
        add(cases, "UUID extremes", () -> new UUID(Long.MIN_VALUE, -1L));
        add(cases, "Instant", () -> Instant.ofEpochSecond(1_700_000_000L, 123_456_789));
        add(cases, "Instant.MIN", () -> Instant.MIN);
        add(cases, "Instant.MAX", () -> Instant.MAX);
        add(cases, "LocalDate", () -> LocalDate.of(2024, 2, 29));
        add(cases, "LocalDate.MIN", () -> LocalDate.MIN);
        add(cases, "LocalTime", () -> LocalTime.of(23, 59, 59, 999_999_999));
        add(cases, "LocalTime.MIDNIGHT", () -> LocalTime.MIDNIGHT);
        add(cases, "LocalDateTime", () -> LocalDateTime.of(1969, 12, 31, 23, 59, 58, 1));
        add(cases, "OffsetDateTime", () -> OffsetDateTime.of(2024, 3, 31, 2, 30, 0, 5, ZoneOffset.ofHoursMinutes(-9, -30)));
        add(cases, "ZonedDateTime region", () -> ZonedDateTime.of(2024, 10, 27, 2, 30, 0, 0, ZoneId.of("Europe/Paris"))
                .withLaterOffsetAtOverlap());
        add(cases, "ZonedDateTime offset", () -> ZonedDateTime.of(2024, 1, 1, 0, 0, 0, 0, ZoneOffset.ofHours(14)));
        add(cases, "ZoneId region", () -> ZoneId.of("America/Argentina/Buenos_Aires"));
        add(cases, "ZoneId prefixed", () -> ZoneId.of("UTC+01:30"));
        add(cases, "ZoneOffset", () -> ZoneOffset.ofHoursMinutesSeconds(-3, -25, -7));
        add(cases, "ZoneOffset.UTC", () -> ZoneOffset.UTC);
        add(cases, "Duration", () -> Duration.ofSeconds(-5, 7));
        add(cases, "Period", () -> Period.of(1, -14, 40));
        add(cases, "Year", () -> Year.of(-4000));
        add(cases, "YearMonth", () -> YearMonth.of(2024, Month.FEBRUARY));
        add(cases, "MonthDay", () -> MonthDay.of(Month.FEBRUARY, 29));
        add(cases, "DayOfWeek", () -> DayOfWeek.SUNDAY);
        add(cases, "BigDecimal", () -> new BigDecimal("-12345678901234567890.1234567890"));
        add(cases, "BigDecimal scale", () -> new BigDecimal("1.50"));
        add(cases, "BigDecimal negative scale", () -> new BigDecimal(BigInteger.TEN, -3));
        add(cases, "BigInteger", () -> BigInteger.TWO.pow(200).negate());
        add(cases, "URI", () -> URI.create("https://user@example.org:8443/a%20b/c?q=%C3%A9&x=1#frag"));
        add(cases, "URI opaque", () -> URI.create("mailto:duck@example.org"));
        add(cases, "URL", () -> url("file:/tmp/some%20file.txt"));
        add(cases, "Optional", () -> Optional.of(UUID.fromString("00000000-0000-0001-0000-000000000002")));
        add(cases, "Optional.empty", Optional::empty);
        add(cases, "OptionalInt", () -> OptionalInt.of(-7));
        add(cases, "OptionalInt.empty", OptionalInt::empty);
        add(cases, "OptionalLong", () -> OptionalLong.of(Long.MIN_VALUE));
        add(cases, "OptionalLong.empty", OptionalLong::empty);
        add(cases, "OptionalDouble", () -> OptionalDouble.of(-0.0));
        add(cases, "OptionalDouble.empty", OptionalDouble::empty);
        add(cases, "EnumSet", () -> EnumSet.of(DayOfWeek.MONDAY, DayOfWeek.FRIDAY));
        add(cases, "EnumSet empty", () -> EnumSet.noneOf(DayOfWeek.class));
        add(cases, "EnumSet large", () -> EnumSet.of(Character.UnicodeScript.LATIN, Character.UnicodeScript.UNKNOWN));
        add(cases, "EnumSet with bodies", () -> EnumSet.of(Op.TIMES));
        add(cases, "EnumMap", () -> new EnumMap<>(Map.of(DayOfWeek.MONDAY, "mon", DayOfWeek.SUNDAY, "sun")));
        add(cases, "EnumMap empty", () -> new EnumMap<DayOfWeek, String>(DayOfWeek.class));
        add(cases, "EnumMap with bodies", () -> new EnumMap<>(Map.of(Op.PLUS, List.of(1))));
        add(cases, "EnumMap null value", () -> {
            EnumMap<Month, Object> m = new EnumMap<>(Month.class);
            m.put(Month.MAY, null);
            return m;
        });
        add(cases, "unmodifiableList ArrayList", () -> Collections.unmodifiableList(new ArrayList<>(List.of("a", "b"))));
        add(cases, "unmodifiableList LinkedList", () -> Collections.unmodifiableList(new LinkedList<>(List.of("a", "b"))));
        add(cases, "unmodifiableCollection", () -> Collections.unmodifiableCollection(new ArrayList<>(List.of(1, 2))));
        add(cases, "unmodifiableSet", () -> Collections.unmodifiableSet(new HashSet<>(Set.of(1, 2, 3))));
        add(cases, "unmodifiableSet ordered", () -> Collections.unmodifiableSet(new LinkedHashSet<>(List.of(3, 1, 2))));
        add(cases, "unmodifiableSortedSet", () -> Collections.unmodifiableSortedSet(new TreeSet<>(Set.of("b", "a"))));
        add(cases, "unmodifiableSortedSet comparator", () -> {
            TreeSet<String> s = new TreeSet<>(Comparator.reverseOrder());
            s.addAll(List.of("a", "c", "b"));
            return Collections.unmodifiableSortedSet(s);
        });
        add(cases, "unmodifiableNavigableSet", () -> Collections.unmodifiableNavigableSet(new TreeSet<>(Set.of(5, 1))));
        add(cases, "unmodifiableMap", () -> Collections.unmodifiableMap(new HashMap<>(Map.of("k", 1, "j", 2))));
        add(cases, "unmodifiableMap ordered", () -> {
            Map<String, Integer> m = new LinkedHashMap<>();
            m.put("z", 1);
            m.put("a", null);
            return Collections.unmodifiableMap(m);
        });
        add(cases, "unmodifiableSortedMap", () -> Collections.unmodifiableSortedMap(new TreeMap<>(Map.of("b", 2, "a", 1))));
        add(cases, "unmodifiableNavigableMap", () -> Collections.unmodifiableNavigableMap(new TreeMap<>(Map.of(2, "b", 1, "a"))));
        add(cases, "emptyList", Collections::emptyList);
        add(cases, "emptySet", Collections::emptySet);
        add(cases, "emptyMap", Collections::emptyMap);
        add(cases, "emptySortedSet", Collections::emptySortedSet);
        add(cases, "emptyNavigableSet", Collections::emptyNavigableSet);
        add(cases, "emptySortedMap", Collections::emptySortedMap);
        add(cases, "emptyNavigableMap", Collections::emptyNavigableMap);
        add(cases, "singletonList", () -> Collections.singletonList("one"));
        add(cases, "singleton", () -> Collections.singleton(1L));
        add(cases, "singletonMap", () -> Collections.singletonMap("k", UUID.fromString("00000000-0000-0000-0000-00000000000a")));
        add(cases, "List.of()", List::of);
        add(cases, "List.of(1)", () -> List.of(1));
        add(cases, "List.of(1, 2)", () -> List.of(1, 2));
        add(cases, "List.of(1, 2, 3)", () -> List.of(1, 2, 3));
        add(cases, "Set.of()", Set::of);
        add(cases, "Set.of(1)", () -> Set.of(1));
        add(cases, "Set.of(1, 2, 3)", () -> Set.of(1, 2, 3));
        add(cases, "Map.of()", Map::of);
        add(cases, "Map.of(k, v)", () -> Map.of("k", 1));
        add(cases, "Map.of(k, v, ...)", () -> Map.of("a", 1, "b", 2, "c", 3));
        add(cases, "List.copyOf", () -> List.copyOf(new ArrayList<>(List.of("x", "y", "z"))));
        add(cases, "Set.copyOf", () -> Set.copyOf(List.of("x", "y")));
        add(cases, "Map.copyOf", () -> Map.copyOf(Map.of("x", 1)));
        add(cases, "Stream.toList()", () -> Stream.of("p", "q").toList());
        add(cases, "Stream.toList() empty", () -> Stream.of().toList());
        add(cases, "Stream.toList() with null", () -> Stream.of("p", null, "r").toList());
        add(cases, "toUnmodifiableList", () -> Stream.of(1, 2, 3).collect(Collectors.toUnmodifiableList()));
        add(cases, "Arrays.asList", () -> Arrays.asList("a", null, "c"));
        add(cases, "ArrayList", () -> new ArrayList<>(List.of(1, 2)));
        add(cases, "LinkedList", () -> new LinkedList<>(List.of(1, 2)));
        add(cases, "HashMap", () -> new HashMap<>(Map.of(1, "a")));
        add(cases, "TreeMap", () -> new TreeMap<>(Map.of(1, "a", 0, "b")));
        add(cases, "TreeSet", () -> new TreeSet<>(Set.of(3, 1)));
        add(cases, "Date", () -> new Date(-1_234_567_890_123L));
        add(cases, "Locale", () -> Locale.forLanguageTag("sr-Latn-RS"));
        add(cases, "Locale variant", () -> new Locale("de", "CH", "POSIX"));
        add(cases, "Locale.ROOT", () -> Locale.ROOT);
        add(cases, "Currency", () -> Currency.getInstance("JPY"));
        add(cases, "Pattern", () -> Pattern.compile("^a+(b|c)$", Pattern.CASE_INSENSITIVE | Pattern.MULTILINE));
        add(cases, "nested", () -> List.of(Optional.of(EnumSet.of(Month.MAY)), Map.of(UUID.fromString(
                "00000000-0000-0000-0000-000000000001"), List.of(Instant.EPOCH, Duration.ofDays(1)))));
        return cases.stream();
    }

    private static void add(List<Arguments> cases, String name, Supplier<?> value) {
        cases.add(Arguments.of(name, value));
    }

    private static URL url(String spec) {
        try {
            return new URL(spec);
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** One in-memory database per holder class for all cases; each case stores its objects under new IDs. */
    private static DuckDBPersistence<Holder, Integer> records;
    private static DuckDBPersistence<PlainHolder, Integer> plains;
    private static IndexedCollection<Holder> holders;
    private static IndexedCollection<PlainHolder> plainHolders;
    private static final AtomicInteger IDS = new AtomicInteger();

    @BeforeAll
    static void open() {
        // The values are held in fields declared Object: the test's enum and URL (whose hashCode resolves host
        // names) are not among the JDK values every collection reads, so they are allowed here.
        records = DuckDBPersistence.builder(Holder.ID).layout("blob").allowClasses(Op.class, URL.class).build();
        holders = new ConcurrentIndexedCollection<>(records);
        plains = DuckDBPersistence.builder(PlainHolder.ID).layout("blob").allowClasses(Op.class, URL.class).build();
        plainHolders = new ConcurrentIndexedCollection<>(plains);
    }

    @AfterAll
    static void close() {
        records.close();
        plains.close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("values")
    void aRecordFieldRoundTrips(String name, Supplier<?> value) {
        int id = IDS.incrementAndGet();
        holders.add(new Holder(id, value.get()));
        holders.add(new Holder(-id, null));
        assertExactly(value.get(), read(holders, Holder.ID, id).value(), name);
        assertNull(read(holders, Holder.ID, -id).value());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("values")
    void aPlainClassFieldRoundTrips(String name, Supplier<?> value) {
        int id = IDS.incrementAndGet();
        Object original = value.get();
        // the same value twice in one object, then alone: Kryo's back-references must resolve to the value itself
        plainHolders.add(new PlainHolder(id, List.of(original, original)));
        plainHolders.add(new PlainHolder(-id, original));
        List<?> pair = (List<?>) read(plainHolders, PlainHolder.ID, id).value;
        assertSame(pair.get(0), pair.get(1), name + ": one object referenced twice stays one object");
        assertExactly(value.get(), pair.get(0), name);
        assertExactly(value.get(), read(plainHolders, PlainHolder.ID, -id).value, name);
    }

    /** The fields below are declared with their own types, so Kryo writes no class for the final ones. */
    public record Typed(int id, UUID uuid, Instant instant, LocalDate date, LocalTime time, LocalDateTime dateTime,
                        OffsetDateTime offsetDateTime, ZonedDateTime zonedDateTime, ZoneId zone, ZoneOffset offset,
                        Duration duration, Period period, Year year, YearMonth yearMonth, MonthDay monthDay,
                        BigDecimal decimal, BigInteger integer, URI uri, Optional<UUID> optional, OptionalInt optionalInt,
                        OptionalLong optionalLong, OptionalDouble optionalDouble, EnumSet<DayOfWeek> days,
                        EnumMap<DayOfWeek, Integer> dayMap, List<String> list, Set<Integer> set, Map<String, Integer> map,
                        Date legacyDate, Locale locale, Currency currency) {
        static final SimpleAttribute<Typed, Integer> ID = new SimpleAttribute<>(Typed.class, Integer.class, "id") {
            @Override
            public Integer getValue(Typed t, QueryOptions q) {
                return t.id;
            }
        };

        static Typed sample(int id) {
            return new Typed(id, new UUID(id, -id), Instant.ofEpochSecond(id, id), LocalDate.ofEpochDay(id),
                    LocalTime.ofSecondOfDay(id), LocalDateTime.of(2000, 1, 1, 0, 0).plusSeconds(id),
                    OffsetDateTime.of(2000, 1, 1, 0, 0, 0, id, ZoneOffset.ofHours(id % 18)),
                    ZonedDateTime.of(2001, 1, 1, 0, 0, 0, id, ZoneId.of("Asia/Kolkata")), ZoneId.of("Europe/Berlin"),
                    ZoneOffset.ofTotalSeconds(id), Duration.ofMillis(id), Period.ofDays(id), Year.of(id),
                    YearMonth.of(2000, 1 + id % 12), MonthDay.of(1, 1 + id % 28), BigDecimal.valueOf(id, 3),
                    BigInteger.valueOf(id).shiftLeft(100), URI.create("urn:id:" + id), Optional.of(new UUID(0, id)),
                    OptionalInt.of(id), OptionalLong.empty(), OptionalDouble.of(id / 3.0),
                    EnumSet.of(DayOfWeek.of(1 + id % 7)), new EnumMap<>(Map.of(DayOfWeek.TUESDAY, id)),
                    List.of("l" + id), Collections.unmodifiableSet(new LinkedHashSet<>(List.of(id, -id))),
                    Map.of("m", id), new Date(id * 1000L), Locale.CANADA_FRENCH, Currency.getInstance("CHF"));
        }

        static Typed empty(int id) {
            return new Typed(id, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                    null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
        }
    }

    /** The same fields in a plain class with no no-argument constructor. */
    public static final class PlainTyped {
        static final SimpleAttribute<PlainTyped, Integer> ID = new SimpleAttribute<>(PlainTyped.class, Integer.class, "id") {
            @Override
            public Integer getValue(PlainTyped t, QueryOptions q) {
                return t.id;
            }
        };
        private final int id;
        private final UUID uuid;
        private final Instant instant;
        private final ZonedDateTime zonedDateTime;
        private final ZoneId zone;
        private final BigDecimal decimal;
        private final BigInteger integer;
        private final URI uri;
        private final Optional<Instant> optional;
        private final EnumSet<Month> months;
        private final EnumMap<Month, UUID> monthMap;
        private final List<UUID> uuids;
        private final Locale locale;

        PlainTyped(Typed t) {
            this.id = t.id();
            this.uuid = t.uuid();
            this.instant = t.instant();
            this.zonedDateTime = t.zonedDateTime();
            this.zone = t.zone();
            this.decimal = t.decimal();
            this.integer = t.integer();
            this.uri = t.uri();
            this.optional = t.instant() == null ? null : Optional.of(t.instant());
            this.months = t.uuid() == null ? null : EnumSet.range(Month.MARCH, Month.of(3 + t.id() % 10));
            this.monthMap = t.uuid() == null ? null : new EnumMap<>(Map.of(Month.JUNE, t.uuid()));
            this.uuids = t.uuid() == null ? null : Stream.of(t.uuid(), t.uuid()).toList();
            this.locale = t.locale();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof PlainTyped p && p.id == id && Objects.equals(p.uuid, uuid)
                    && Objects.equals(p.instant, instant) && Objects.equals(p.zonedDateTime, zonedDateTime)
                    && Objects.equals(p.zone, zone) && Objects.equals(p.decimal, decimal)
                    && Objects.equals(p.integer, integer) && Objects.equals(p.uri, uri)
                    && Objects.equals(p.optional, optional) && Objects.equals(p.months, months)
                    && Objects.equals(p.monthMap, monthMap) && Objects.equals(p.uuids, uuids)
                    && Objects.equals(p.locale, locale);
        }

        @Override
        public int hashCode() {
            return id;
        }

        @Override
        public String toString() {
            return "PlainTyped[" + id + ", " + uuid + ", " + instant + ", " + uuids + "]";
        }
    }

    @Test
    void typedRecordFieldsRoundTripThroughAFileAndAReopen(@TempDir Path dir) {
        Path file = dir.resolve("typed.duckdb");
        List<Typed> stored = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            stored.add(i % 10 == 0 ? Typed.empty(i) : Typed.sample(i));
        }
        try (DuckDBPersistence<Typed, Integer> p = DuckDBPersistence.builder(Typed.ID).file(file).layout("blob").build()) {
            new ConcurrentIndexedCollection<>(p).addAll(stored);
        }
        try (DuckDBPersistence<Typed, Integer> p = DuckDBPersistence.builder(Typed.ID).file(file).layout("blob").build()) {
            IndexedCollection<Typed> typed = new ConcurrentIndexedCollection<>(p);
            assertEquals(new HashSet<>(stored), new HashSet<>(typed));
            for (Typed t : stored) {
                Typed back = read(typed, Typed.ID, t.id());
                assertEquals(t, back);
                if (t.list() != null) {
                    assertSame(t.list().getClass(), back.list().getClass());
                    assertSame(t.set().getClass(), back.set().getClass());
                    assertSame(t.map().getClass(), back.map().getClass());
                }
            }
        }
    }

    @Test
    void typedPlainClassFieldsRoundTripThroughAFileAndAReopen(@TempDir Path dir) {
        Path file = dir.resolve("plain.duckdb");
        List<PlainTyped> stored = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            stored.add(new PlainTyped(i % 10 == 0 ? Typed.empty(i) : Typed.sample(i)));
        }
        try (DuckDBPersistence<PlainTyped, Integer> p = DuckDBPersistence.builder(PlainTyped.ID).file(file).layout("blob").build()) {
            new ConcurrentIndexedCollection<>(p).addAll(stored);
        }
        try (DuckDBPersistence<PlainTyped, Integer> p = DuckDBPersistence.builder(PlainTyped.ID).file(file).layout("blob").build()) {
            IndexedCollection<PlainTyped> plain = new ConcurrentIndexedCollection<>(p);
            assertEquals(new HashSet<>(stored), new HashSet<>(plain));
            assertEquals(stored.get(1).uuids, read(plain, PlainTyped.ID, 1).uuids);
        }
    }

    private static <O> O read(IndexedCollection<O> collection, SimpleAttribute<O, Integer> id, int value) {
        try (ResultSet<O> rs = collection.retrieve(equal(id, value))) {
            return rs.uniqueResult();
        }
    }

    /** Equal, of the same class, and for collections and maps just as modifiable and null-tolerant. */
    static void assertExactly(Object expected, Object actual, String name) {
        assertSame(expected.getClass(), actual.getClass(), name + ": class");
        if (expected instanceof Pattern p) {
            Pattern q = (Pattern) actual;
            assertEquals(p.pattern() + "/" + p.flags(), q.pattern() + "/" + q.flags(), name);
            return;
        }
        if (expected instanceof URL u) {
            // URL.equals resolves host names; compare the text instead
            assertEquals(u.toExternalForm(), ((URL) actual).toExternalForm(), name);
            return;
        }
        if (expected.getClass() == Collections.unmodifiableCollection(List.of()).getClass()) {
            // this view keeps Object's identity equality; compare what it holds
            assertEquals(new ArrayList<>((Collection<?>) expected), new ArrayList<>((Collection<?>) actual), name);
        } else {
            assertEquals(expected, actual, name);
            assertEquals(expected.hashCode(), actual.hashCode(), name + ": hashCode");
        }
        assertEquals(expected.toString(), actual.toString(), name + ": toString (same order)");
        if (expected instanceof Collection<?> || expected instanceof Map<?, ?>) {
            assertEquals(Mutations.of(expected), Mutations.of(actual), name + ": behaviour under modification");
        }
        if (expected instanceof java.util.SortedSet<?> s) {
            assertEquals(s.comparator() == null, ((java.util.SortedSet<?>) actual).comparator() == null, name);
        }
        if (expected instanceof java.util.SortedMap<?, ?> s) {
            assertEquals(s.comparator() == null, ((java.util.SortedMap<?, ?>) actual).comparator() == null, name);
        }
    }
}
