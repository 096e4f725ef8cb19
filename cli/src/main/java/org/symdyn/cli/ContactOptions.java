package org.symdyn.cli;

import java.util.Locale;
import org.symdyn.contact.ContactSettings;
import picocli.CommandLine.Option;

/**
 * The options of {@code simulate} that set the contact solve ({@link ContactSettings}): the solver, the contact-law
 * violation to reach, the iterations allowed and the penetration slop. Unset, each keeps the default of
 * {@link ContactSettings#defaults()}, so a run without them is the run it always was.
 */
final class ContactOptions {
    @Option(names = "--solver", paramLabel = "admm|pgs", order = 60,
            description = "The contact solver: admm (the default: proximal ADMM on the exact Coulomb cone) or pgs"
                    + " (projected Gauss-Seidel on the exact cone; converges in a few sweeps on a resting pile of"
                    + " bodies, where ADMM is slow).")
    String solver;

    @Option(names = "--tolerance", paramLabel = "M/S", order = 61,
            description = "The contact-law violation a solve must reach, m/s (default 1e-12; a pile of bodies: 1e-6).")
    Double tolerance;

    @Option(names = "--max-iterations", paramLabel = "N", order = 62,
            description = "Iterations (ADMM) or sweeps (PGS) a solve may take (default 500); a solve stopped there is"
                    + " reported as not converged.")
    Integer maxIterations;

    @Option(names = "--penetration-slop", paramLabel = "METRES", order = 63,
            description = "The depth a contact may keep: penetrations are recovered down to it, not further (default"
                    + " 0; a pile of bodies comes to rest with 1e-7).")
    Double penetrationSlop;

    @Option(names = "--max-contacts", paramLabel = "N", order = 64,
            description = "The most contacts between collision shapes a step keeps (default: four per pair of shapes"
                    + " that may touch, " + org.symdyn.contact.ContactSet.MESH_PAIR_CONTACTS + " for a static mesh"
                    + " and a shape, at most " + org.symdyn.contact.ContactSet.DEFAULT_MAX_SHAPE_CONTACTS
                    + "); a step that finds more drops the rest and the run warns.")
    Integer maxContacts;

    /**
     * The largest {@code --max-contacts}. The step's workspaces for the bound are allocated up front and grow as its
     * square: a box on a table ran in 0.4 GB at 512, 1.3 GB at 1,024, 5 GB at 2,048 and out of memory at 4,096.
     */
    static final int MAX_CONTACTS = 1024;

    /** The {@code --max-contacts} bound, -1 for the default; a negative one is a usage error of {@code command}. */
    int maxShapeContacts(String command) throws CliException {
        if (maxContacts == null) {
            return -1;
        }
        if (maxContacts < 0 || maxContacts > MAX_CONTACTS) {
            // the step's workspaces are allocated for the bound up front: 1e8 ran out of memory (exit 1)
            throw CliException.usage(command, "--max-contacts must be a number of contacts from 0 to " + MAX_CONTACTS
                    + ", not " + maxContacts);
        }
        return maxContacts;
    }

    /** The settings these options give, the others' defaults kept; a bad value is a usage error of {@code command}. */
    ContactSettings settings(String command) throws CliException {
        ContactSettings s = ContactSettings.defaults();
        if (solver != null) {
            s = switch (solver.toLowerCase(Locale.ROOT)) {
                case "admm" -> s.solver(ContactSettings.Solver.ADMM);
                case "pgs" -> s.solver(ContactSettings.Solver.PGS);
                default -> throw CliException.usage(command, "--solver must be admm or pgs, not '" + solver + "'");
            };
        }
        try {
            if (tolerance != null) {
                s = s.tolerance(tolerance);
            }
        } catch (IllegalArgumentException e) {
            throw CliException.usage(command, "--tolerance: " + e.getMessage());
        }
        try {
            if (maxIterations != null) {
                s = s.maxIterations(maxIterations);
            }
        } catch (IllegalArgumentException e) {
            throw CliException.usage(command, "--max-iterations: " + e.getMessage());
        }
        try {
            if (penetrationSlop != null) {
                s = s.penetrationSlop(penetrationSlop);
            }
        } catch (IllegalArgumentException e) {
            throw CliException.usage(command, "--penetration-slop: " + e.getMessage());
        }
        return s;
    }
}
