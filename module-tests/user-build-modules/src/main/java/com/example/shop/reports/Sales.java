package com.example.shop.reports;

/** A row of a SQL answer: units sold and revenue per category. */
public record Sales(String category, long units, double revenue) {
}
