package org.symdyn.generator;

import org.symdyn.generator.ArgumentChecks.Arg;
import org.symdyn.model.Model;

/**
 * The parameters of the {@link org.symdyn.contract.Kinematics} methods, with the lengths one model checks: one
 * definition for both forms of the generated kinematics ({@link KinematicsMethods}, {@link SharedPassKinematics}),
 * so that their signatures and argument messages cannot drift apart.
 */
record KinematicsArguments(Arg q, Arg v, Arg vdot, Arg point, Arg frame, Arg body, Arg rotation, Arg position) {

    static KinematicsArguments of(Model model) {
        return new KinematicsArguments(Arg.in("q", model.nq()), Arg.in("v", model.nv()), Arg.in("vdot", model.nv()),
                Arg.in("point", 3), Arg.index("frame"), Arg.index("body"), Arg.out("rotation", 9),
                Arg.out("position", 3));
    }
}
