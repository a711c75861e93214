package io.quackjvm.docs;

import org.junit.jupiter.api.BeforeEach;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the examples take for granted: cars and dealers to load, and a working directory without the files an
 * earlier example left (the examples name their files by relative paths; Surefire runs them in a directory of
 * {@code target}).
 */
abstract class Shop {

    static final int CARS = 2_000;
    static final int DEALERS = 60;
    private static final String[][] MODELS = {
            {"Ford", "Focus", "Fiesta", "Mondeo"}, {"Honda", "Civic", "Accord", "Jazz"},
            {"Toyota", "Prius", "Corolla", "Yaris"}, {"BMW", "M3", "X5", "i3"}};
    private static final String[] CITIES = {"Paris", "Lyon", "Leeds", "Porto", "Graz"};

    /** {@value #CARS} cars, the same every time: car {@code i} has a price from 5,000 to 44,950. */
    static List<Car> loadCars() {
        return cars(0, CARS);
    }

    static List<Car> cars(int from, int to) {
        List<Car> cars = new ArrayList<>();
        for (int i = from; i < to; i++) {
            String[] maker = MODELS[i % MODELS.length];
            cars.add(new Car(i, maker[0], maker[1 + (i / MODELS.length) % 3], 2 + i % 4, 5_000 + (i * 37 % 800) * 50.0,
                    i % DEALERS));
        }
        return cars;
    }

    /** {@value #DEALERS} dealers; each brand has dealers in every city, with one to five stars. */
    static List<Dealer> loadDealers() {
        List<Dealer> dealers = new ArrayList<>();
        for (int i = 0; i < DEALERS; i++) {
            String brand = MODELS[i % MODELS.length][0];
            String city = CITIES[(i / MODELS.length) % CITIES.length];
            dealers.add(new Dealer(i, brand + " " + city + " #" + i, brand, city, 1 + i % 5));
        }
        return dealers;
    }

    @BeforeEach
    void removeFilesOfEarlierExamples() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("."))) {
            for (Path f : files.filter(p -> p.getFileName().toString().contains(".duckdb")).toList()) {
                Files.delete(f);
            }
        }
    }
}
