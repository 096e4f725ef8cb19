package org.symdyn.io.sdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.Body;
import org.symdyn.model.Frame;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.spatial.Pose;
import org.symdyn.testing.SharedFiles;

/**
 * Issue 33 item 4: the same robot read from URDF and from SDFormat is the same model. Every shared URDF
 * ({@code shared/models/*.urdf}) is converted to SDFormat 1.7 (poses relative_to the parent link) and 1.10 (poses in
 * the model frame as quaternions, axes expressed in the model frame, inertial angles in degrees) by
 * {@link UrdfToSdf}; both read into models whose bodies, joints (type, axis, placement, limits), inertias and frames
 * agree with the URDF's to 1e-12, and whose H, C and forward dynamics agree to 1e-12 (relative to max(1, |URDF|))
 * at random states. The floating variant (no world joint) is compared with the URDF read with a floating base.
 * Skipped, visibly, when the shared folder is absent.
 */
class SdfSameModelTest {
    private static final double TOL = 1e-12;
    static final Map<String, Double> WORST = new ConcurrentHashMap<>();

    @AfterAll
    static void printWorst() {
        System.out.println("SdfSameModelTest worst differences (tolerance " + TOL + "):");
        new TreeMap<>(WORST).forEach((k, v) -> System.out.printf("  %-40s %.3e%n", k, v));
    }

