package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.contract.ModelParameters;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.io.urdf.UrdfReader;

/**
 * Parameters stay symbols in generated code: with other values set, the class must agree with the generic runtime
 * on the model file carrying those values.
 */
class ParameterTest {
    /** An arm whose parameterised link also carries a fixed child with mass, and whose elbow sits on a rotated frame. */
    static String arm(double mass, double comX, double ixx, double iyz, double elbowZ) {
        return """
                <robot name="arm" xmlns:symdyn="urn:symdyn:1">
                  <link name="world"/>
                  <link name="upper">
                    <inertial><origin xyz="%s 0.02 -0.3"/><mass value="%s"/>
                      <inertia ixx="%s" ixy="0.001" ixz="0" iyy="0.05" iyz="%s" izz="0.01"/></inertial>
                  </link>
                  <link name="sensor">
                    <inertial><origin xyz="0.05 0 0"/><mass value="0.3"/>
                      <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial>
                  </link>
                  <link name="mount"/>
                  <link name="fore">
                    <inertial><origin xyz="0 0 -0.2"/><mass value="0.8"/>
                      <inertia ixx="0.02" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.002"/></inertial>
                  </link>
                  <joint name="shoulder" type="revolute"><parent link="world"/><child link="upper"/>
                    <axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
                  <joint name="sensor_mount" type="fixed"><parent link="upper"/><child link="sensor"/>
                    <origin xyz="0.1 0 -0.1" rpy="0.3 0 0"/></joint>
                  <joint name="mount_joint" type="fixed"><parent link="upper"/><child link="mount"/>
                    <origin xyz="0 0 -0.5" rpy="0.4 -0.2 0.1"/></joint>
                  <joint name="elbow" type="revolute"><parent link="mount"/><child link="fore"/>
                    <origin xyz="0.01 0.02 %s"/><axis xyz="1 0 0"/>
                    <limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
                  <symdyn:parameter name="upperMass" link="upper" field="mass"/>
                  <symdyn:parameter name="upperComX" link="upper" field="com_x"/>
                  <symdyn:parameter name="upperIxx" link="upper" field="ixx"/>
                  <symdyn:parameter name="upperIyz" link="upper" field="iyz"/>
                  <symdyn:parameter name="elbowOffset" joint="elbow" field="origin_z"/>
                </robot>
                """.formatted(comX, mass, ixx, iyz, elbowZ);
    }

