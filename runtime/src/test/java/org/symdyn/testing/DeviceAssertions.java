package org.symdyn.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.symdyn.contract.DeviceSpec;

/**
 * Compares declared devices field by field: the records hold arrays, whose {@code equals} is identity. Numbers
 * must agree bit for bit ({@link Double#equals} and {@link Arrays#equals(double[], double[])} compare the bits,
 * so 0.0 and -0.0 differ).
 */
public final class DeviceAssertions {
    private DeviceAssertions() {
    }

    public static void assertSameDevices(List<? extends DeviceSpec> expected, List<? extends DeviceSpec> actual) {
        assertEquals(expected.size(), actual.size(), () -> "device count: " + names(expected) + " vs "
                + names(actual));
        for (int k = 0; k < expected.size(); k++) {
            assertSameDevice(expected.get(k), actual.get(k));
        }
    }

    public static void assertSameDevice(DeviceSpec expected, DeviceSpec actual) {
        assertEquals(expected.getClass(), actual.getClass(), expected.name());
        for (RecordComponent c : expected.getClass().getRecordComponents()) {
            Object a;
            Object b;
            try {
                a = c.getAccessor().invoke(expected);
                b = c.getAccessor().invoke(actual);
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
            boolean same = a instanceof double[] x && b instanceof double[] y ? Arrays.equals(x, y)
                    : Objects.equals(a, b);
            if (!same) {
                fail(expected.getClass().getSimpleName() + " '" + expected.name() + "': " + c.getName()
                        + " expected " + text(a) + " but was " + text(b));
            }
        }
    }

    private static String text(Object o) {
        return o instanceof double[] x ? Arrays.toString(x) : String.valueOf(o);
    }

    private static List<String> names(List<? extends DeviceSpec> list) {
        return list.stream().map(DeviceSpec::name).toList();
    }
}
