package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.symdyn.contract.DynamicsDerivatives;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelBuilder;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * Models past the unrolled derivatives' size generate with the derivatives option, their derivatives looped over the
 * class's own numbers ({@link LoopedDerivatives}), and answer within 1e-9 of the interpreter (relative to each
 * matrix's largest entry, at least 1) at random states: a 71-dof humanoid with hands (floating base, waist, neck, two
 * 7-dof arms with a thumb of 4 and four fingers of 3 joints, two 6-dof legs with a toe) and a 120-link chain. Exhaustive only (each generation takes tens of seconds); the
 * default run checks a 60-link chain (GenerationPipelineTest). Prints the generation time and the heap used.
 */
@Tag("exhaustive")
class LoopedDerivativesTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"humanoid71", "chain120"})
    void largeModelsGenerateWithDerivativesThatAgreeWithTheInterpreter(String name) throws Exception {
        Model model = name.equals("chain120") ? chain(120) : humanoid();
        assertTrue(CodeGenerator.loopedDerivatives(model), "past the unrolled size: " + CodeGenerator.derivativesWork(model));
        Runtime rt = Runtime.getRuntime();
        System.gc();
        long before = rt.totalMemory() - rt.freeMemory();
        long t0 = System.nanoTime();
        GeneratedClass gen = new CodeGenerator().generate(model, GeneratorOptions.of("org.symdyn.generated",
                "Looped" + name).withDerivatives(true));
        double seconds = (System.nanoTime() - t0) / 1e9;
        long used = rt.totalMemory() - rt.freeMemory() - before;
        System.out.printf(java.util.Locale.ROOT, "# %s (nv %d, derivative size %,d): generated with derivatives in %.1f s,"
                + " %.0f MB more heap in use after%n", name, model.nv(), CodeGenerator.derivativesWork(model), seconds,
                used / 1e6);
        DynamicsDerivatives d = (DynamicsDerivatives) GeneratedVsGenericTest.instance(gen);
        GenericDynamics generic = new GenericDynamics(model);
        Random rnd = new Random(name.hashCode());
        int nv = model.nv();
        for (int s = 0; s < 3; s++) {
            double[] q = model.neutralConfiguration();
            double[] v = new double[nv];
            double[] a = new double[nv];
            for (int i = 0; i < nv; i++) {
                v[i] = rnd.nextDouble() * 2 - 1;
                a[i] = rnd.nextDouble() * 2 - 1;
            }
            for (int i = 0; i < q.length; i++) {
                q[i] += 0.3 * (rnd.nextDouble() * 2 - 1);
            }
            new org.symdyn.manifold.StateSpace(model).normalize(q);
            DMatrixRMaj[] mine = {new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv)};
            DMatrixRMaj[] theirs = {new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv)};
            d.inverseDynamicsDerivatives(q, v, a, mine[0], mine[1]);
            generic.inverseDynamicsDerivatives(q, v, a, theirs[0], theirs[1]);
            compare(name + " dtau", mine, theirs, 2);
            d.forwardDynamicsDerivatives(q, v, a, mine[0], mine[1], mine[2]);
            generic.forwardDynamicsDerivatives(q, v, a, theirs[0], theirs[1], theirs[2]);
            compare(name + " dvdot", mine, theirs, 3);
            d.inverseMassMatrix(q, mine[0]);
            generic.inverseMassMatrix(q, theirs[0]);
            compare(name + " Minv", mine, theirs, 1);
        }
    }

    private static void compare(String what, DMatrixRMaj[] mine, DMatrixRMaj[] theirs, int count) {
        for (int k = 0; k < count; k++) {
            double scale = 1;
            double worst = 0;
            for (int i = 0; i < mine[k].data.length; i++) {
                scale = Math.max(scale, Math.abs(theirs[k].data[i]));
                worst = Math.max(worst, Math.abs(mine[k].data[i] - theirs[k].data[i]));
            }
            assertTrue(worst <= 1e-9 * scale, what + " " + k + ": " + worst + " of " + scale);
        }
    }

    /** The 71-dof humanoid of the class comment, with a floating base. */
    static Model humanoid() throws Exception {
        ModelBuilder b = Model.builder("humanoid71");
        double[][] axes = {{0, 0, 1}, {0, 1, 0}, {1, 0, 0}};
        int[] counter = {0};
        b.addBody("pelvis", "world", "free", JointType.FLOATING, new double[] {0, 0, 1}, Pose.IDENTITY,
                inertia(8, 0.05));
        String torso = serial(b, "pelvis", "waist", 3, 0.1, 5, axes, counter);
        serial(b, torso, "neck", 2, 0.08, 2, axes, counter);
        for (String side : new String[] {"l", "r"}) {
            String wrist = serial(b, torso, side + "_arm", 7, 0.12, 1.5, axes, counter);
            serial(b, wrist, side + "_thumb", 4, 0.02, 0.03, axes, counter);
            for (int f = 0; f < 4; f++) {
                serial(b, wrist, side + "_finger" + f, 3, 0.025, 0.02, axes, counter);
            }
            String ankle = serial(b, "pelvis", side + "_leg", 6, 0.2, 3, axes, counter);
            serial(b, ankle, side + "_toe", 1, 0.1, 0.1, axes, counter);
        }
        return b.build();
    }

    /** n revolute links from {@code parent}, each {@code length} m on, of mass {@code mass}; returns the last link. */
    private static String serial(ModelBuilder b, String parent, String name, int n, double length, double mass,
            double[][] axes, int[] counter) {
        String last = parent;
        for (int i = 0; i < n; i++) {
            String link = name + i;
            int k = counter[0]++;
            b.addBody(link, last, link + "_joint", JointType.REVOLUTE, axes[k % 3],
                    Pose.fromXyzRpy(new double[] {0.01 * (k % 5), 0.02, length}, new double[] {0.05 * (k % 3), 0, 0}),
                    inertia(mass, length));
            last = link;
        }
        return last;
    }

    private static RigidBodyInertia inertia(double mass, double length) {
        double i = mass * length * length / 12 + 1e-6;
        return RigidBodyInertia.of(mass, new double[] {0.001, 0.002, length / 2}, i, 0.01 * i, 0, 1.1 * i, 0,
                0.5 * i + 1e-6);
    }

    /** A chain of n revolute links, axes cycling z, y, x, tilted placements, unequal inertias. */
    static Model chain(int n) throws Exception {
        ModelBuilder b = Model.builder("chain" + n);
        String[] names = new String[n];
        double[][] axes = {{0, 0, 1}, {0, 1, 0}, {1, 0, 0}};
        for (int i = 0; i < n; i++) {
            names[i] = "l" + i;
            b.addBody(names[i], i == 0 ? "world" : names[i - 1], "j" + i, JointType.REVOLUTE, axes[i % 3],
                    Pose.fromXyzRpy(new double[] {0.02, 0.01, 0.3}, new double[] {0.1, 0, 0}),
                    RigidBodyInertia.of(1 + 0.02 * i, new double[] {0.01, 0.02, 0.15}, 0.02, 0.001, -0.002, 0.03,
                            0.0015, 0.025));
        }
        return b.build();
    }
}
