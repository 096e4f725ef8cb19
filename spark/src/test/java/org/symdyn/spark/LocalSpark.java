package org.symdyn.spark;

import org.apache.spark.sql.SparkSession;

/** The tests' Spark: local mode, two executor threads, on the loopback address, no web UI. */
final class LocalSpark {
    private LocalSpark() {
    }

    /** A new session for one test class (stop it after the class). */
    static SparkSession session(Class<?> testClass) {
        return SparkSession.builder()
                .appName(testClass.getSimpleName())
                .master("local[2]")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.sql.shuffle.partitions", "2")
                .getOrCreate();
    }
}
