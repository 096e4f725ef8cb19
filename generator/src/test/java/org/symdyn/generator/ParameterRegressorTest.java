package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.contract.DynamicsDerivatives;
import org.symdyn.contract.ModelParameters;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;
import org.symdyn.io.urdf.UrdfReader;

/**
 * The regressor of declared parameters (issue 15 item 3), generated against generic and both against the dynamics
 * themselves: on {@link ParameterTest#arm} (a link's mass, centre-of-mass x, ixx and iyz, and a joint origin; the
 * link has merged fixed links), ∂π/∂p agrees, Y_p agrees on random states, τ moves by exactly Y_p Δ when the mass
 * and inertia entries move (they enter linearly), Y_p's centre-of-mass column is the central difference of τ over
 * models rebuilt with the other value (exact: τ is quadratic in c), and a joint origin's column is zero.
 */
class ParameterRegressorTest {
    private static final double MASS = 1.5;
    private static final double COM_X = 0.01;
    private static final double IXX = 0.06;
    private static final double IYZ = 0.002;
    private static final double ELBOW_Z = -0.1;

    private static Model arm(double mass, double comX, double ixx, double iyz, double elbowZ) throws Exception {
        return UrdfReader.parse(ParameterTest.arm(mass, comX, ixx, iyz, elbowZ), "arm.urdf",
                UrdfReader.Options.DEFAULT);
    }

