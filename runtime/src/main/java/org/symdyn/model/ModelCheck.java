package org.symdyn.model;

import java.util.List;

/**
 * A check that a model read from a file must pass before a reader returns it, for a property that the model's own
 * rules cannot see because seeing it takes an algorithm of a package above this one (the joint-space inertia at a
 * configuration, for one). The package that owns the algorithm implements the check and declares it in
 * {@code META-INF/services/org.symdyn.model.ModelCheck}; the readers ({@code org.symdyn.io}) run every declared
 * check on each model they have assembled without error, so they never import the packages above them.
 *
 * <p>An implementation is a public class with a public no-argument constructor and no state: one instance checks
 * every model, from any thread.
 */
public interface ModelCheck {
    /**
     * The errors found, each at the element it concerns (usually a link's start tag), or an empty list if the
     * model passes.
     */
    List<Diagnostic> check(Model model);
}
