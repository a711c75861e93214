package io.quackjvm.api.internal;

import java.util.List;

/**
 * A CQEngine simple query translated into a SQL condition on one column, with its parameters (see
 * {@link IndexPredicates}, which translates queries on attribute indexes and on the primary key alike).
 *
 * @param sql    the condition, for example {@code "_key = ?"}; {@code "TRUE"} for {@code has}
 * @param params the values of its {@code ?} placeholders, in order, in their stored form
 */
record SqlPredicate(String sql, List<Object> params) {

    /**
     * The same condition with its parameters written into the SQL as exact literals ({@link SqlLiterals}), or
     * this predicate when one of them has no exact literal. DuckDB 1.5 skips the row groups of a table sorted by
     * the column (zone maps) only for a constant bound, so a range on a sorted covering index table written this
     * way costs what its matches cost; the statement is planned anew each time (measured in
     * {@code benchmarks/results/narrow-scaling/literal-bounds.md}).
     */
    SqlPredicate inlined() {
        if (params.isEmpty()) {
            return this;
        }
        String sql = SqlLiterals.inline(this.sql, params);
        return sql == null ? this : new SqlPredicate(sql, List.of());
    }
}
