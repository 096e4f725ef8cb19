package org.symdyn.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.GenericModel;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;
import org.symdyn.samples.generated.FourbarDynamics;
import org.symdyn.simulation.Simulator;

/**
 * A generated class alone runs every solver of the runtime: {@link SolversRun} is executed in a class loader that
 * holds only the runtime, EJML, the generated classes and {@code SolversRun} itself, so neither the model files
 * (which this module otherwise puts on the class path under {@code /symdyn/}) nor the generator are visible. The
 * results are compared with the same run on the generic interpreter of the model file, and the loader's record of
 * the classes it loaded proves that no generic dynamics, generic constraint code or model reader ran.
 *
 * <p>Tolerance: 1e-12 relative to the largest entry of each result (and 1); measured worst 7.4e-15 (the four-bar's
 * range-space v̇). Generated and generic H, C, G, γ agree to
 * about 1e-14 ({@link GeneratedVsGenericTest}); the solves amplify that by the conditioning of the KKT systems at
 * random states, and ten RK4 steps by their own error propagation. The worst case is printed.
 */
class GeneratedClassAloneTest {
    static final double TOLERANCE = 1e-12;

    /** Classes that must not be loaded when a generated class runs alone. */
    static final List<String> FORBIDDEN = List.of("org.symdyn.dynamics.GenericDynamics",
            "org.symdyn.constraints.GenericConstraints", "org.symdyn.constraints.GenericModel",
            "org.symdyn.io.", "org.symdyn.generator.");

    /** A URLClassLoader over the platform loader that records every class it defines. */
    static final class RecordingLoader extends URLClassLoader {
        final Set<String> loaded = ConcurrentHashMap.newKeySet();

        RecordingLoader(URL[] urls) {
            super("generated-alone", urls, ClassLoader.getPlatformClassLoader());
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            Class<?> c = super.findClass(name);
            loaded.add(name);
            return c;
        }
    }

    @Test
    void everySolverRunsOnTheGeneratedClassAloneAndMatchesTheGenericRuntime(@TempDir Path isolated)
            throws Exception {
        copyClasses(FourbarDynamics.class, "org/symdyn/samples/generated/", "", isolated);
        copyClasses(SolversRun.class, "org/symdyn/samples/", "SolversRun", isolated);
        List<URL> urls = new ArrayList<>();
        urls.add(location(ConstraintSet.class).toUri().toURL());
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (Path.of(entry).getFileName().toString().startsWith("ejml-")) {
                urls.add(Path.of(entry).toUri().toURL());
            }
        }
        urls.add(isolated.toUri().toURL());
        try (RecordingLoader loader = new RecordingLoader(urls.toArray(URL[]::new))) {
            Class<?> runner = loader.loadClass(SolversRun.class.getName());
            assertSame(loader, runner.getClassLoader(), "SolversRun must come from the isolated loader");
            for (SampleCases.Case c : SampleCases.ALL) {
                assertNull(loader.getResource("symdyn/" + c.file()), "the model file must not be visible");
                Model model = SampleModels.load(c.file());
                Random rnd = new Random(c.file().hashCode());
                double[] q = SampleCases.randomConfiguration(model, rnd);
                double[] v = SampleCases.uniform(rnd, model.nv(), 1.0);
                double[] tau = SampleCases.uniform(rnd, model.nv(), 1.0);
                double[] guess = null;
                if (c.file().equals("fourbar.urdf")) {
                    q = FourBarDemo.assemble(model).q();
                    guess = FourBarDemo.GUESS;
                } else if (c.file().equals("quadruped.urdf")) {
                    q = QuadrupedStandingDemo.standingPose(model);
                    guess = q.clone();
                    for (int i = 7; i < guess.length; i++) {
                        guess[i] += 0.02 * (2 * rnd.nextDouble() - 1);
                    }
                }
                String className = c.generated().get().getClass().getName();
                @SuppressWarnings("unchecked")
                Map<String, double[]> alone = (Map<String, double[]>) runner.getMethod("run", String.class,
                        double[].class, double[].class, double[].class, double[].class)
                        .invoke(null, className, q, v, tau, guess);
                Map<String, double[]> generic = SolversRun.run(new GenericModel(model), q, v, tau, guess);
                assertEquals(generic.keySet(), alone.keySet(), c.file());
                if (model.constraintRowCount() > 0) {
                    assertArrayEquals(new double[] {1}, alone.get("fused"), c.file() + ": one fused call expected");
                }
                double worst = 0;
                String worstKey = "";
                for (String key : generic.keySet()) {
                    if (key.equals("fused")) {
                        continue;
                    }
                    double e = relativeError(alone.get(key), generic.get(key));
                    assertTrue(e <= TOLERANCE, c.file() + " " + key + ": generated alone differs from generic by " + e);
                    if (e > worst) {
                        worst = e;
                        worstKey = key;
                    }
                }
                System.out.printf("# %s alone: %d results, worst relative difference to generic %.2e (%s)%n",
                        c.file(), generic.size() - 1, worst, worstKey);
            }
            for (String name : loader.loaded) {
                for (String forbidden : FORBIDDEN) {
                    assertTrue(!name.startsWith(forbidden), "loaded " + name + " while running a generated class alone");
                }
            }
            assertTrue(loader.loaded.contains("org.symdyn.solvers.KokkevisContactDynamics")
                    && loader.loaded.contains("org.symdyn.simulation.Simulator")
                    && loader.loaded.contains(FourbarDynamics.class.getName()), "the solvers ran in the loader");
        }
    }

    /**
     * A simulator given a generated class as its dynamics binds the model's constraints to that class's own
     * constraint code (one fused evaluation), also when the kinematics are another object's.
     */
    @Test
    void simulatorUsesTheGeneratedConstraintCode() throws Exception {
        Model model = SampleModels.load("fourbar.urdf");
        FourbarDynamics generated = new FourbarDynamics();
        Simulator sim = Simulator.builder(model).dynamics(generated).build();
        assertSame(generated, sim.constraintData().functions());
        assertTrue(sim.constraintData().isFused());
        GenericDynamics kinematics = new GenericDynamics(model);
        Simulator mixed = Simulator.builder(model).dynamics(generated, kinematics).build();
        assertSame(generated, mixed.constraintData().functions());
    }

    private static double relativeError(double[] a, double[] b) {
        assertEquals(b.length, a.length);
        double scale = 1;
        double diff = 0;
        for (int i = 0; i < a.length; i++) {
            scale = Math.max(scale, Math.abs(b[i]));
            diff = Math.max(diff, Math.abs(a[i] - b[i]));
        }
        return diff / scale;
    }

    private static Path location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** Copies {@code folder/prefix*.class} from the class path root of {@code anchor} into {@code to}. */
    private static void copyClasses(Class<?> anchor, String folder, String prefix, Path to) throws Exception {
        Path from = location(anchor).resolve(folder);
        Files.createDirectories(to.resolve(folder));
        int copied = 0;
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                if (name.startsWith(prefix) && name.endsWith(".class")) {
                    Files.copy(f, to.resolve(folder).resolve(name));
                    copied++;
                }
            }
        } catch (IOException e) {
            throw new IOException("cannot copy the classes of " + from, e);
        }
        assertTrue(copied > 0, "no classes found in " + from);
    }
}
