package org.symdyn.contract;

import java.util.List;

/**
 * A {@link ModelInfo} that answers every question about its model from one other {@link ModelInfo},
 * {@link #modelInfo()}: an implementation that evaluates a model (the generic interpreter's dynamics, constraints
 * and their union) names where its model's description is once instead of forwarding each question itself. An
 * implementing class may still answer a question itself where it keeps the answer at hand (nq and nv in fields).
 */
public interface ForwardingModelInfo extends ModelInfo {
    /** The description every other method of {@link ModelInfo} answers from. */
    ModelInfo modelInfo();

    @Override
    default String modelName() {
        return modelInfo().modelName();
    }

    @Override
    default String sourceSha256() {
        return modelInfo().sourceSha256();
    }

    @Override
    default String modelHash() {
        return modelInfo().modelHash();
    }

    @Override
    default int nq() {
        return modelInfo().nq();
    }

    @Override
    default int nv() {
        return modelInfo().nv();
    }

    @Override
    default List<String> qNames() {
        return modelInfo().qNames();
    }

    @Override
    default List<String> vNames() {
        return modelInfo().vNames();
    }

    @Override
    default List<String> bodyNames() {
        return modelInfo().bodyNames();
    }

    @Override
    default List<String> jointNames() {
        return modelInfo().jointNames();
    }

    @Override
    default int parent(int body) {
        return modelInfo().parent(body);
    }

    @Override
    default boolean isFloating(int body) {
        return modelInfo().isFloating(body);
    }

    @Override
    default int qIndex(int body) {
        return modelInfo().qIndex(body);
    }

    @Override
    default int vIndex(int body) {
        return modelInfo().vIndex(body);
    }

    @Override
    default int quaternionIndex(int body) {
        return modelInfo().quaternionIndex(body);
    }

    @Override
    default int jointNq(int body) {
        return modelInfo().jointNq(body);
    }

    @Override
    default int jointNv(int body) {
        return modelInfo().jointNv(body);
    }

    @Override
    default int frameBody(int frame) {
        return modelInfo().frameBody(frame);
    }

    @Override
    default void frameOffset(int frame, double[] rotation, double[] position) {
        modelInfo().frameOffset(frame, rotation, position);
    }

    @Override
    default List<String> frameNames() {
        return modelInfo().frameNames();
    }
}
