package org.symdyn.benchmarks;

import java.util.Locale;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.generator.CodeGenerator;
import org.symdyn.generator.GeneratedClass;
import org.symdyn.generator.GeneratorOptions;
import org.symdyn.generator.InProcessCompiler;
import org.symdyn.generator.KinematicsForm;
import org.symdyn.model.Model;

/**
 * The {@code kinematicsForm} parameter of the benchmarks that generate a class: {@code default} (the generator's
 * default options, {@link KinematicsForm#BY_SIZE}: the kinematics from shared passes over the whole tree) or one of
 * {@code symdyn generate --kinematics-form}'s names, {@code per-body} ({@link KinematicsForm#PER_BODY}: a
 * straight-line method per body, a query computing the body's branch only), {@code by-size} or
 * {@code shared-passes}. A class is checked, on its source, to have the form asked for, so that an A/B run cannot
 * time one form twice.
 */
final class KinematicsFormParameter {
    /** The generator's default options. */
    static final String DEFAULT = "default";
    /** {@link KinematicsForm#PER_BODY}. */
    static final String PER_BODY = "per-body";

    private KinematicsFormParameter() {
    }

    /** {@code options} with the kinematics in {@code form}; {@link IllegalArgumentException} for an unknown name. */
    static GeneratorOptions apply(GeneratorOptions options, String form) {
        if (form.equals(DEFAULT)) {
            return options;
        }
        for (KinematicsForm f : KinematicsForm.values()) {
            if (f.name().toLowerCase(Locale.ROOT).replace('_', '-').equals(form)) {
                return options.withKinematics(f);
            }
        }
        throw new IllegalArgumentException("kinematicsForm must be default, per-body, by-size or shared-passes: "
                + form);
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
        boolean expected = o.kinematics() == KinematicsForm.PER_BODY ? perBody && !shared : shared && !perBody;
        if (!expected) {
            throw new IllegalStateException(o.className() + " (kinematicsForm " + form + ", "
                    + o.kinematics() + "): its source has " + (perBody ? "per-body" : "no per-body")
                    + " methods and " + (shared ? "the" : "no") + " shared passes");
        }
        return (ModelFunctions) InProcessCompiler.compile(gen).type().getDeclaredConstructor().newInstance();
    }
}
