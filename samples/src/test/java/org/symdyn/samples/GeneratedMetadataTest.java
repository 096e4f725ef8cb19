package org.symdyn.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.symdyn.testing.DeviceAssertions.assertSameDevices;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.contract.ConstraintFunctions;
import org.symdyn.contract.DeclaredDevices;
import org.symdyn.contract.DeviceSpec;
import org.symdyn.contract.ImuSpec;
import org.symdyn.contract.ServoSpec;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.ModelParameters;
import org.symdyn.contract.FrameKinematics;
import org.symdyn.model.Body;
import org.symdyn.model.Frame;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelInfoCheck;
import org.symdyn.model.ParameterModel;

/**
 * What each generated class says about its model (sizes, names, tree, floating bodies, constraint rows, parameters)
 * against the model read from the classpath resource, and its source hash against the SHA-256 of that resource's
 * bytes, so that a class generated from another version of the file is caught.
 */
class GeneratedMetadataTest {
    static Stream<SampleCases.Case> cases() {
        return SampleCases.ALL.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void metadataMatchesTheModel(SampleCases.Case c) throws Exception {
        byte[] bytes = SampleModels.bytes(c.file());
        Model model = SampleModels.load(c.file());
        Object instance = c.generated().get();
        Dynamics dyn = (Dynamics) instance;
        String sha = SampleModels.sha256(bytes);
        assertEquals(sha, dyn.sourceSha256(), "source hash");
        assertEquals(sha, model.sourceSha256(), "the reader's hash of the same bytes");
        assertEquals(model.name(), dyn.modelName());
        assertEquals(model.contentHash(), dyn.modelHash(), "model content hash");
        assertEquals(true, instance instanceof org.symdyn.contract.ModelFunctions, "the whole contract");
        ModelInfoCheck.assertSameInfo(model.info(), dyn);
        assertEquals(model.nq(), dyn.nq(), "nq");
        assertEquals(model.nv(), dyn.nv(), "nv");
        assertEquals(model.qNames(), dyn.qNames());
        assertEquals(model.vNames(), dyn.vNames());
        List<String> bodies = new ArrayList<>();
        List<String> joints = new ArrayList<>();
        for (Body b : model.bodies()) {
            bodies.add(b.name());
            joints.add(b.joint().name());
            assertEquals(b.parentIndex(), dyn.parent(b.index()), "parent of " + b.name());
            assertEquals(b.joint().type() == JointType.FLOATING, dyn.isFloating(b.index()), "floating " + b.name());
        }
        assertEquals(bodies, dyn.bodyNames());
        assertEquals(joints, dyn.jointNames());
        assertEquals(model.bodyCount(), dyn.bodyCount());
        assertEquals(model.frames().stream().map(Frame::name).toList(), dyn.frameNames());
        assertEquals(model.frames().stream().map(Frame::name).toList(), ((FrameKinematics) instance).frameNames());
        assertEquals(model.constraintRowCount(), ((ConstraintFunctions) instance).constraintRows(), "constraint rows");
        ModelParameters params = (ModelParameters) instance;
        assertEquals(model.parameters().stream().map(ParameterModel::name).toList(), params.parameterNames());
        for (int k = 0; k < model.parameters().size(); k++) {
            assertEquals(model.parameters().get(k).value(), params.parameter(k), "default of parameter " + k);
        }
        assertSameDevices(model.devices(), ((DeclaredDevices) instance).devices());
        // copy() is an independent instance of the same class.
        Dynamics copy = dyn.copy();
        assertEquals(instance.getClass(), copy.getClass());
        assertEquals(false, copy == instance);
    }

    /** The quadruped declares a standing servo on each of its 12 joints and an IMU on the trunk. */
    @Test
    void theQuadrupedDeclaresItsServosAndImu() throws Exception {
        DeclaredDevices generated = new org.symdyn.samples.generated.QuadrupedDynamics();
        List<DeviceSpec> devices = generated.devices();
        assertEquals(13, devices.size());
        Model model = SampleModels.load("quadruped.urdf");
        for (String leg : List.of("lf", "rf", "lh", "rh")) {
            ServoSpec knee = generated.device(leg + "_kfe_servo", ServoSpec.class);
            assertEquals(leg + "_kfe", knee.joint());
            assertEquals(model.vNames().indexOf(leg + "_kfe"), knee.vIndex());
            assertEquals(-1.2, knee.target());
            assertEquals(0.6, generated.device(leg + "_hfe_servo", ServoSpec.class).target());
        }
        ImuSpec imu = generated.device("base_imu", ImuSpec.class);
        assertEquals(model.bodyIndex("trunk"), imu.body());
    }

    /** Every model file of the module has a case, so none escapes the regression tests. */
    @Test
    void everyModelFileHasACase() throws IOException {
        Path folder = Path.of("src", "main", "symdyn");
        List<String> files;
        try (Stream<Path> list = Files.list(folder)) {
            files = list.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".urdf")).sorted().toList();
        }
        assertEquals(files, SampleCases.ALL.stream().map(SampleCases.Case::file).sorted().toList());
    }
}
