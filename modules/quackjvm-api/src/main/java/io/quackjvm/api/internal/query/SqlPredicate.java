package io.quackjvm.api.internal.query;

import java.util.List;

/**
 * A CQEngine simple query translated into a SQL condition on one column, with its parameters (see
 * {@link IndexPredicates}, which translates queries on attribute indexes and on the primary key alike).
 *
 * @param sql    the condition, for example {@code "_key = ?"}; {@code "TRUE"} for {@code has}
 * @param params the values of its {@code ?} placeholders, in order, in their stored form
 */
public record SqlPredicate(String sql, List<Object> params) {
}
