package io.quackjvm.api;

/**
 * One pair of a typed join ({@link DuckDBJoin}): an object of the left collection and an object of the right one
 * whose join attributes share a value. Equal when both objects are equal.
 *
 * @param left  the object of the left collection
 * @param right the object of the right collection
 * @param <L>   the left object type
 * @param <R>   the right object type
 */
public record Joined<L, R>(L left, R right) {
}
