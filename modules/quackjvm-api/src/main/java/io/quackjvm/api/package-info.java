/**
 * The user API of quackjvm: CQEngine collections whose objects live in DuckDB.
 *
 * <p>Start with {@link io.quackjvm.api.DuckDBPersistence#builder}. Every failure from the database is a
 * {@link io.quackjvm.api.QuackException}.
 */
package io.quackjvm.api;
