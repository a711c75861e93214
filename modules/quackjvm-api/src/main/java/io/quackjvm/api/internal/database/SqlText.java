package io.quackjvm.api.internal.database;

/**
 * SQL as the library reports it (slow-statement log, JFR, timeouts): every literal value replaced by {@code ?}, so
 * that no stored value (a key inlined in an {@code IN} list, a string of a user's SQL) reaches a log, and cut to a
 * length a log line can carry. Stateless.
 */
final class SqlText {

    /** The longest text reported; the rest is cut and counted. */
    static final int MAX = 2_000;

    private SqlText() {
    }

    /**
     * {@code sql} with each string literal ({@code '...'}, quotes doubled inside) and each number that is not part
     * of a name replaced by {@code ?}; quoted names ({@code "..."}) are kept.
     */
    static String elide(String sql) {
        if (sql == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(Math.min(sql.length(), MAX + 40));
        int n = sql.length();
        int i = 0;
        while (i < n && out.length() < MAX) {
            char c = sql.charAt(i);
            if (c == '\'') {
                i++;
                while (i < n) {
                    if (sql.charAt(i) == '\'') {
                        if (i + 1 < n && sql.charAt(i + 1) == '\'') {
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    i++;
                }
                i++;
                out.append('?');
            } else if (c == '"') {
                int end = sql.indexOf('"', i + 1);
                end = end < 0 ? n - 1 : end;
                out.append(sql, i, end + 1);
                i = end + 1;
            } else if (Character.isDigit(c) && (i == 0 || !isNamePart(sql.charAt(i - 1)))) {
                while (i < n && (Character.isDigit(sql.charAt(i)) || sql.charAt(i) == '.'
                        || sql.charAt(i) == 'e' || sql.charAt(i) == 'E')) {
                    i++;
                }
                out.append('?');
            } else {
                out.append(c);
                i++;
            }
        }
        if (i < n) {
            out.append("... (").append(n - i).append(" more characters)");
        }
        return out.toString();
    }

    private static boolean isNamePart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }
}
