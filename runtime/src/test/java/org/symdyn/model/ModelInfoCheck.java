package org.symdyn.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.symdyn.contract.ModelInfo;

/**
 * Asserts that two {@link ModelInfo} implementations say the same about a model, method by method (for
 * {@link Model#info()}, {@code GenericDynamics} and generated classes).
 */
public final class ModelInfoCheck {
    private ModelInfoCheck() {
    }

    /** Every answer of {@code actual} equals {@code expected}'s (bit for bit for the frame offsets). */
    public static void assertSameInfo(ModelInfo expected, ModelInfo actual) {
        String who = actual.getClass().getSimpleName() + " of " + expected.modelName();
        assertEquals(expected.modelName(), actual.modelName(), who);
        assertEquals(expected.sourceSha256(), actual.sourceSha256(), who + ": source hash");
        assertEquals(expected.modelHash(), actual.modelHash(), who + ": content hash");
        assertEquals(expected.nq(), actual.nq(), who + ": nq");
        assertEquals(expected.nv(), actual.nv(), who + ": nv");
        assertEquals(expected.qNames(), actual.qNames(), who);
        assertEquals(expected.vNames(), actual.vNames(), who);
        assertEquals(expected.bodyNames(), actual.bodyNames(), who);
        assertEquals(expected.jointNames(), actual.jointNames(), who);
        assertEquals(expected.frameNames(), actual.frameNames(), who);
        assertArrayEquals(expected.dofParents(), actual.dofParents(), who + ": dof parents");
        for (int b = 0; b < expected.bodyCount(); b++) {
            String body = who + ": body " + expected.bodyNames().get(b);
            assertEquals(expected.parent(b), actual.parent(b), body + " parent");
            assertEquals(expected.isFloating(b), actual.isFloating(b), body + " floating");
            assertEquals(expected.qIndex(b), actual.qIndex(b), body + " qIndex");
            assertEquals(expected.vIndex(b), actual.vIndex(b), body + " vIndex");
            assertEquals(expected.jointNq(b), actual.jointNq(b), body + " jointNq");
            assertEquals(expected.jointNv(b), actual.jointNv(b), body + " jointNv");
            assertEquals(expected.quaternionIndex(b), actual.quaternionIndex(b), body + " quaternionIndex");
        }
        double[] r1 = new double[9];
        double[] p1 = new double[3];
        double[] r2 = new double[9];
        double[] p2 = new double[3];
        for (int f = 0; f < expected.frameNames().size(); f++) {
            String frame = who + ": frame " + expected.frameNames().get(f);
            assertEquals(expected.frameBody(f), actual.frameBody(f), frame + " body");
            expected.frameOffset(f, r1, p1);
            actual.frameOffset(f, r2, p2);
            assertArrayEquals(r1, r2, 0, frame + " rotation");
            assertArrayEquals(p1, p2, 0, frame + " position");
        }
    }
}
