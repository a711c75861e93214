package io.quackjvm.it.columnar;

import io.quackjvm.it.columnar.Everything.Address;
import io.quackjvm.it.columnar.Everything.Kind;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/** Random {@link Everything}s: mostly ordinary values, often an extreme, sometimes null. */
final class Generator {

    /** The far ends DuckDB holds: TIMESTAMP 290309-12-22 BC .. 294247-01-10 04:00:54.775806, DATE +-5.8M years. */
    static final LocalDateTime MIN_TIMESTAMP = LocalDateTime.of(-290308, 12, 22, 0, 0);
    static final LocalDateTime MAX_TIMESTAMP = LocalDateTime.of(294247, 1, 10, 4, 0, 54, 775_806_000);
    static final LocalDate MIN_DATE = LocalDate.ofEpochDay(-2_147_483_646L);
    static final LocalDate MAX_DATE = LocalDate.ofEpochDay(2_147_483_646L);

    private final Random r;

    Generator(long seed) {
        this.r = new Random(seed);
    }

    private <T> T pick(Supplier<T> ordinary, List<T> extremes) {
        return r.nextInt(4) == 0 ? extremes.get(r.nextInt(extremes.size())) : ordinary.get();
    }

    private <T> T nullable(Supplier<T> value) {
        return r.nextInt(6) == 0 ? null : value.get();
    }

    String string() {
        return pick(() -> {
            StringBuilder sb = new StringBuilder();
            int n = r.nextInt(12);
            for (int k = 0; k < n; k++) {
                int kind = r.nextInt(10);
                if (kind < 6) {
                    sb.append((char) ('a' + r.nextInt(26)));
                } else if (kind < 8) {
                    sb.append((char) (0x80 + r.nextInt(0xD800 - 0x80)));
                } else if (kind < 9) {
                    sb.append((char) (0xE000 + r.nextInt(0x10000 - 0xE000)));
                } else {
                    sb.appendCodePoint(0x10000 + r.nextInt(0x10FFFF - 0x10000));
                }
            }
            return sb.toString();
        }, List.of("", "\u0000", "\uD83D\uDE00", "\uFFFF", "\uD800\uDC00x", " ", "a'b\"c,[]{}"));
    }

    char ch() {
        char c;
        do {
            c = (char) r.nextInt(0x10000);
        } while (Character.isSurrogate(c));
        return r.nextInt(5) == 0 ? List.of('\u0000', '\uFFFF', 'a', '\uD7FF').get(r.nextInt(4)) : c;
    }

    double dbl() {
        return pick(() -> r.nextGaussian() * 1e6, List.of(-0.0, 0.0, Double.NaN, Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, Math.PI));
    }

    float flt() {
        return pick(() -> (float) r.nextGaussian() * 1e3f, List.of(-0.0f, 0.0f, Float.NaN, Float.POSITIVE_INFINITY,
                Float.NEGATIVE_INFINITY, Float.MIN_VALUE, Float.MAX_VALUE));
    }

    private double listDouble() {
        return dbl();
    }

