package com.example;

import org.junit.jupiter.api.Test;

/** Runs the examples on mvn verify: a build with an example that throws fails. */
class ExamplesTest {
    @Test
    void arm() {
        ArmExample.main(new String[0]);
    }

    @Test
    void fourBar() {
        FourBarExample.main(new String[0]);
    }

    @Test
    void generic() {
        GenericExample.main(new String[0]);
    }
}
