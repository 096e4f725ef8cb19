package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.GenericModel;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.model.Model;

/**
 * Issue 10, items 14 and 15: the contract's argument policy (package documentation of org.symdyn.contract) holds
 * alike for a generated class and the generic backend. Before, a short array threw ArrayIndexOutOfBoundsException
 * from inside a generated method, a long one or a wrongly shaped matrix was accepted, and a generated
 * {@code biasForces(q, v, v)} returned a wrong C while the generic one was right. Now every case below throws the
 * same exception with the same message from both backends, before any output is written.
 */
class ArgumentPolicyTest {
    private static Model model;
    private static ModelFunctions generated;
    private static int nq;
    private static int nv;
    private static int rows;

    @BeforeAll
    static void generate() throws Exception {
        model = CodeGeneratorTest.everyJointType();
        generated = GeneratedVsGenericTest.instance(new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "ArgumentPolicy")));
        nq = model.nq();
        nv = model.nv();
        rows = generated.constraintRows();
    }

    private static double[] q() {
        double[] q = GeneratedVsGenericTest.randomConfiguration(model, new Random(3));
        return q;
    }

    private static double[] v() {
        return GeneratedVsGenericTest.random(new Random(4), nv, 1);
    }

    private static double[] n(int length) {
        return new double[length];
    }

    /** Every bad call, by a name that says what is wrong and the message both backends must give. */
    private static Map<String, Consumer<ModelFunctions>> badCalls() {
        Map<String, Consumer<ModelFunctions>> calls = new LinkedHashMap<>();
        double[] q = q();
        double[] v = v();
        DMatrixRMaj h = new DMatrixRMaj(nv, nv);
        DMatrixRMaj g = new DMatrixRMaj(rows, nv);
        // Lengths: short and long, inputs and outputs.
        calls.put("q must have " + nq + " entries, got " + (nq - 1), f -> f.massMatrix(n(nq - 1), h));
        calls.put("q must have " + nq + " entries, got " + (nq + 1), f -> f.massMatrix(n(nq + 1), h));
        calls.put("H must be " + nv + "x" + nv + ", got " + nv + "x" + (nv - 1),
                f -> f.massMatrix(q, new DMatrixRMaj(nv, nv - 1)));
        calls.put("H must be " + nv + "x" + nv + ", got " + (nv + 1) + "x" + nv,
                f -> f.massMatrix(q, new DMatrixRMaj(nv + 1, nv)));
        calls.put("v must have " + nv + " entries, got " + (nv - 1), f -> f.biasForces(q, n(nv - 1), n(nv)));
        calls.put("C must have " + nv + " entries, got " + (nv + 1), f -> f.biasForces(q, v, n(nv + 1)));
        calls.put("g must have " + nv + " entries, got " + (nv - 1), f -> f.gravityForces(q, n(nv - 1)));
        calls.put("vdot must have " + nv + " entries, got " + (nv + 2), f -> f.inverseDynamics(q, v, n(nv + 2),
                n(nv)));
        calls.put("tau must have " + nv + " entries, got 0", f -> f.inverseDynamics(q, v, n(nv), n(0)));
        calls.put("tau must have " + nv + " entries, got " + (nv - 1), f -> f.forwardDynamics(q, v, n(nv - 1),
                n(nv)));
        calls.put("vdot must have " + nv + " entries, got " + (nv + 1), f -> f.forwardDynamics(q, v, n(nv),
                n(nv + 1)));
        calls.put("phi must have " + rows + " entries, got " + (rows + 1), f -> f.positionError(q, n(rows + 1)));
        calls.put("phidot must have " + rows + " entries, got " + (rows - 1), f -> f.velocityError(q, v,
                n(rows - 1)));
        calls.put("G must be " + rows + "x" + nv + ", got " + nv + "x" + nv, f -> f.constraintJacobian(q,
                new DMatrixRMaj(nv, nv)));
        calls.put("gamma must have " + rows + " entries, got " + nv, f -> f.gamma(q, v, n(nv)));
        calls.put("fused: gamma must have " + rows + " entries, got " + (rows + 1), f -> f.constrainedSystem(q, v,
                h, n(nv), g, n(rows + 1)));
        calls.put("fused: phidot must have " + rows + " entries, got " + (rows + 1), f -> f.constrainedSystem(q, v,
                h, n(nv), g, n(rows), n(rows), n(rows + 1)));
        calls.put("fused: G must be " + rows + "x" + nv + ", got " + nv + "x" + nv, f -> f.impulseSystem(q, h, h));
        // Kinematics: every array argument, body and frame indices.
        calls.put("rotation must have 9 entries, got 3", f -> f.framePose(q, 0, n(3), n(3)));
        calls.put("position must have 3 entries, got 4", f -> f.bodyPose(q, 0, n(9), n(4)));
        calls.put("velocity must have 6 entries, got 3", f -> f.bodyVelocity(q, v, 1, n(3)));
        calls.put("acceleration must have 6 entries, got 7", f -> f.bodyAcceleration(q, v, n(nv), 1, n(7)));
        calls.put("point must have 3 entries, got 2", f -> f.pointPosition(q, 1, n(2), n(3)));
        calls.put("velocity must have 3 entries, got 6", f -> f.pointVelocity(q, v, 1, n(3), n(6)));
        calls.put("acceleration must have 3 entries, got 2", f -> f.pointAcceleration(q, v, n(nv), 1, n(3), n(2)));
        calls.put("bias must have 3 entries, got 4", f -> f.pointBiasAcceleration(q, v, 1, n(3), n(4)));
        calls.put("J must be 3x" + nv + ", got 6x" + nv, f -> f.pointJacobian(q, 1, n(3), new DMatrixRMaj(6, nv)));
        calls.put("J must be 6x" + nv + ", got 3x" + nv, f -> f.bodyJacobian(q, 1, new DMatrixRMaj(3, nv)));
        calls.put("body 6 of 6", f -> f.bodyPose(q, 6, n(9), n(3)));
        calls.put("body -1 of 6", f -> f.pointJacobian(q, -1, n(3), new DMatrixRMaj(3, nv)));
        calls.put("frame " + model.frames().size() + " of " + model.frames().size(),
                f -> f.framePose(q, model.frames().size(), n(9), n(3)));
        calls.put("frame -1 of " + model.frames().size(), f -> f.frameBody(f.frameIndex("no such frame")));
        calls.put("frame " + (model.frames().size() + 2) + " of " + model.frames().size() + " (offset)",
                f -> f.frameOffset(model.frames().size() + 2, n(9), n(3)));
        // Aliasing: an output that is an input or another output.
        double[] vv = v.clone();
        calls.put(aliased("C", "v"), f -> f.biasForces(q, vv, vv));
        calls.put(aliased("tau", "vdot"), f -> f.inverseDynamics(q, v, vv, vv));
        calls.put(aliased("vdot", "tau"), f -> f.forwardDynamics(q, v, vv, vv));
        calls.put(aliased("vdot", "v"), f -> f.forwardDynamics(q, vv, n(nv), vv));
        calls.put(aliased("C", "v") + " (fused)", f -> f.constrainedSystem(q, vv, h, vv, g, n(rows)));
        calls.put(aliased("G", "H"), f -> f.impulseSystem(q, h, DMatrixRMaj.wrap(rows, nv, h.data)));
        double[] shared = n(rows);
        calls.put(aliased("phi", "gamma"), f -> f.constrainedSystem(q, v, h, n(nv), g, shared, shared,
                n(rows)));
        calls.put(aliased("phidot", "phi"), f -> f.constrainedSystem(q, v, h, n(nv), g, n(rows), shared,
                shared));
        calls.put(aliased("phidot", "gamma"), f -> f.constrainedSystem(q, v, h, n(nv), g, shared, n(rows),
                shared));
        double[] point = {0.1, 0.2, 0.3};
        calls.put(aliased("position", "point"), f -> f.pointPosition(q, 1, point, point));
        calls.put(aliased("bias", "point"), f -> f.pointBiasAcceleration(q, v, 1, point, point));
        return calls;
    }

    private static String aliased(String output, String other) {
        return output + " must not be the same array as " + other
                + " (an output may not alias an input or another output)";
    }

    @Test
    void generatedAndGenericRefuseTheSameArgumentsWithTheSameMessage() {
        GenericModel generic = new GenericModel(model);
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, Consumer<ModelFunctions>> call : badCalls().entrySet()) {
            String expected = call.getKey().replaceFirst("^fused: ", "").replaceFirst(" \\((fused|offset)\\)$", "");
            RuntimeException fromGenerated = thrown(call.getValue(), generated);
            RuntimeException fromGeneric = thrown(call.getValue(), generic);
            for (RuntimeException e : new RuntimeException[] {fromGenerated, fromGeneric}) {
                String backend = e == fromGenerated ? "generated" : "generic";
                if (e == null) {
                    problems.add(backend + " accepted: " + call.getKey());
                } else if (!(e instanceof IllegalArgumentException || e.getClass() == IndexOutOfBoundsException.class)
                        || !expected.equals(e.getMessage())) {
                    problems.add(backend + " " + call.getKey() + ": " + e);
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    /** The same arguments without the fault work: the checks do not refuse what is right. */
    @Test
    void rightArgumentsPass() {
        double[] q = q();
        double[] v = v();
        double[] c1 = n(nv);
        double[] c2 = n(nv);
        generated.biasForces(q, v, c1);
        new GenericModel(model).biasForces(q, v, c2);
        GeneratedVsGenericTest.assertClose(c2, c1, "C");
        // Inputs may be shared (they are only read).
        generated.forwardDynamics(q, v, v, c1);
        new GenericModel(model).forwardDynamics(q, v, v, c2);
        GeneratedVsGenericTest.assertClose(c2, c1, "forward dynamics with tau = v");
    }

    /** Issue 10 item 15's reproduction: biasForces(q, v, v) is refused, and v is left as it was. */
    @Test
    void biasForcesIntoItsVelocityIsRefusedAndLeavesV() {
        double[] q = q();
        double[] v = v();
        double[] before = v.clone();
        RuntimeException e = thrown(f -> f.biasForces(q, v, v), generated);
        assertTrue(e instanceof IllegalArgumentException, String.valueOf(e));
        assertArrayEquals(before, v, 0.0);
    }

    private static RuntimeException thrown(Consumer<ModelFunctions> call, ModelFunctions f) {
        try {
            call.accept(f);
            return null;
        } catch (RuntimeException e) {
            return e;
        } catch (Error e) {
            fail(e);
            return null;
        }
    }
}