    long lng() {
        return pick(r::nextLong, List.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L));
    }

    int integer() {
        return pick(r::nextInt, List.of(Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1));
    }

    BigDecimal decimal() {
        return pick(() -> new BigDecimal(new BigInteger(r.nextInt(200) + 1, r).multiply(BigInteger.valueOf(r.nextBoolean() ? 1 : -1)),
                        r.nextInt(80) - 40),
                List.of(BigDecimal.ZERO, new BigDecimal("0.00"), new BigDecimal("2.0"), new BigDecimal("2.00"),
                        new BigDecimal("-1E-300"), new BigDecimal("1E+300"),
                        new BigDecimal("3.141592653589793238462643383279502884197169399375105820974944592307816406286")));
    }

    BigInteger bigInteger() {
        return pick(() -> new BigInteger(r.nextInt(300) + 1, r).multiply(BigInteger.valueOf(r.nextBoolean() ? 1 : -1)),
                List.of(BigInteger.ZERO, BigInteger.ONE.negate(), BigInteger.TWO.pow(1000), BigInteger.TWO.pow(1000).negate()));
    }

    LocalDate localDate() {
        return pick(() -> LocalDate.ofEpochDay(r.nextInt(200_000) - 100_000),
                List.of(MIN_DATE, MAX_DATE, LocalDate.of(0, 2, 29), LocalDate.of(-1, 12, 31), LocalDate.of(1582, 10, 10),
                        LocalDate.of(1, 1, 1), LocalDate.of(9999, 12, 31), LocalDate.of(10000, 1, 1)));
    }

    LocalTime localTime() {
        return pick(() -> LocalTime.ofNanoOfDay(r.nextLong(86_400_000_000L) * 1000),
                List.of(LocalTime.MIDNIGHT, LocalTime.MAX.withNano(999_999_000), LocalTime.NOON));
    }

    LocalDateTime localDateTime() {
        return pick(() -> LocalDateTime.of(localDate().withYear(1900 + r.nextInt(300)), localTime()),
                List.of(MIN_TIMESTAMP, MAX_TIMESTAMP, LocalDateTime.of(-1000, 3, 1, 0, 0, 0, 123_000),
                        LocalDateTime.of(1582, 10, 10, 1, 0), LocalDateTime.of(2020, 3, 8, 2, 30),
                        LocalDateTime.of(0, 2, 29, 23, 59)));
    }

    Instant instant() {
        return localDateTime().toInstant(ZoneOffset.UTC);
    }

    Address address() {
        return new Address(nullable(this::string), integer(), nullable(() -> strings()), nullable(this::kind),
                nullable(this::localDateTime));
    }

    Kind kind() {
        return Kind.values()[r.nextInt(Kind.values().length)];
    }

    List<String> strings() {
        List<String> out = new ArrayList<>();
        int n = r.nextInt(4);
        for (int k = 0; k < n; k++) {
            out.add(r.nextInt(8) == 0 ? null : string());
        }
        return out;
    }

    private <T> List<T> listOf(Supplier<T> element) {
        List<T> out = new ArrayList<>();
        int n = r.nextInt(4);
        for (int k = 0; k < n; k++) {
            out.add(element.get());
        }
        return out;
    }

    Everything next(int id) {
        Set<Integer> ints = new LinkedHashSet<>(listOf(this::integer));
        // java.sql.Date/Time and java.util.Date are millisecond values; sql.Date must be a local midnight,
        // sql.Time a time on 1970-01-01 (documented; anything else is refused).
        java.sql.Date sqlDate = java.sql.Date.valueOf(LocalDate.ofEpochDay(r.nextInt(100_000)));
        java.sql.Time sqlTime = new java.sql.Time(java.sql.Time.valueOf(localTime().withNano(0)).getTime() + r.nextInt(1000));
        java.sql.Timestamp ts = java.sql.Timestamp.from(instant());
        return new Everything(id,
                nullable(this::string), ch(), nullable(this::ch),
                r.nextBoolean(), nullable(r::nextBoolean),
                (byte) integer(), nullable(() -> (byte) integer()), (short) integer(), nullable(() -> (short) integer()),
                integer(), nullable(this::integer), lng(), nullable(this::lng),
                flt(), nullable(this::flt), dbl(), nullable(this::dbl),
                nullable(this::bigInteger), nullable(this::decimal), nullable(() -> new UUID(lng(), lng())),
                nullable(() -> { byte[] b = new byte[r.nextInt(5)]; r.nextBytes(b); return b; }), nullable(this::kind),
                nullable(() -> new Date(instant().toEpochMilli())), nullable(() -> sqlDate), nullable(() -> sqlTime),
                nullable(() -> ts),
                nullable(this::localDate), nullable(this::localTime), nullable(this::localDateTime), nullable(this::instant),
                nullable(() -> instant().atOffset(ZoneOffset.UTC)),
                nullable(this::strings), nullable(() -> ints), nullable(() -> listOf(() -> r.nextInt(5) == 0 ? null : listDouble())),
                nullable(() -> listOf(this::kind)), nullable(() -> listOf(this::localDateTime)),
                nullable(() -> listOf(this::localDate)), nullable(() -> listOf(this::decimal)),
                nullable(this::address), nullable(() -> listOf(this::address)));
    }
}