    @Test
    void parametersAreSettableAndMatchTheModelWithThoseValues() throws Exception {
        Model model = UrdfReader.parse(arm(1.5, 0.01, 0.06, 0.002, -0.1), "arm.urdf", UrdfReader.Options.DEFAULT);
        assertEquals(5, model.parameters().size());
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "Arm"));
        Object instance = InProcessCompiler.compile(gen).type().getDeclaredConstructor().newInstance();
        ModelParameters params = (ModelParameters) instance;
        assertEquals(List.of("upperMass", "upperComX", "upperIxx", "upperIyz", "elbowOffset"), params.parameterNames());
        assertEquals(1.5, params.parameter(0));
        assertEquals(-0.1, params.parameter(4));
        GeneratedVsGenericTest.checkAll(model, (ModelFunctions) instance, 1);

        double[] other = {2.25, -0.03, 0.08, -0.004, -0.35};
        for (int k = 0; k < other.length; k++) {
            params.setParameter(k, other[k]);
        }
        Model changed = UrdfReader.parse(arm(other[0], other[1], other[2], other[3], other[4]), "arm.urdf",
                UrdfReader.Options.DEFAULT);
        GeneratedVsGenericTest.checkAll(changed, (ModelFunctions) instance, 2);
        // Typed setters and copy() carry the values too.
        instance.getClass().getMethod("setUpperMass", double.class).invoke(instance, 2.25);
        Object copy = ((Dynamics) instance).copy();
        assertEquals(2.25, ((ModelParameters) copy).parameter(0));
        GeneratedVsGenericTest.checkAll(changed, (ModelFunctions) copy, 3);
    }

    /**
     * A generated class refuses, changing nothing, the values the interpreter refuses ({@code Model.withParameters}):
     * a value that is not finite, a negative mass, an inertia that is not positive semi-definite with the link's other
     * parameters in place, a negative armature; through {@code setParameter} and through the typed setters alike.
     */
    @Test
    void aGeneratedClassRefusesWhatTheInterpreterRefuses() throws Exception {
        String file = arm(1.5, 0.01, 0.06, 0.002, -0.1)
                .replaceFirst("(<joint name=\"elbow\"[^>]*>)", "$1<dynamics symdyn:armature=\"0.2\"/>")
                .replace("</robot>", "  <symdyn:parameter name=\"elbowRotor\" joint=\"elbow\" field=\"armature\"/>\n"
                        + "</robot>");
        Model model = UrdfReader.parse(file, "arm.urdf", UrdfReader.Options.DEFAULT);
        Object instance = InProcessCompiler.compile(new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "ArmChecked"))).type().getDeclaredConstructor().newInstance();
        ModelParameters params = (ModelParameters) instance;
        org.symdyn.dynamics.GenericDynamics interpreter = new org.symdyn.dynamics.GenericDynamics(model);
        double[] before = new double[params.parameterNames().size()];
        for (int k = 0; k < before.length; k++) {
            before[k] = params.parameter(k);
        }
        // index, value, what the message must say
        Object[][] bad = {
            {0, -1.0, "mass -1.0 kg is negative"},
            {0, Double.NaN, "not a finite number"},
            {3, Double.POSITIVE_INFINITY, "not a finite number"},
            // iyy 0.05, izz 0.01: |iyz| above sqrt(iyy izz) = 0.0224 leaves a negative principal moment
            {3, 0.03, "not positive definite"},
            {2, -0.06, "not positive definite"},
            {5, -0.1, "armature -0.1 is negative"},
        };
        for (Object[] b : bad) {
            int k = (Integer) b[0];
            double value = (Double) b[1];
            IllegalArgumentException generated = assertThrows(IllegalArgumentException.class,
                    () -> params.setParameter(k, value));
            assertTrue(generated.getMessage().contains((String) b[2]), generated.getMessage());
            IllegalArgumentException interpreted = assertThrows(IllegalArgumentException.class,
                    () -> interpreter.setParameter(k, value));
            assertEquals(interpreted.getMessage(), generated.getMessage());
            for (int j = 0; j < before.length; j++) {
                assertEquals(before[j], params.parameter(j), "parameter " + j + " after refusing " + k);
            }
        }
        java.lang.reflect.InvocationTargetException typed = assertThrows(
                java.lang.reflect.InvocationTargetException.class,
                () -> instance.getClass().getMethod("setUpperMass", double.class).invoke(instance, -2.0));
        assertTrue(typed.getCause() instanceof IllegalArgumentException, typed.getCause().toString());
        assertEquals(1.5, params.parameter(0));
        assertThrows(IndexOutOfBoundsException.class, () -> params.setParameter(before.length, 1.0));
        // A product of inertia refused alone is accepted once the link's moments make room for it.
        params.setParameter(2, 0.2);
        params.setParameter(3, 0.015);
        assertEquals(0.015, params.parameter(3));
        // Back to the file's values as one set, checked once (a review's finding: one at a time, a physical set can
        // pass through a non-physical link on the way, in one order and not another, and a rollout restoring its
        // parameters so stopped its worker).
        params.setParameters(before);
        for (int k = 0; k < before.length; k++) {
            assertEquals(before[k], params.parameter(k));
        }
        IllegalArgumentException set = assertThrows(IllegalArgumentException.class,
                () -> params.setParameters(new double[] {1.5, 0.01, 0.06, 0.03, -0.1, 0.2}));
        assertEquals(interpreterRefusal(model, new double[] {1.5, 0.01, 0.06, 0.03, -0.1, 0.2}), set.getMessage());
        for (int k = 0; k < before.length; k++) {
            assertEquals(before[k], params.parameter(k), "unchanged after a refused set");
        }
        // a light placeholder's negative moment is refused too (a file may declare one with a warning; H checked)
        IllegalArgumentException light = assertThrows(IllegalArgumentException.class,
                () -> params.setParameters(new double[] {1e-6, 0.01, -5, 0.002, -0.1, 0.2}));
        assertTrue(light.getMessage().contains("not positive definite"), light.getMessage());
        GeneratedVsGenericTest.checkAll(model, (ModelFunctions) instance, 6);
    }

    /**
     * Every inertial number of an eight-link chain as a parameter (80): past {@link StaticTables#MAX_INLINE_ELEMENTS},
     * so the rules' tables are filled by slice methods; the class refuses a bad value on the last link and follows a
     * good one as the interpreter does.
     */
    @Test
    void theRulesOfManyParametersAreBuiltBySliceMethods() throws Exception {
        StringBuilder urdf = new StringBuilder("<robot name=\"c\" xmlns:symdyn=\"urn:symdyn:1\"><link name=\"l0\"/>\n");
        StringBuilder params = new StringBuilder();
        String[] fields = {"mass", "com_x", "com_y", "com_z", "ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
        for (int i = 1; i <= 8; i++) {
            urdf.append("<link name=\"l").append(i).append("\"><inertial><origin xyz=\"0.01 0.02 0.1\"/><mass value=\"")
                    .append(1 + 0.1 * i).append("\"/><inertia ixx=\"0.03\" ixy=\"0.001\" ixz=\"-0.002\" iyy=\"0.04\""
                            + " iyz=\"0.0015\" izz=\"0.02\"/></inertial></link>\n")
                    .append("<joint name=\"j").append(i).append("\" type=\"continuous\"><parent link=\"l").append(i - 1)
                    .append("\"/><child link=\"l").append(i).append("\"/><origin xyz=\"0 0 0.3\"/><axis xyz=\"")
                    .append(i % 2 == 0 ? "0 1 0" : "1 0 0").append("\"/></joint>\n");
            for (String f : fields) {
                params.append("<symdyn:parameter name=\"p").append(i).append('_').append(f).append("\" link=\"l")
                        .append(i).append("\" field=\"").append(f).append("\"/>\n");
            }
        }
        Model model = UrdfReader.parse(urdf.append(params).append("</robot>").toString(), "chain.urdf",
                UrdfReader.Options.DEFAULT);
        assertEquals(80, model.parameters().size());
        GeneratedClass gen = new CodeGenerator().generate(model, GeneratorOptions.of("test.gen", "ChainParams"));
        assertTrue(gen.source().contains("PARAMETER_INERTIALS = PARAMETER_INERTIALS$init()"), "sliced tables");
        ModelParameters instance = (ModelParameters) GeneratedVsGenericTest.instance(gen);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> instance.setParameter(79, -0.01)); // l8's izz
        assertTrue(e.getMessage().contains("link 'l8'"), e.getMessage());
        double[] values = new double[80];
        for (int k = 0; k < 80; k++) {
            values[k] = model.parameters().get(k).value();
        }
        values[70] = 2.5; // l8's mass
        values[77] = 0.05; // l8's iyy
        instance.setParameter(70, 2.5);
        instance.setParameter(77, 0.05);
        GeneratedVsGenericTest.checkAll(model.withParameters(values), (ModelFunctions) instance, 7);
    }

    private static String interpreterRefusal(Model model, double[] values) {
        return assertThrows(IllegalArgumentException.class,
                () -> new org.symdyn.dynamics.GenericDynamics(model).setParameters(values)).getMessage();
    }

    /** The message of the refusal of the arm with {@code elements} added before its end tag (from line 30). */
    private static String refusal(String elements) {
        String urdf = arm(1.5, 0.01, 0.06, 0.002, -0.1).replace("</robot>", elements + "</robot>\n");
        return assertThrows(ModelException.class,
                () -> UrdfReader.parse(urdf, "arm.urdf", UrdfReader.Options.DEFAULT)).getMessage();
    }

    @Test
    void badParametersAreReportedWithTheirLine() {
        String msg = refusal("""
                  <symdyn:parameter name="x" link="mount" field="mass"/>
                  <symdyn:parameter name="upperMass" link="upper" field="mass"/>
                  <symdyn:parameter name="y" link="upper" field="volume"/>
                  <symdyn:parameter name="z" link="upper" field="origin_x"/>
                """);
        assertTrue(msg.contains("link 'mount' is not a moving link"), msg);
        assertTrue(msg.contains("duplicate parameter name 'upperMass'"), msg);
        assertTrue(msg.contains("unknown field 'volume'"), msg);
        assertTrue(msg.contains("field 'origin_x' belongs to a joint"), msg);
        // The four bad elements are lines 30 to 33 of the file, each reported at its own line.
        for (int line = 30; line <= 33; line++) {
            assertTrue(msg.contains("arm.urdf:[" + line + ",3] "), "line " + line + ": " + msg);
        }
    }

    /**
     * A helper's findings: names whose generated accessors clash ('Mass' and 'mass' both give getMass; 'Class' gives
     * Object's getClass) made a class that did not compile (exit 1), and two parameters on one number left the first
     * without effect. Each is an error at its line.
     */
    @Test
    void parametersThatWouldClashAreReportedWithTheirLine() {
        String msg = refusal("""
                  <symdyn:parameter name="UpperMass" link="fore" field="mass"/>
                  <symdyn:parameter name="Class" link="fore" field="izz"/>
                  <symdyn:parameter name="massAgain" link="upper" field="mass"/>
                  <symdyn:parameter name="offsetAgain" joint="elbow" field="origin_z"/>
                """);
        assertTrue(msg.contains("arm.urdf:[30,3] parameter 'UpperMass': its generated accessors getUpperMass/setUpperMass"
                + " are those of parameter 'upperMass'"), msg);
        assertTrue(msg.contains("arm.urdf:[31,3] parameter 'Class': its generated getter would be getClass()"), msg);
        assertTrue(msg.contains("arm.urdf:[32,3] parameter 'massAgain': the mass of link 'upper' is already parameter"
                + " 'upperMass'"), msg);
        assertTrue(msg.contains("arm.urdf:[33,3] parameter 'offsetAgain': the origin_z of joint 'elbow' is already"
                + " parameter 'elbowOffset'"), msg);
    }

    /** A joint's armature marked in the file ({@code field="armature"}) reads its value and follows the value set. */
    @Test
    void anArmatureParameterFromTheFile() throws Exception {
        java.util.function.DoubleFunction<String> file = a -> arm(1.5, 0.01, 0.06, 0.002, -0.1)
                .replaceFirst("(<joint name=\"elbow\"[^>]*>)", "$1<dynamics symdyn:armature=\"" + a + "\"/>")
                .replace("</robot>", "  <symdyn:parameter name=\"elbowRotor\" joint=\"elbow\" field=\"armature\"/>\n"
                        + "</robot>");
        Model model = UrdfReader.parse(file.apply(0.2), "arm.urdf", UrdfReader.Options.DEFAULT);
        assertEquals(6, model.parameters().size());
        assertEquals(0.2, model.parameters().get(5).value());
        assertEquals(0.2, model.body(model.bodyIndexOfJoint("elbow")).joint().armature());
        Object instance = InProcessCompiler.compile(new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "ArmRotor"))).type().getDeclaredConstructor().newInstance();
        GeneratedVsGenericTest.checkAll(model, (ModelFunctions) instance, 4);
        ((ModelParameters) instance).setParameter(5, 0.65);
        GeneratedVsGenericTest.checkAll(UrdfReader.parse(file.apply(0.65), "arm.urdf", UrdfReader.Options.DEFAULT),
                (ModelFunctions) instance, 5);
        String onLink = arm(1.5, 0.01, 0.06, 0.002, -0.1).replace("</robot>",
                "  <symdyn:parameter name=\"r\" link=\"upper\" field=\"armature\"/>\n</robot>");
        ModelException e = assertThrows(ModelException.class,
                () -> UrdfReader.parse(onLink, "arm.urdf", UrdfReader.Options.DEFAULT));
        assertTrue(e.getMessage().contains("field 'armature' belongs to a joint"), e.getMessage());
    }

    /**
     * The runtime builds the rows' motion derivatives from the model beside the bound class; with the elbow moved by
     * its origin parameter they must follow the class (they kept the file's elbow before), as the generic runtime on
     * the changed file computes them.
     */
    @Test
    void constrainedDerivativesFollowAMovedJointOrigin() throws Exception {
        Model model = UrdfReader.parse(arm(1.5, 0.01, 0.06, 0.002, -0.1), "arm.urdf", UrdfReader.Options.DEFAULT);
        Object instance = InProcessCompiler.compile(new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "ArmMoved").withDerivatives(true))).type().getDeclaredConstructor()
                .newInstance();
        ((ModelParameters) instance).setParameter(4, -0.35);
        Model changed = UrdfReader.parse(arm(1.5, 0.01, 0.06, 0.002, -0.35), "arm.urdf",
                UrdfReader.Options.DEFAULT);
        int fore = model.bodyIndex("fore");
        double[] point = {0.02, 0.01, -0.3};
        double[] normal = {0, 0.6, 0.8};
        org.symdyn.constraints.ConstraintSet.Builder a = org.symdyn.constraints.ConstraintSet.builder(model)
                .withoutModelConstraints();
        a.addContact(fore, point, normal);
        org.symdyn.constraints.ConstraintData bound = a.build().bind((ModelFunctions) instance);
        org.symdyn.constraints.ConstraintSet.Builder b = org.symdyn.constraints.ConstraintSet.builder(changed)
                .withoutModelConstraints();
        b.addContact(fore, point, normal);
        org.symdyn.constraints.ConstraintData reference = b.build().bindGeneric();
        java.util.Random rnd = new java.util.Random(2);
        int nv = model.nv();
        for (int s = 0; s < 4; s++) {
            double[] q = new double[nv];
            double[] v = new double[nv];
            double[] tau = new double[nv];
            for (int i = 0; i < nv; i++) {
                q[i] = rnd.nextDouble() * 2 - 1;
                v[i] = rnd.nextDouble() * 2 - 1;
                tau[i] = rnd.nextDouble() * 2 - 1;
            }
            org.ejml.data.DMatrixRMaj[] got = outputs(nv);
            org.ejml.data.DMatrixRMaj[] want = outputs(nv);
            new org.symdyn.solvers.ConstrainedDynamicsDerivatives(bound).compute(q, v, tau, got[0], got[1], got[2],
                    got[3], got[4], got[5]);
            new org.symdyn.solvers.ConstrainedDynamicsDerivatives(reference).compute(q, v, tau, want[0], want[1],
                    want[2], want[3], want[4], want[5]);
            for (int i = 0; i < got.length; i++) {
                double scale = Math.max(1, org.ejml.dense.row.CommonOps_DDRM.elementMaxAbs(want[i]));
                for (int k = 0; k < want[i].data.length; k++) {
                    assertEquals(want[i].data[k], got[i].data[k], 1e-9 * scale, "state " + s + " output " + i);
                }
            }
        }
    }

    private static org.ejml.data.DMatrixRMaj[] outputs(int nv) {
        return new org.ejml.data.DMatrixRMaj[] {new org.ejml.data.DMatrixRMaj(nv, nv),
            new org.ejml.data.DMatrixRMaj(nv, nv), new org.ejml.data.DMatrixRMaj(nv, nv),
            new org.ejml.data.DMatrixRMaj(1, nv), new org.ejml.data.DMatrixRMaj(1, nv),
            new org.ejml.data.DMatrixRMaj(1, nv)};
    }

    /**
     * A class made without constraint code, with a joint origin set as a parameter: the simulator binds the model's
     * loop by the interpreter beside it, which must follow the class's value (it closed on the file's).
     */
    @Test
    void aClassWithoutConstraintCodeClosesItsLoopsOnItsParameters() throws Exception {
        Model m = org.symdyn.testing.LoopModels.fourBarWithCrankLength();
        Object instance = InProcessCompiler.compile(new CodeGenerator().generate(m, GeneratorOptions.of("test.gen",
                "FourbarNoRows").withParts(java.util.EnumSet.of(org.symdyn.contract.ModelPart.DYNAMICS,
                org.symdyn.contract.ModelPart.KINEMATICS)))).type().getDeclaredConstructor().newInstance();
        double[] q = {0.3, -0.2, 0.4};
        org.symdyn.constraints.GenericModel reference = new org.symdyn.constraints.GenericModel(m);
        double[] fileValue = new double[2];
        org.symdyn.constraints.ConstraintSet.of(m).bind(reference).positionError(q, fileValue);
        for (double value : new double[] {1.2, 0.9}) {
            ((ModelParameters) instance).setParameter(0, value);
            reference.setParameter(0, value);
            double[] want = new double[2];
            org.symdyn.constraints.ConstraintSet.of(m).bind(reference).positionError(q, want);
            org.symdyn.simulation.Simulator sim = org.symdyn.simulation.Simulator.builder(m)
                    .dynamics((Dynamics) instance, (org.symdyn.contract.Kinematics) instance).build();
            sim.setState(0, q, new double[3]);
            double[] got = sim.positionErrors();
            for (int i = 0; i < want.length; i++) {
                assertEquals(want[i], got[i], 1e-14, value + ": phi[" + i + "]");
            }
            assertTrue(Math.abs(fileValue[0] - got[0]) > 0.05, "the parameter moves the loop");
        }
        // set after the simulator was built, too
        org.symdyn.simulation.Simulator sim = org.symdyn.simulation.Simulator.builder(m)
                .dynamics((Dynamics) instance, (org.symdyn.contract.Kinematics) instance).build();
        ((ModelParameters) instance).setParameter(0, 1.0);
        sim.setState(0, q, new double[3]);
        assertEquals(fileValue[0], sim.positionErrors()[0], 1e-14, "back at the file's value");
    }
}
