package io.quackjvm.it.keys;

import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * One primary-key type under test: adversarial values of it (extremes, values Java tells apart that a careless
 * encoding would merge, values whose Java order differs from a naive DuckDB order), and the key attribute.
 *
 * <p>{@code LocalDate} and {@code LocalDateTime} are {@code Comparable} to their chronology interfaces, not to
 * themselves, so CQEngine's signatures ({@code A extends Comparable<A>}) take them only through raw types, as a
 * user's code would; the test does the same.
 *
 * <p>Objects hold their key in a form the blob layout's serialiser writes on any JVM ({@link Item#stored}): the key
 * itself, except a UUID, which is held as its two halves.
 */
final class KeySpec<K extends Comparable<? super K>> {

    /** The stored object: its key (in serialisable form) and a payload that an update changes. */
    record Item(Object stored, int payload) {
    }

    /** A UUID as its halves. */
    record Halves(long msb, long lsb) {
    }

    enum Colour { RED, GREEN, BLUE, CYAN, MAGENTA, YELLOW, BLACK }

    final String name;
    final Class<K> type;
    final List<K> pool;
    final boolean string;
    final SimpleAttribute<Item, K> key;
    private final Function<K, Object> toStored;

    private KeySpec(String name, Class<K> type, Set<K> pool, Function<K, Object> toStored,
                    Function<Object, K> fromStored) {
        this.name = name;
        this.type = type;
        this.pool = List.copyOf(pool);
        this.string = type == String.class;
        this.toStored = toStored;
        this.key = new SimpleAttribute<>(Item.class, type, "key") {
            @Override
            public K getValue(Item item, QueryOptions queryOptions) {
                return fromStored.apply(item.stored());
            }
        };
    }

    private static <K extends Comparable<? super K>> KeySpec<K> direct(String name, Class<K> type, Set<K> pool) {
        return new KeySpec<>(name, type, pool, k -> k, type::cast);
    }

    Item item(K k, int payload) {
        return new Item(toStored.apply(k), payload);
    }

    K keyOf(Item item) {
        return key.getValue(item, null);
    }

    @Override
    public String toString() {
        return name;
    }

    // ------------------------------------------------------------------ the types

    /** Pieces of strings: NUL, unpaired high and low surrogates, an emoji, private use, U+FFFF, U+FFFD, ... */
    static final String[] PIECES = {"", "a", "b", "\0", "\uD800", "\uDBFF", "\uDC00", "\uDFFF", "\uD83D\uDE00",
            "\uD83D", "\uDE00", "\uE000", "\uF8FF", "\uFFFF", "\uFFFD", "\u00E9", "\uD7FF", "z", "?"};

    static List<KeySpec<?>> all() {
        Random r = new Random(20240612);
        List<KeySpec<?>> all = new ArrayList<>();

        Set<String> strings = new LinkedHashSet<>(List.of(PIECES));
        while (strings.size() < 70) {
            StringBuilder sb = new StringBuilder();
            for (int n = r.nextInt(4); n >= 0; n--) {
                sb.append(PIECES[r.nextInt(PIECES.length)]);
            }
            strings.add(sb.toString());
        }
        all.add(direct("String", String.class, strings));

        Set<Character> chars = new LinkedHashSet<>();
        for (String p : PIECES) {
            for (char c : p.toCharArray()) {
                chars.add(c);
            }
        }
        chars.addAll(List.of(Character.MIN_VALUE, Character.MAX_VALUE, '\uFFFE', '\uDB80', '\uDCFF'));
        while (chars.size() < 40) {
            chars.add((char) r.nextInt(0x10000));
        }
        all.add(direct("Character", Character.class, chars));

        Set<UUID> uuids = new LinkedHashSet<>(List.of(new UUID(0, 0), new UUID(-1, -1), new UUID(Long.MIN_VALUE, 0),
                new UUID(Long.MAX_VALUE, Long.MAX_VALUE), new UUID(0, Long.MIN_VALUE), new UUID(0, -1),
                new UUID(0, 1), new UUID(-1, 0), new UUID(1, Long.MIN_VALUE), new UUID(Long.MIN_VALUE, Long.MAX_VALUE)));
        while (uuids.size() < 50) {
            uuids.add(r.nextBoolean() ? new UUID(r.nextLong(), r.nextLong()) : new UUID(r.nextInt(3) - 1, r.nextLong()));
        }
        all.add(new KeySpec<>("UUID", UUID.class, uuids,
                u -> new Halves(u.getMostSignificantBits(), u.getLeastSignificantBits()),
                s -> new UUID(((Halves) s).msb(), ((Halves) s).lsb())));

        Set<Long> longs = new LinkedHashSet<>(List.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 1L,
                Long.MIN_VALUE + 1, Long.MAX_VALUE - 1));
        Set<Integer> ints = new LinkedHashSet<>(List.of(Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 1));
        Set<Short> shorts = new LinkedHashSet<>(List.of(Short.MIN_VALUE, Short.MAX_VALUE, (short) 0, (short) -1));
        Set<Byte> bytes = new LinkedHashSet<>(List.of(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0, (byte) -1));
        while (longs.size() < 50) {
            longs.add(r.nextBoolean() ? r.nextLong() : r.nextInt(41) - 20L);
            ints.add(r.nextBoolean() ? r.nextInt() : r.nextInt(41) - 20);
            shorts.add((short) r.nextInt());
            bytes.add((byte) r.nextInt());
        }
        all.add(direct("Long", Long.class, longs));
        all.add(direct("Integer", Integer.class, ints));
        all.add(direct("Short", Short.class, shorts));
        all.add(direct("Byte", Byte.class, bytes));

