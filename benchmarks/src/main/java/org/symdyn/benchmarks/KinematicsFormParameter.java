package org.symdyn.benchmarks;

import org.symdyn.contract.ModelFunctions;
import org.symdyn.generator.CodeGenerator;
import org.symdyn.generator.GeneratedClass;
import org.symdyn.generator.GeneratorOptions;
import org.symdyn.generator.InProcessCompiler;
import org.symdyn.generator.KinematicsForm;
import org.symdyn.model.Model;

/**
 * The {@code kinematicsForm} parameter of the benchmarks that generate a class: {@code default} (the generator's
 * default options, {@link KinematicsForm#BY_SIZE}: a straight-line method per body for every shared model and
 * sample) or one of {@code symdyn generate --kinematics-form}'s names, {@code per-body}
 * ({@link KinematicsForm#PER_BODY}), {@code compact} ({@link KinematicsForm#COMPACT}: the kinematics from shared
 * passes over the whole tree, which a query runs in full), {@code by-size} or {@code shared-passes}. A class is checked, on its source, to have the form asked for, so that an A/B run cannot
 * time one form twice.
 */
final class KinematicsFormParameter {
    /** The generator's default options. */
    static final String DEFAULT = "default";
    /** {@link KinematicsForm#PER_BODY}. */
    static final String PER_BODY = "per-body";
    /** {@link KinematicsForm#COMPACT}. */
    static final String COMPACT = "compact";

    private KinematicsFormParameter() {
    }

    /** {@code options} with the kinematics in {@code form}; {@link IllegalArgumentException} for an unknown name. */
    static GeneratorOptions apply(GeneratorOptions options, String form) {
        if (form.equals(DEFAULT)) {
            return options;
        }
        try {
            return options.withKinematics(KinematicsForm.ofOptionName(form));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("kinematicsForm must be default or a form of --kinematics-form: "
                    + e.getMessage(), e);
        }
    }

    /**
     * A new instance of {@code model}'s class generated with {@code options} in the kinematics form {@code form},
     * compiled in memory; {@link IllegalStateException} if its source does not have that form (per body: the
     * per-body methods {@code bodyPose0}, ...; shared passes: {@code kinematicsPoses}).
     */
    static ModelFunctions generate(Model model, GeneratorOptions options, String form) throws Exception {
        GeneratorOptions o = apply(options, form);
        GeneratedClass gen = new CodeGenerator().generate(model, o);
        boolean perBody = gen.source().contains(" bodyPose0(");
        boolean shared = gen.source().contains(" kinematicsPoses(");
        boolean expected = switch (o.kinematics()) {
            case PER_BODY -> perBody && !shared;
            case COMPACT, SHARED_PASSES -> shared && !perBody;
            case BY_SIZE -> perBody != shared;
        };
        if (!expected) {
            throw new IllegalStateException(o.className() + " (kinematicsForm " + form + ", "
                    + o.kinematics() + "): its source has " + (perBody ? "per-body" : "no per-body")
                    + " methods and " + (shared ? "the" : "no") + " shared passes");
        }
        return (ModelFunctions) InProcessCompiler.compile(gen).type().getDeclaredConstructor().newInstance();
    }
}
