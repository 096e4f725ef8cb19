package org.symdyn.samples;

import java.util.LinkedHashMap;
import java.util.Map;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintGroup;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.contract.ConstraintType;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.simulation.RungeKutta4;
import org.symdyn.simulation.Simulator;
import org.symdyn.solvers.ActuationMap;
import org.symdyn.solvers.Assembly;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ConstrainedInverseDynamics;
import org.symdyn.solvers.ImpulseSolver;
import org.symdyn.solvers.KokkevisContactDynamics;

/**
 * Every solver of the runtime on one {@link ModelFunctions}, its constraint set built from the functions alone
 * ({@link ConstraintSet#of(org.symdyn.contract.ConstraintFunctions)}): constrained forward dynamics by the three
 * methods, impulses by the three methods, Kokkevis' method (contact-only sets), constrained inverse dynamics (the relaxed operator when not fully actuated),
 * position and velocity assembly, and ten RK4 steps of {@link Simulator#builder(ModelFunctions)}.
 *
 * <p>{@link GeneratedClassAloneTest} runs this class in a class loader that holds only the runtime, EJML, the
 * generated classes and this class: it uses nothing but the runtime's API and java.base, and its results are plain
 * arrays keyed by name, so that they cross class loaders.
 */
public final class SolversRun {
    private SolversRun() {
    }

    /** {@link #run(ModelFunctions, double[], double[], double[], double[])} on a new instance of the named class. */
    public static Map<String, double[]> run(String className, double[] q, double[] v, double[] tau, double[] guess)
            throws ReflectiveOperationException {
        ModelFunctions f = (ModelFunctions) Class.forName(className).getDeclaredConstructor().newInstance();
        return run(f, q, v, tau, guess);
    }

    /**
     * Every solver at (q, v, τ); {@code guess} (or null) is the start of a position assembly. Key "fused" is 1 when
     * the data makes one fused call per evaluation.
     */
    public static Map<String, double[]> run(ModelFunctions f, double[] q, double[] v, double[] tau, double[] guess) {
        Map<String, double[]> out = new LinkedHashMap<>();
        int nq = f.nq();
        int nv = f.nv();
        ConstraintData data = ConstraintSet.of(f).bind(f);
        out.put("fused", new double[] {data.isFused() ? 1 : 0});
        out.put("rows", new double[] {data.size()});
        if (data.size() > 0) {
            ConstrainedDynamics fd = new ConstrainedDynamics(data);
            double[] vdot = new double[nv];
            fd.forwardDynamicsDirect(q, v, tau, vdot);
            out.put("vdot_direct", vdot.clone());
            out.put("lambda_direct", data.force().clone());
            fd.forwardDynamicsRangeSpaceSparse(q, v, tau, vdot);
            out.put("vdot_range_space", vdot.clone());
            fd.forwardDynamicsNullSpace(q, v, tau, vdot);
            out.put("vdot_null_space", vdot.clone());

            ImpulseSolver impulses = new ImpulseSolver(data);
            double[] vPlus = new double[nv];
            impulses.solveDirect(q, v, vPlus);
            out.put("vplus_direct", vPlus.clone());
            out.put("impulse_direct", data.impulse().clone());
            impulses.solveRangeSpaceSparse(q, v, vPlus);
            out.put("vplus_range_space", vPlus.clone());
            impulses.solveNullSpace(q, v, vPlus);
            out.put("vplus_null_space", vPlus.clone());

            boolean contactsOnly = true;
            for (ConstraintGroup g : data.set().groups()) {
                contactsOnly &= g.type() == ConstraintType.CONTACT;
            }
            if (contactsOnly) {
                new KokkevisContactDynamics(data).forwardDynamics(q, v, tau, vdot);
                out.put("vdot_kokkevis", vdot.clone());
            }

            ConstrainedInverseDynamics id = new ConstrainedInverseDynamics(data, ActuationMap.allButFloatingBase(f));
            double[] tauId = new double[nv];
            if (id.isFullyActuated(q)) {
                id.inverseDynamics(q, v, new double[nv], vdot, tauId);
            } else {
                id.inverseDynamicsRelaxed(q, v, new double[nv], vdot, tauId);
            }
            out.put("id_vdot", vdot.clone());
            out.put("id_tau", tauId);

            Assembly assembly = new Assembly(data);
            double[] weights = new double[nv];
            java.util.Arrays.fill(weights, 1);
            if (guess != null) {
                double[] qa = new double[nq];
                boolean ok = assembly.assembleQ(guess, weights, qa);
                out.put("assembly_success", new double[] {ok ? 1 : 0});
                out.put("assembly_q", qa);
            }
            double[] va = new double[nv];
            assembly.assembleV(q, v, weights, va);
            out.put("assembly_v", va);
        }
        Simulator sim = Simulator.builder(f).integrator(RungeKutta4::new).build();
        sim.setState(0, q, v);
        for (int i = 0; i < 10; i++) {
            sim.step(1e-3);
        }
        out.put("simulated_q", sim.q().clone());
        out.put("simulated_v", sim.v().clone());
        return out;
    }
}