    static Stream<String> models() throws Exception {
        Path dir;
        try {
            dir = SharedFiles.require("models");
        } catch (SharedFiles.Absent e) {
            return Stream.of("(shared folder absent)");
        }
        List<String> names = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".urdf")).sorted()
                    .forEach(names::add);
        }
        return names.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void fixedBaseAgreesInBothStyles(String name) throws Exception {
        Path urdf = SharedFiles.model(name);
        Assumptions.assumeTrue(UrdfToSdf.convertible(urdf), name + " has a floating or planar joint");
        Model reference = UrdfReader.read(urdf);
        for (UrdfToSdf.Style style : UrdfToSdf.Style.values()) {
            String sdf = UrdfToSdf.convert(urdf, style, false);
            Model model = SdfReader.parse(sdf, name + ".sdf", SdfReader.Options.DEFAULT);
            compare(name + " " + style, reference, model, false);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void floatingBaseAgrees(String name) throws Exception {
        Path urdf = SharedFiles.model(name);
        Assumptions.assumeTrue(UrdfToSdf.convertible(urdf), name + " has a floating or planar joint");
        Assumptions.assumeFalse(UrdfReader.read(urdf).rootName().equals("world"), name + "'s root link is"
                + " named world, which SDFormat reads as the world itself: it has no floating variant");
        Model reference = UrdfReader.read(urdf, new UrdfReader.Options(true, false));
        Model model = SdfReader.parse(UrdfToSdf.convert(urdf, UrdfToSdf.Style.ABSOLUTE_1_10, true), name + ".sdf",
                SdfReader.Options.DEFAULT);
        compare(name + " floating", reference, model, true);
    }

    static void compare(String label, Model urdf, Model sdf, boolean floating) {
        assertEquals(urdf.bodyCount(), sdf.bodyCount(), label + ": bodies");
        assertEquals(urdf.nq(), sdf.nq(), label + ": nq");
        for (int i = 0; i < urdf.bodyCount(); i++) {
            Body a = urdf.body(i);
            Body b = sdf.body(i);
            String at = label + " body " + a.name();
            assertEquals(a.name(), b.name(), at);
            assertEquals(a.parentIndex(), b.parentIndex(), at + " parent");
            assertEquals(a.joint().type(), b.joint().type(), at + " joint type");
            if (!(floating && a.joint().type() == JointType.FLOATING)) {
                assertEquals(a.joint().name(), b.joint().name(), at + " joint name");
            }
            near(label, "axis", a.joint().axis(), b.joint().axis(), at);
            near(label, "placement", pose(a.joint().placement()), pose(b.joint().placement()), at);
            assertEquals(a.joint().lower(), b.joint().lower(), 0, at + " lower");
            assertEquals(a.joint().upper(), b.joint().upper(), 0, at + " upper");
            near(label, "inertia", inertia(urdf, i), inertia(sdf, i), at);
        }
        for (Frame f : urdf.frames()) {
            if (sdf.hasFrame(f.name()) && f.bodyIndex() >= 0) {
                Frame g = sdf.frame(f.name());
                assertEquals(f.bodyIndex(), g.bodyIndex(), label + " frame " + f.name());
                near(label, "frames", pose(f.pose()), pose(g.pose()), label + " frame " + f.name());
            }
        }
        GenericDynamics da = new GenericDynamics(urdf);
        GenericDynamics db = new GenericDynamics(sdf);
        int nq = urdf.nq();
        int nv = urdf.nv();
        Random random = new Random(label.hashCode());
        DMatrixRMaj ha = new DMatrixRMaj(nv, nv);
        DMatrixRMaj hb = new DMatrixRMaj(nv, nv);
        for (int s = 0; s < 5; s++) {
            double[] q = new double[nq];
            double[] v = new double[nv];
            double[] tau = new double[nv];
            for (int k = 0; k < nq; k++) {
                q[k] = random.nextDouble() * 2 - 1;
            }
            for (Body body : urdf.bodies()) {
                if (body.joint().type() == JointType.FLOATING || body.joint().type() == JointType.BALL) {
                    int qi = body.joint().quaternionIndex();
                    double n = Math.sqrt(q[qi] * q[qi] + q[qi + 1] * q[qi + 1] + q[qi + 2] * q[qi + 2]
                            + q[qi + 3] * q[qi + 3]);
                    for (int k = 0; k < 4; k++) {
                        q[qi + k] /= n;
                    }
                }
            }
            for (int k = 0; k < nv; k++) {
                v[k] = random.nextDouble() * 2 - 1;
                tau[k] = random.nextDouble() * 2 - 1;
            }
            da.massMatrix(q, ha);
            db.massMatrix(q, hb);
            near(label, "H", ha.data, hb.data, label + " H");
            double[] ca = new double[nv];
            double[] cb = new double[nv];
            da.biasForces(q, v, ca);
            db.biasForces(q, v, cb);
            near(label, "C", ca, cb, label + " C");
            double[] fa = new double[nv];
            double[] fb = new double[nv];
            da.forwardDynamics(q, v, tau, fa);
            db.forwardDynamics(q, v, tau, fb);
            near(label, "FD", fa, fb, label + " FD");
        }
    }

    private static double[] inertia(Model m, int body) {
        var in = m.body(body).inertia();
        double[] out = new double[13];
        out[0] = in.mass();
        System.arraycopy(in.comArray(), 0, out, 1, 3);
        System.arraycopy(in.inertiaAboutComArray(), 0, out, 4, 9);
        return out;
    }

    private static double[] pose(Pose p) {
        double[] out = new double[12];
        System.arraycopy(p.rotationArray(), 0, out, 0, 9);
        System.arraycopy(p.translationArray(), 0, out, 9, 3);
        return out;
    }

    /** |a − b|∞ ≤ 1e-12 max(1, |a|∞); the worst relative difference is kept per quantity. */
    private static void near(String label, String quantity, double[] a, double[] b, String at) {
        assertEquals(a.length, b.length, at);
        double scale = 1;
        double diff = 0;
        for (int i = 0; i < a.length; i++) {
            scale = Math.max(scale, Math.abs(a[i]));
            diff = Math.max(diff, Math.abs(a[i] - b[i]));
        }
        double rel = diff / scale;
        WORST.merge(quantity, rel, Math::max);
        assertTrue(rel <= TOL, at + ": differs by " + rel + " (relative)");
    }
}
