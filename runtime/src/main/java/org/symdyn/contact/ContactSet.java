package org.symdyn.contact;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.symdyn.contract.ModelInfo;
import org.symdyn.model.ContactCandidateModel;
import org.symdyn.model.GroundModel;
import org.symdyn.model.Model;
import org.symdyn.model.SourceLocation;

/**
 * The unilateral contacts of one model, immutable: the grounds (half-spaces fixed in the world) and the candidates
 * (body points and spheres) that may touch them. Every candidate may touch every ground: pair p couples candidate
 * {@code p / groundCount()} with ground {@code p % groundCount()}; a pair is a contact when its gap is within the
 * settings' margin ({@link ContactKinematics}).
 *
 * <p>From a model file ({@link #of(Model)}: its {@code <symdyn:ground>}, {@code <symdyn:contact_point>} and
 * {@code <symdyn:contact_sphere>} elements) or in code ({@link #builder(ModelInfo)}), for example beside a generated
 * class when no model file is read at run time. The set holds no state; {@link ContactKinematics} and
 * {@link TimeStepper} hold the per-state data.
 */
public final class ContactSet {
    private final List<GroundModel> grounds;
    private final List<ContactCandidateModel> candidates;
    private final String modelName;

    private ContactSet(String modelName, List<GroundModel> grounds, List<ContactCandidateModel> candidates) {
        this.modelName = modelName;
        this.grounds = List.copyOf(grounds);
        this.candidates = List.copyOf(candidates);
    }

    /** The grounds and candidates a model file declares (possibly none). */
    public static ContactSet of(Model model) {
        return new ContactSet(model.name(), model.grounds(), model.contactCandidates());
    }

    /** A set made in code for a model (checked against its body count and names). */
    public static Builder builder(ModelInfo model) {
        return new Builder(model);
    }

    /** The model's name, for messages. */
    public String modelName() {
        return modelName;
    }

    public List<GroundModel> grounds() {
        return grounds;
    }

    public List<ContactCandidateModel> candidates() {
        return candidates;
    }

    public int groundCount() {
        return grounds.size();
    }

    public int candidateCount() {
        return candidates.size();
    }

    /** Candidates × grounds. */
    public int pairCount() {
        return grounds.size() * candidates.size();
    }

    /** The candidate of pair p. */
    public int candidateOf(int pair) {
        return pair / grounds.size();
    }

    /** The ground of pair p. */
    public int groundOf(int pair) {
        return pair % grounds.size();
    }

    /** "candidate@ground", the name reports use. */
    public String pairName(int pair) {
        return candidates.get(candidateOf(pair)).name() + "@" + grounds.get(groundOf(pair)).name();
    }

    @Override
    public String toString() {
        return "ContactSet{" + modelName + ", grounds=" + grounds.size() + ", candidates=" + candidates.size() + "}";
    }

    /** Builds a {@link ContactSet} in code; every argument is checked when given. */
    public static final class Builder {
        private final ModelInfo model;
        private final List<GroundModel> grounds = new ArrayList<>();
        private final List<ContactCandidateModel> candidates = new ArrayList<>();

        private Builder(ModelInfo model) {
            this.model = Objects.requireNonNull(model, "model");
        }

        /**
         * A ground through {@code point} with outward {@code normal} (any length, normalised here), Coulomb
         * friction μ ≥ 0 and restitution e in [0, 1].
         */
        public Builder ground(String name, double[] point, double[] normal, double friction, double restitution) {
            requireUnique(name, grounds.stream().map(GroundModel::name).toList(), "ground");
            requireVector(point, "ground '" + name + "': point");
            requireVector(normal, "ground '" + name + "': normal");
            double[] n = org.symdyn.spatial.Directions.unit(normal);
            if (n == null) {
                throw new IllegalArgumentException("ground '" + name + "': normal is zero");
            }
            if (!(friction >= 0) || Double.isInfinite(friction)) {
                throw new IllegalArgumentException("ground '" + name + "': friction " + friction
                        + " must be a finite number >= 0");
            }
            if (!(restitution >= 0 && restitution <= 1)) {
                throw new IllegalArgumentException("ground '" + name + "': restitution " + restitution
                        + " must be in [0, 1]");
            }
            grounds.add(new GroundModel(name, point, n, friction, restitution, SourceLocation.UNKNOWN));
            return this;
        }

        /** A point of a body (body coordinates) that may touch every ground. */
        public Builder point(String name, String body, double[] point) {
            return candidate(name, body, point, 0);
        }

        /** A sphere of a body (center in body coordinates, radius &gt; 0) that may roll on every ground. */
        public Builder sphere(String name, String body, double[] center, double radius) {
            if (!(radius > 0) || Double.isInfinite(radius)) {
                throw new IllegalArgumentException("sphere '" + name + "': radius " + radius + " must be positive");
            }
            return candidate(name, body, center, radius);
        }

        private Builder candidate(String name, String body, double[] point, double radius) {
            requireUnique(name, candidates.stream().map(ContactCandidateModel::name).toList(), "contact candidate");
            requireVector(point, "contact candidate '" + name + "': point");
            int index = model.bodyNames().indexOf(body);
            if (index < 0) {
                throw new IllegalArgumentException("contact candidate '" + name + "': model " + model.modelName()
                        + " has no moving body '" + body + "' (bodies: " + model.bodyNames() + ")");
            }
            candidates.add(new ContactCandidateModel(name, index, point, radius, SourceLocation.UNKNOWN));
            return this;
        }

        public ContactSet build() {
            return new ContactSet(model.modelName(), grounds, candidates);
        }

        private static void requireUnique(String name, List<String> taken, String what) {
            Objects.requireNonNull(name, what + " name");
            if (taken.contains(name)) {
                throw new IllegalArgumentException("duplicate " + what + " name '" + name + "'");
            }
        }

        private static void requireVector(double[] v, String what) {
            if (v == null || v.length != 3) {
                throw new IllegalArgumentException(what + " needs 3 numbers");
            }
            for (double x : v) {
                if (!Double.isFinite(x)) {
                    throw new IllegalArgumentException(what + " has a non-finite entry");
                }
            }
        }
    }
}
