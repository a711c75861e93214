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
     * The same condition with its parameters written into the SQL as exact literals ({@link SqlLiterals}) and
     * marked {@linkplain SqlLiterals#MARK one-shot}, or this predicate when it has no parameters or one of them
     * has no exact literal. DuckDB plans a statement that reads tables anew on every execution, parameters or not,
     * but only with constants does it know how many rows each condition keeps, so only then does it build its hash
     * tables on the smaller sides of a chain of semi-joins (and skip row groups by their zone maps):
     * {@code benchmarks/results/query-pushdown/and3-literals.md}.
     */
    SqlPredicate inlined() {
        if (params.isEmpty()) {
            return this;
        }
        String inlined = SqlLiterals.inline(sql, params);
        return inlined == null ? this : new SqlPredicate(SqlLiterals.MARK + inlined, List.of());
    }
}
