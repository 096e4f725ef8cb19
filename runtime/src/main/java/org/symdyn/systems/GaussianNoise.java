package org.symdyn.systems;

/**
 * Standard normal numbers from a seed, without allocation and the same on every JVM: SplitMix64 (Steele, Lea and
 * Flood 2014) for uniform 53-bit doubles, and the Box-Muller transform, whose second number is kept for the next
 * call. {@code java.util.Random} would do too, but its {@code nextGaussian} is synchronized and the Java 17
 * generators' algorithms are not promised to stay; a sensor's noise should replay bit for bit from its seed.
 */
final class GaussianNoise {
    private long seed;
    private long state;
    private double spare;
    private boolean hasSpare;

    GaussianNoise(long seed) {
        this.seed = seed;
        reset();
    }

    /** Restarts the sequence from the seed. */
    void reset() {
        state = seed;
        hasSpare = false;
    }

    /** Restarts the sequence from a new seed. */
    void reseed(long newSeed) {
        seed = newSeed;
        reset();
    }

    long seed() {
        return seed;
    }

    /** A standard normal number. */
    double next() {
        if (hasSpare) {
            hasSpare = false;
            return spare;
        }
        // u1 in (0, 1] so that log(u1) is finite
        double u1 = 1.0 - uniform();
        double u2 = uniform();
        // StrictMath: fdlibm's bits on every JVM and processor (Math's log, sin and cos may differ in the last bit
        // between x86-64 and AArch64 intrinsics), so that noise replays bit for bit across machines
        double r = Math.sqrt(-2 * StrictMath.log(u1));
        double a = 2 * Math.PI * u2;
        spare = r * StrictMath.sin(a);
        hasSpare = true;
        return r * StrictMath.cos(a);
    }

    /** A uniform number in [0, 1). */
    private double uniform() {
        long z = (state += 0x9E3779B97F4A7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z = z ^ (z >>> 31);
        return (z >>> 11) * 0x1.0p-53;
    }
}
