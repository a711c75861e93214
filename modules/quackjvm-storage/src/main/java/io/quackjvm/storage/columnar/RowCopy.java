package io.quackjvm.storage.columnar;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The bytes of a columnar row copy: the values of one row in the representation the codecs exchange with DuckDB
 * ({@link Codec#toSql}), so that decoding them and applying {@link Codec#fromSql} gives what reading the typed
 * columns gives. Each value is a tag byte followed by its content; strings are stored char by char (one to three
 * bytes each), so every Java string, even one DuckDB would refuse, reads back exactly. Stateless.
 */
final class RowCopy {

    private static final int NULL = 0;
    private static final int TRUE = 1;
    private static final int FALSE = 2;
    private static final int BYTE = 3;
    private static final int SHORT = 4;
    private static final int INT = 5;
    private static final int LONG = 6;
    private static final int FLOAT = 7;
    private static final int DOUBLE = 8;
    private static final int STRING = 9;
    private static final int BYTES = 10;
    private static final int UUID_ = 11;
    private static final int BIG_DECIMAL = 12;
    private static final int BIG_INTEGER = 13;
    private static final int DATE = 14;
    private static final int TIME = 15;
    private static final int TIMESTAMP = 16;
    private static final int TIMESTAMP_TZ = 17;
    private static final int LIST = 18;
    private static final int STRUCT = 19;

    private RowCopy() {
    }

    /** Encodes one row's values (each {@code null} or in the codecs' SQL representation). */
    static byte[] encode(Object[] values) {
        Out out = new Out();
        out.varint(values.length);
        for (Object v : values) {
            out.value(v);
        }
        return out.toByteArray();
    }

    /** Decodes what {@link #encode} wrote; fails if it does not hold {@code count} values. */
    static Object[] decode(byte[] bytes, int count) {
        In in = new In(bytes);
        int n = in.varintInt();
        if (n != count) {
            throw new IllegalStateException("The row copy holds " + n + " values but the layout has " + count
                    + " fields; was the table changed outside the collection?");
        }
        Object[] values = new Object[n];
        for (int i = 0; i < n; i++) {
            values[i] = in.value();
        }
        return values;
    }

    private static final class Out extends ByteArrayOutputStream {
        Out() {
            super(96);
        }

        void varint(long v) {
            while ((v & ~0x7FL) != 0) {
                write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            write((int) v);
        }

        void zigzag(long v) {
            varint((v << 1) ^ (v >> 63));
        }

        void fixed(long v, int bytes) {
            for (int i = 0; i < bytes; i++) {
                write((int) (v >>> (8 * i)));
            }
        }

        void string(String s) {
            varint(s.length());
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c != 0 && c < 0x80) {
                    write(c);
                } else if (c < 0x800) {
                    write(0xC0 | (c >> 6));
                    write(0x80 | (c & 0x3F));
                } else {
                    write(0xE0 | (c >> 12));
                    write(0x80 | ((c >> 6) & 0x3F));
                    write(0x80 | (c & 0x3F));
                }
            }
        }

        void bytes(byte[] b) {
            varint(b.length);
            write(b, 0, b.length);
        }

        void value(Object v) {
            if (v == null) {
                write(NULL);
            } else if (v instanceof Boolean b) {
                write(b ? TRUE : FALSE);
            } else if (v instanceof Integer i) {
                write(INT);
                zigzag(i);
            } else if (v instanceof Long l) {
                write(LONG);
                zigzag(l);
            } else if (v instanceof Double d) {
                write(DOUBLE);
                fixed(Double.doubleToRawLongBits(d), 8);
            } else if (v instanceof String s) {
                write(STRING);
                string(s);
            } else if (v instanceof List<?> list) {
                write(LIST);
                varint(list.size());
                for (Object e : list) {
                    value(e);
                }
            } else if (v instanceof Map<?, ?> map) {
                write(STRUCT);
                varint(map.size());
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    string((String) e.getKey());
                    value(e.getValue());
                }
            } else if (v instanceof Byte b) {
                write(BYTE);
                write(b);
            } else if (v instanceof Short s) {
                write(SHORT);
                zigzag(s);
            } else if (v instanceof Float f) {
                write(FLOAT);
                fixed(Float.floatToRawIntBits(f), 4);
            } else if (v instanceof byte[] b) {
                write(BYTES);
                bytes(b);
            } else if (v instanceof UUID u) {
                write(UUID_);
                fixed(u.getMostSignificantBits(), 8);
                fixed(u.getLeastSignificantBits(), 8);
            } else if (v instanceof BigDecimal d) {
                write(BIG_DECIMAL);
                zigzag(d.scale());
                bytes(d.unscaledValue().toByteArray());
            } else if (v instanceof BigInteger i) {
                write(BIG_INTEGER);
                bytes(i.toByteArray());
            } else if (v instanceof LocalDate d) {
                write(DATE);
                zigzag(d.toEpochDay());
            } else if (v instanceof LocalTime t) {
                write(TIME);
                varint(t.toNanoOfDay());
            } else if (v instanceof LocalDateTime t) {
                write(TIMESTAMP);
                zigzag(t.toLocalDate().toEpochDay());
                varint(t.toLocalTime().toNanoOfDay());
            } else if (v instanceof OffsetDateTime t) {
                // only the instant is meaningful, as for the typed column
                write(TIMESTAMP_TZ);
                zigzag(t.toEpochSecond());
                varint(t.getNano());
            } else {
                throw new IllegalArgumentException("The row copy cannot hold a " + v.getClass().getName());
            }
        }
    }

    private static final class In {
        private final byte[] b;
        private int p;

        In(byte[] b) {
            this.b = b;
        }

        long varint() {
            long v = 0;
            int shift = 0;
            while (true) {
                int x = b[p++];
                v |= (long) (x & 0x7F) << shift;
                if ((x & 0x80) == 0) {
                    return v;
                }
                shift += 7;
            }
        }

        int varintInt() {
            return (int) varint();
        }

        long zigzag() {
            long v = varint();
            return (v >>> 1) ^ -(v & 1);
        }

        long fixed(int bytes) {
            long v = 0;
            for (int i = 0; i < bytes; i++) {
                v |= (long) (b[p++] & 0xFF) << (8 * i);
            }
            return v;
        }

        String string() {
            int n = varintInt();
            char[] out = new char[n];
            for (int i = 0; i < n; i++) {
                int x = b[p++] & 0xFF;
                if (x < 0x80) {
                    out[i] = (char) x;
                } else if (x < 0xE0) {
                    out[i] = (char) (((x & 0x1F) << 6) | (b[p++] & 0x3F));
                } else {
                    int y = b[p++] & 0x3F;
                    out[i] = (char) (((x & 0x0F) << 12) | (y << 6) | (b[p++] & 0x3F));
                }
            }
            return new String(out);
        }

        byte[] bytes() {
            int n = varintInt();
            byte[] out = new byte[n];
            System.arraycopy(b, p, out, 0, n);
            p += n;
            return out;
        }

        Object value() {
            int tag = b[p++];
            switch (tag) {
                case NULL: return null;
                case TRUE: return Boolean.TRUE;
                case FALSE: return Boolean.FALSE;
                case BYTE: return b[p++];
                case SHORT: return (short) zigzag();
                case INT: return (int) zigzag();
                case LONG: return zigzag();
                case FLOAT: return Float.intBitsToFloat((int) fixed(4));
                case DOUBLE: return Double.longBitsToDouble(fixed(8));
                case STRING: return string();
                case BYTES: return bytes();
                case UUID_: return new UUID(fixed(8), fixed(8));
                case BIG_DECIMAL: {
                    int scale = (int) zigzag();
                    return new BigDecimal(new BigInteger(bytes()), scale);
                }
                case BIG_INTEGER: return new BigInteger(bytes());
                case DATE: return LocalDate.ofEpochDay(zigzag());
                case TIME: return LocalTime.ofNanoOfDay(varint());
                case TIMESTAMP: {
                    LocalDate d = LocalDate.ofEpochDay(zigzag());
                    return LocalDateTime.of(d, LocalTime.ofNanoOfDay(varint()));
                }
                case TIMESTAMP_TZ: {
                    long seconds = zigzag();
                    return OffsetDateTime.ofInstant(java.time.Instant.ofEpochSecond(seconds, varint()), ZoneOffset.UTC);
                }
                case LIST: {
                    int n = varintInt();
                    List<Object> out = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        out.add(value());
                    }
                    return out;
                }
                case STRUCT: {
                    int n = varintInt();
                    Map<String, Object> out = new LinkedHashMap<>();
                    for (int i = 0; i < n; i++) {
                        String k = string();
                        out.put(k, value());
                    }
                    return out;
                }
                default:
                    throw new IllegalStateException("Not a row copy: tag " + tag + " at byte " + (p - 1));
            }
        }
    }
}