        Set<Double> doubles = new LinkedHashSet<>(List.of(-0.0, 0.0, Double.NaN, Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE,
                Double.MIN_NORMAL, 1.0, -1.0, 0.1, 0.30000000000000004, 0.3));
        Set<Float> floats = new LinkedHashSet<>(List.of(-0.0f, 0.0f, Float.NaN, Float.POSITIVE_INFINITY,
                Float.NEGATIVE_INFINITY, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE, 1.0f,
                -1.0f, 0.1f));
        while (doubles.size() < 50) {
            doubles.add(r.nextBoolean() ? Double.longBitsToDouble(r.nextLong()) : (r.nextInt(21) - 10) / 4.0);
            floats.add(r.nextBoolean() ? Float.intBitsToFloat(r.nextInt()) : (r.nextInt(21) - 10) / 4.0f);
        }
        all.add(direct("Double", Double.class, doubles));
        all.add(direct("Float", Float.class, floats));

        all.add(direct("enum", Colour.class, new LinkedHashSet<>(List.of(Colour.values()))));
        all.add(direct("Boolean", Boolean.class, new LinkedHashSet<>(List.of(true, false))));

        Set<Date> dates = new LinkedHashSet<>(List.of(new Date(Long.MIN_VALUE), new Date(Long.MAX_VALUE),
                new Date(0), new Date(-1), new Date(1)));
        Set<LocalDate> localDates = new LinkedHashSet<>(List.of(LocalDate.MIN, LocalDate.MAX, LocalDate.EPOCH,
                LocalDate.EPOCH.minusDays(1), LocalDate.of(2024, 2, 29)));
        Set<LocalDateTime> dateTimes = new LinkedHashSet<>(List.of(LocalDateTime.MIN, LocalDateTime.MAX,
                LocalDateTime.of(1970, 1, 1, 0, 0), LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999),
                LocalDateTime.of(1970, 1, 1, 0, 0, 0, 1)));
        Set<LocalTime> times = new LinkedHashSet<>(List.of(LocalTime.MIN, LocalTime.MAX, LocalTime.NOON,
                LocalTime.of(0, 0, 0, 1)));
        Set<Instant> instants = new LinkedHashSet<>(List.of(Instant.MIN, Instant.MAX, Instant.EPOCH,
                Instant.EPOCH.minusNanos(1), Instant.EPOCH.plusNanos(1), Instant.ofEpochSecond(-1, 999_999_999)));
        while (dates.size() < 40) {
            dates.add(new Date(r.nextBoolean() ? r.nextLong() : r.nextInt(2001) - 1000));
            localDates.add(LocalDate.ofEpochDay(r.nextBoolean() ? r.nextInt(4_000_000) - 2_000_000 : r.nextInt(21) - 10));
            long second = r.nextBoolean() ? r.nextLong() % 31_000_000_000_000_000L : r.nextInt(5) - 2;
            int nano = r.nextBoolean() ? r.nextInt(1_000_000_000) : r.nextInt(3);
            dateTimes.add(LocalDateTime.ofEpochSecond(second, nano, ZoneOffset.UTC));
            times.add(LocalTime.ofNanoOfDay(Math.floorMod(r.nextLong(), LocalTime.MAX.toNanoOfDay() + 1)));
            instants.add(Instant.ofEpochSecond(second, nano));
        }
        all.add(direct("Date", Date.class, dates));
        all.add(direct("LocalDate", LocalDate.class, localDates));
        all.add(direct("LocalDateTime", LocalDateTime.class, dateTimes));
        all.add(direct("LocalTime", LocalTime.class, times));
        all.add(direct("Instant", Instant.class, instants));

        Set<BigDecimal> decimals = new LinkedHashSet<>();
        for (String s : new String[]{"2", "2.0", "2.00", "20E-1", "0", "0.0", "0.00", "0E+3", "-0.0", "1E+400",
                "1E-400", "-1E+400", "-1E-400", "-2.0", "-2.00", "-2", "0.1", "0.10", "-0.1",
                "123456789012345678901234567890.123456789", "-123456789012345678901234567890.1234567890",
                "99999999999999999999999999999999999999999", "1E+10", "10000000000", "1E+2147483647",
                "1E-2147483647"}) {
            decimals.add(new BigDecimal(s));
        }
        Set<BigInteger> integers = new LinkedHashSet<>(List.of(BigInteger.ZERO, BigInteger.ONE,
                BigInteger.ONE.negate(), BigInteger.TWO.pow(200), BigInteger.TWO.pow(200).negate(),
                BigInteger.valueOf(Long.MIN_VALUE), BigInteger.valueOf(Long.MAX_VALUE), BigInteger.TEN.pow(40)));
        while (decimals.size() < 60) {
            decimals.add(BigDecimal.valueOf(r.nextInt(41) - 20, r.nextInt(7) - 3));
            integers.add(r.nextBoolean() ? new BigInteger(r.nextInt(150) + 1, r.nextBoolean() ? r : new Random(r.nextLong()))
                    .multiply(BigInteger.valueOf(r.nextBoolean() ? 1 : -1)) : BigInteger.valueOf(r.nextInt(21) - 10));
        }
        all.add(direct("BigDecimal", BigDecimal.class, decimals));
        all.add(direct("BigInteger", BigInteger.class, integers));
        return all;
    }
}
