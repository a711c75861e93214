package io.quackjvm.it.columnar;

import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/** A record with a field of every type the columnar layout stores. */
public record Everything(
        int id,
        String text, char ch, Character boxedCh,
        boolean flag, Boolean boxedFlag,
        byte b, Byte boxedB, short s, Short boxedS, int i, Integer boxedI, long l, Long boxedL,
        float f, Float boxedF, double d, Double boxedD,
        BigInteger bigInteger, BigDecimal bigDecimal, UUID uuid, byte[] bytes, Kind kind,
        Date date, java.sql.Date sqlDate, java.sql.Time sqlTime, java.sql.Timestamp sqlTimestamp,
        LocalDate localDate, LocalTime localTime, LocalDateTime localDateTime, Instant instant, OffsetDateTime offsetDateTime,
        List<String> strings, Set<Integer> ints, List<Double> doubles, List<Kind> kinds, List<LocalDateTime> times,
        List<LocalDate> dates, List<BigDecimal> decimals, Address address, List<Address> addresses) {

    public enum Kind { ZEBRA, APPLE, MANGO }

    /** A nested record: a DuckDB STRUCT. */
    public record Address(String street, int number, List<String> lines, Kind kind, LocalDateTime since) {
    }

    public static final SimpleAttribute<Everything, Integer> ID = new SimpleAttribute<>(Everything.class, Integer.class, "id") {
        @Override
        public Integer getValue(Everything e, QueryOptions queryOptions) {
            return e.id();
        }
    };

    // byte[] compares by reference in a record's generated equals
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Everything e)) {
            return false;
        }
        return id == e.id && Objects.equals(text, e.text) && ch == e.ch && Objects.equals(boxedCh, e.boxedCh)
                && flag == e.flag && Objects.equals(boxedFlag, e.boxedFlag) && b == e.b && Objects.equals(boxedB, e.boxedB)
                && s == e.s && Objects.equals(boxedS, e.boxedS) && i == e.i && Objects.equals(boxedI, e.boxedI)
                && l == e.l && Objects.equals(boxedL, e.boxedL) && Float.compare(f, e.f) == 0 && Objects.equals(boxedF, e.boxedF)
                && Double.compare(d, e.d) == 0 && Objects.equals(boxedD, e.boxedD)
                && Objects.equals(bigInteger, e.bigInteger) && Objects.equals(bigDecimal, e.bigDecimal)
                && Objects.equals(uuid, e.uuid) && Arrays.equals(bytes, e.bytes) && kind == e.kind
                && Objects.equals(date, e.date) && Objects.equals(sqlDate, e.sqlDate) && Objects.equals(sqlTime, e.sqlTime)
                && Objects.equals(sqlTimestamp, e.sqlTimestamp) && Objects.equals(localDate, e.localDate)
                && Objects.equals(localTime, e.localTime) && Objects.equals(localDateTime, e.localDateTime)
                && Objects.equals(instant, e.instant) && Objects.equals(offsetDateTime, e.offsetDateTime)
                && Objects.equals(strings, e.strings) && Objects.equals(ints, e.ints) && Objects.equals(doubles, e.doubles)
                && Objects.equals(kinds, e.kinds) && Objects.equals(times, e.times) && Objects.equals(dates, e.dates)
                && Objects.equals(decimals, e.decimals) && Objects.equals(address, e.address)
                && Objects.equals(addresses, e.addresses);
    }

    @Override
    public int hashCode() {
        return id;
    }
}