    @Test
    void parameterRegressorMatchesGenericAndTheDynamics() throws Exception {
        Model model = arm(MASS, COM_X, IXX, IYZ, ELBOW_Z);
        DynamicsDerivatives generated = (DynamicsDerivatives) GeneratedVsGenericTest.instance(new CodeGenerator()
                .generate(model, GeneratorOptions.of("test.gen", "ArmParameterRegressor")
                        .withDerivatives(true)));
        GenericDynamics generic = new GenericDynamics(model);
        int nv = model.nv();
        int np = model.parameters().size();
        int cols = DynamicsDerivatives.PARAMETERS_PER_BODY * model.bodyCount();
        assertEquals(generic.parameterNames(), generated.parameterNames());
        assertEquals(((ModelParameters) generated).parameterNames(), generated.parameterNames());

        DMatrixRMaj dpiGeneric = new DMatrixRMaj(cols, np);
        DMatrixRMaj dpiGenerated = new DMatrixRMaj(cols, np);
        generic.inertialParameterJacobian(dpiGeneric);
        generated.inertialParameterJacobian(dpiGenerated);
        GeneratedVsGenericTest.assertClose(dpiGeneric.data, dpiGenerated.data, 1e-12, "dpi/dp", "arm");
        for (int j = 0; j < cols; j++) {
            assertEquals(0, dpiGeneric.get(j, 4), "a joint origin does not move pi");
        }
        // ∂π/∂p of the generic runtime against π of models rebuilt with other values: exact differences (π is
        // affine in the mass and inertia entries, quadratic in the centre of mass, so a central difference is exact).
        double[] piPlus = new double[cols];
        double[] piMinus = new double[cols];
        double h = 1e-3;
        Model[][] rebuilt = {
            {arm(MASS + h, COM_X, IXX, IYZ, ELBOW_Z), arm(MASS - h, COM_X, IXX, IYZ, ELBOW_Z)},
            {arm(MASS, COM_X + h, IXX, IYZ, ELBOW_Z), arm(MASS, COM_X - h, IXX, IYZ, ELBOW_Z)},
            {arm(MASS, COM_X, IXX + h, IYZ, ELBOW_Z), arm(MASS, COM_X, IXX - h, IYZ, ELBOW_Z)},
            {arm(MASS, COM_X, IXX, IYZ + h, ELBOW_Z), arm(MASS, COM_X, IXX, IYZ - h, ELBOW_Z)}};
        for (int k = 0; k < rebuilt.length; k++) {
            new GenericDynamics(rebuilt[k][0]).inertialParameters(piPlus);
            new GenericDynamics(rebuilt[k][1]).inertialParameters(piMinus);
            double[] column = new double[cols];
            double[] difference = new double[cols];
            for (int j = 0; j < cols; j++) {
                column[j] = dpiGeneric.get(j, k);
                difference[j] = (piPlus[j] - piMinus[j]) / (2 * h);
            }
            GeneratedVsGenericTest.assertClose(difference, column, 1e-9, "dpi/dp column " + k, "vs rebuilt models");
        }

        Random rnd = new Random(15);
        DMatrixRMaj ypGeneric = new DMatrixRMaj(nv, np);
        DMatrixRMaj ypGenerated = new DMatrixRMaj(nv, np);
        double[] tau = new double[nv];
        double[] tauMoved = new double[nv];
        double[] tauPlus = new double[nv];
        double[] tauMinus = new double[nv];
        ModelParameters settable = (ModelParameters) generated;
        for (int n = 0; n < 50; n++) {
            double[] q = GeneratedVsGenericTest.randomConfiguration(model, rnd);
            double[] v = GeneratedVsGenericTest.random(rnd, nv, 2);
            double[] vdot = GeneratedVsGenericTest.random(rnd, nv, 5);
            generic.parameterRegressor(q, v, vdot, ypGeneric);
            generated.parameterRegressor(q, v, vdot, ypGenerated);
            String at = "state " + n;
            GeneratedVsGenericTest.assertClose(ypGeneric.data, ypGenerated.data, 1e-9, "Yp", at);

            // Mass and inertia entries together: τ(p + Δ) = τ(p) + Y_p Δ.
            generated.inverseDynamics(q, v, vdot, tau);
            double[] delta = {0.4, 0, 0.01, -0.003, 0};
            for (int k = 0; k < np; k++) {
                settable.setParameter(k, settable.parameter(k) + delta[k]);
            }
            generated.inverseDynamics(q, v, vdot, tauMoved);
            for (int k = 0; k < np; k++) {
                settable.setParameter(k, settable.parameter(k) - delta[k]);
            }
            double[] predicted = tau.clone();
            for (int i = 0; i < nv; i++) {
                for (int k = 0; k < np; k++) {
                    predicted[i] += ypGenerated.get(i, k) * delta[k];
                }
            }
            GeneratedVsGenericTest.assertClose(tauMoved, predicted, 1e-12, "tau(p + delta)", at);

            // The centre of mass: central difference over rebuilt generic models (exact for a quadratic).
            new GenericDynamics(rebuilt[1][0]).inverseDynamics(q, v, vdot, tauPlus);
            new GenericDynamics(rebuilt[1][1]).inverseDynamics(q, v, vdot, tauMinus);
            double[] central = new double[nv];
            double[] column = new double[nv];
            double[] origin = new double[nv];
            for (int i = 0; i < nv; i++) {
                central[i] = (tauPlus[i] - tauMinus[i]) / (2 * h);
                column[i] = ypGeneric.get(i, 1);
                origin[i] = ypGenerated.get(i, 4);
            }
            GeneratedVsGenericTest.assertClose(central, column, 1e-8, "dtau/dcom_x", at);
            GeneratedVsGenericTest.assertClose(new double[nv], origin, 0, "joint origin column", at);
        }
        assertTrue(generated.parameterNames().size() == 5);
    }

    /** A model without parameters: zero columns, nothing to do, nothing allocated. */
    @Test
    void aModelWithoutParametersHasNoColumns() throws Exception {
        Model model = CodeGeneratorTest.everyJointType();
        GenericDynamics generic = new GenericDynamics(model);
        assertEquals(0, generic.parameterNames().size());
        DMatrixRMaj yp = new DMatrixRMaj(model.nv(), 0);
        double[] q = GeneratedVsGenericTest.randomConfiguration(model, new Random(1));
        generic.parameterRegressor(q, new double[model.nv()], new double[model.nv()], yp);
        assertEquals(0, yp.getNumElements());
    }
}
