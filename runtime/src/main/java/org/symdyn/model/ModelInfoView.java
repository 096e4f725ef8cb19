package org.symdyn.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.symdyn.contract.ModelInfo;

/** {@link ModelInfo} answered from a {@link Model} ({@link Model#info()}): immutable, no dynamics attached. */
final class ModelInfoView implements ModelInfo {
    private final Model model;
    private final List<String> bodyNames;
    private final List<String> jointNames;
    private final List<String> frameNames;

    ModelInfoView(Model model) {
        this.model = model;
        List<String> bodies = new ArrayList<>();
        List<String> joints = new ArrayList<>();
        for (Body b : model.bodies()) {
            bodies.add(b.name());
            joints.add(b.joint().name());
        }
        List<String> frames = new ArrayList<>();
        for (Frame f : model.frames()) {
            frames.add(f.name());
        }
        bodyNames = Collections.unmodifiableList(bodies);
        jointNames = Collections.unmodifiableList(joints);
        frameNames = Collections.unmodifiableList(frames);
    }

    @Override
    public String modelName() {
        return model.name();
    }

    @Override
    public String sourceSha256() {
        return model.sourceSha256();
    }

    @Override
    public String modelHash() {
        return model.contentHash();
    }

    @Override
    public int nq() {
        return model.nq();
    }

    @Override
    public int nv() {
        return model.nv();
    }

    @Override
    public List<String> qNames() {
        return model.qNames();
    }

    @Override
    public List<String> vNames() {
        return model.vNames();
    }

    @Override
    public List<String> bodyNames() {
        return bodyNames;
    }

    @Override
    public List<String> jointNames() {
        return jointNames;
    }

    @Override
    public int parent(int body) {
        return model.body(body).parentIndex();
    }

    @Override
    public boolean isFloating(int body) {
        return model.body(body).joint().type() == JointType.FLOATING;
    }

    @Override
    public int qIndex(int body) {
        return model.body(body).joint().qIndex();
    }

    @Override
    public int vIndex(int body) {
        return model.body(body).joint().vIndex();
    }

    @Override
    public int quaternionIndex(int body) {
        Joint j = model.body(body).joint();
        return j.type().hasQuaternion() ? j.quaternionIndex() : -1;
    }

    @Override
    public int jointNq(int body) {
        return model.body(body).joint().nq();
    }

    @Override
    public int jointNv(int body) {
        return model.body(body).joint().nv();
    }

    @Override
    public int frameBody(int frame) {
        org.symdyn.contract.Arguments.checkIndex(frame, model.frames().size(), "frame");
        return model.frames().get(frame).bodyIndex();
    }

    @Override
    public void frameOffset(int frame, double[] rotation, double[] position) {
        org.symdyn.contract.Arguments.checkIndex(frame, model.frames().size(), "frame");
        org.symdyn.spatial.Pose pose = model.frames().get(frame).pose();
        for (int i = 0; i < 3; i++) {
            position[i] = pose.translation(i);
            for (int k = 0; k < 3; k++) {
                rotation[3 * i + k] = pose.rotation(i, k);
            }
        }
    }

    @Override
    public List<String> frameNames() {
        return frameNames;
    }

    @Override
    public String toString() {
        return "ModelInfo{" + model + "}";
    }
}
