package org.symdyn.io.mjcf;

import java.util.List;
import org.symdyn.io.Messages;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.Frame;
import org.symdyn.model.JointType;
import org.symdyn.model.LoopConstraintModel;
import org.symdyn.model.ModelBuilder;
import org.symdyn.spatial.Pose;

/**
 * {@code <equality>} constraints as the model's constraints (no Baumgarte time constant: stabilisation off), by
 * MuJoCo's definitions:
 * <ul>
 * <li>{@code connect body1 body2 anchor}: the point {@code anchor} of body1's frame and the point of body2 that
 * coincides with it at the reference configuration (every joint at its {@code ref}) stay together: a
 * {@link LoopConstraintModel} with the three translational rows. {@code body2} defaults to the world. With
 * {@code site1 site2} instead, the two sites' origins stay together.</li>
 * <li>{@code weld body1 body2 relpose anchor torquescale}: the frame at {@code anchor} of body2 (body2's axes)
 * coincides with the frame {@code relpose} of body1 (pos, quaternion w x y z) when its quaternion is nonzero, else
 * with the frame of body1 that coincides with it at the reference configuration: six rows, or the three
 * translational ones with {@code torquescale="0"} (which scales the rotational rows: any other value gives the same
 * exact constraint). With {@code site1 site2}, the two site frames coincide.</li>
 * <li>{@code joint joint1 joint2 polycoef}: q₁ − q₁⁰ = c₀ + c₁ (q₂ − q₂⁰) with q⁰ the joints' {@code ref}: a
 * {@link CouplerConstraintModel} q₁ = c₁ q₂ + (q₁⁰ + c₀ − c₁ q₂⁰). The higher coefficients must be 0 and joint2 must
 * be given (a located error otherwise).</li>
 * <li>{@code tendon}: see {@link TendonCouplings}; {@code flex} and other kinds: an error. An equality with
 * {@code active="false"} is left out with a warning (it does not act until switched on).</li>
 * </ul>
 * An unnamed equality is named {@code <kind><k>} (k counting from 1 in the section's order), made unique.
 */
final class EqualityReader {
    private static final List<double[]> TRANSLATION = List.of(new double[] {0, 0, 0, 1, 0, 0},
            new double[] {0, 0, 0, 0, 1, 0}, new double[] {0, 0, 0, 0, 0, 1});
    private static final List<double[]> ALL = List.of(new double[] {1, 0, 0, 0, 0, 0},
            new double[] {0, 1, 0, 0, 0, 0}, new double[] {0, 0, 1, 0, 0, 0}, new double[] {0, 0, 0, 1, 0, 0},
            new double[] {0, 0, 0, 0, 1, 0}, new double[] {0, 0, 0, 0, 0, 1});

    private final MjcfSource source;
    private final DefaultClasses defaults;
    private final ModelBuilder builder;
    private final BodyTreeReader tree;
    private final TendonCouplings tendons;

    /** A point or frame on a model body: body index (−1 the world) and the frame in that body. */
    private record Attachment(int body, Pose frame) {
    }

    EqualityReader(MjcfSource source, DefaultClasses defaults, ModelBuilder builder, BodyTreeReader tree,
            TendonCouplings tendons) {
        this.source = source;
        this.defaults = defaults;
        this.builder = builder;
        this.tree = tree;
        this.tendons = tendons;
    }

    void read(List<XmlElement> sections) {
        List<XmlElement> entries = source.entries(sections);
        UniqueNames names = new UniqueNames(entries);
        for (int k = 1; k <= entries.size(); k++) {
            XmlElement e = entries.get(k - 1);
            ValueReader v = source.values(e);
            ResolvedElement r = ResolvedElement.of(e, "equality", null, defaults, source);
            String name = e.attribute("name") != null ? e.attribute("name") : names.next(e.name() + k);
            if (!r.bool("active", true, "equality '" + name + "' active")) {
                v.warning(e, "equality '" + name + "' is inactive (active=\"false\"); left out");
                continue;
            }
            String label = e.name() + " '" + name + "'";
            switch (e.name()) {
                case "connect" -> connect(e, v, name, label);
                case "weld" -> weld(e, v, name, label);
                case "joint" -> joint(e, v, name, label);
                case "tendon" -> tendons.refuse(e, "equality '" + name + "'", String.valueOf(e.attribute(
                        "tendon1")));
                default -> v.error(e, "equality <" + Messages.cut(e.name()) + "> is not supported (connect, weld"
                        + " and joint are)");
            }
        }
    }

    private void connect(XmlElement e, ValueReader v, String name, String label) {
        if (e.has("site1") || e.has("site2")) {
            // The three translational rows hold the site origins together whatever frame they are written in.
            sites(e, v, name, label, TRANSLATION);
            return;
        }
        MjcfBody b1 = body(e, v, "body1", true, label);
        MjcfBody b2 = body(e, v, "body2", false, label);
        double[] anchor = v.vector(e, "anchor", 3, null, label + ": anchor");
        if (b1 == null || b2 == null) {
            return;
        }
        double[] world = new double[3];
        b1.world0().transformPoint(anchor, world);
        double[] in2 = new double[3];
        b2.world0().inverse().transformPoint(world, in2);
        add(e, v, name, label, on(b1, Pose.translation(anchor[0], anchor[1], anchor[2])),
                on(b2, Pose.translation(in2[0], in2[1], in2[2])), TRANSLATION);
    }

    private void weld(XmlElement e, ValueReader v, String name, String label) {
        double torquescale = v.number(e, "torquescale", 1, false, label + ": torquescale");
        // torquescale scales the rotational rows; an exact constraint is the same at any nonzero scale, and at 0 the
        // weld holds the point alone (a connect).
        List<double[]> rows = torquescale == 0 ? TRANSLATION : ALL;
        if (e.has("site1") || e.has("site2")) {
            sites(e, v, name, label, rows);
            return;
        }
        MjcfBody b1 = body(e, v, "body1", true, label);
        MjcfBody b2 = body(e, v, "body2", false, label);
        double[] anchor = v.vector(e, "anchor", 3, new double[3], label + ": anchor");
        double[] rel = v.vector(e, "relpose", 7, new double[] {0, 1, 0, 0, 0, 0, 0}, label + ": relpose");
        if (b1 == null || b2 == null) {
            return;
        }
        Pose atAnchor = Pose.translation(anchor[0], anchor[1], anchor[2]);
        Pose onOne;
        if (rel[3] == 0 && rel[4] == 0 && rel[5] == 0 && rel[6] == 0) {
            onOne = b1.world0().inverse().compose(b2.world0()).compose(atAnchor);
        } else {
            // MuJoCo's weld holds x₁ + R₁ p_rel = x₂ + R₂ anchor and R₁ R_rel = R₂: relpose is body1's frame of
            // the weld, anchor body2's (not relpose composed with the anchor).
            onOne = Pose.of(Orientations.matrix(new double[] {rel[3], rel[4], rel[5], rel[6]}),
                    new double[] {rel[0], rel[1], rel[2]});
        }
        add(e, v, name, label, on(b1, onOne), on(b2, atAnchor), rows);
    }

    /** The constraint between the frames of {@code site1} and {@code site2}. */
    private void sites(XmlElement e, ValueReader v, String name, String label, List<double[]> axes) {
        Attachment p = site(e, v, "site1", label);
        Attachment s = site(e, v, "site2", label);
        if (p != null && s != null) {
            add(e, v, name, label, p, s, axes);
        }
    }

    private void add(XmlElement e, ValueReader v, String name, String label, Attachment p, Attachment s,
            List<double[]> axes) {
        if (p.body() == s.body()) {
            v.warning(e, label + ": both sides move with the same body, so it constrains nothing; left out");
            return;
        }
        builder.addConstraint(new LoopConstraintModel(name, p.body(), p.frame(), s.body(), s.frame(), axes,
                Double.NaN, v.location(e)));
    }

    private void joint(XmlElement e, ValueReader v, String name, String label) {
        String j1 = v.require(e, "joint1", label + " has no joint1");
        double[] c = v.vector(e, "polycoef", 5, new double[] {0, 1, 0, 0, 0}, label + ": polycoef");
        String j2 = e.attribute("joint2");
        if (j1 == null) {
            return;
        }
        if (j2 == null) {
            v.error(e, label + ": a joint equality without joint2 (a joint held at a position) is not supported");
            return;
        }
        if (c[2] != 0 || c[3] != 0 || c[4] != 0) {
            v.error(e, label + ": polycoef " + c[2] + " " + c[3] + " " + c[4] + ": only a linear coupling"
                    + " (c0 + c1 q2) is supported");
            return;
        }
        MjcfJoint a = tree.joints().get(j1);
        MjcfJoint b = tree.joints().get(j2);
        if (a == null || b == null) {
            tree.reportMissingJoint(v, e, a == null ? j1 : j2, label);
            return;
        }
        if (!a.type().isSingleDof() || !b.type().isSingleDof() || a.type() == JointType.PLANAR) {
            v.error(e, label + ": both joints must be hinge or slide joints");
            return;
        }
        double offset = a.ref() + c[0] - c[1] * b.ref();
        builder.addConstraint(new CouplerConstraintModel(name, builder.bodyIndexOfJoint(j1),
                builder.bodyIndexOfJoint(j2), c[1], offset, Double.NaN, v.location(e)));
    }

    private MjcfBody body(XmlElement e, ValueReader v, String attribute, boolean required, String label) {
        String name = e.attribute(attribute);
        if (name == null) {
            if (required) {
                v.error(e, label + " has no " + attribute);
                return null;
            }
            return tree.bodies().get(BodyTreeReader.WORLD);
        }
        MjcfBody b = tree.bodies().get(name);
        if (b == null) {
            v.error(e, label + ": " + attribute + " '" + Messages.cut(name) + "' is not a body");
        }
        return b;
    }

    private Attachment site(XmlElement e, ValueReader v, String attribute, String label) {
        String name = v.require(e, attribute, label + " has no " + attribute);
        if (name == null) {
            return null;
        }
        MjcfSite site = tree.sites().get(name);
        if (site == null) {
            v.error(e, label + ": " + attribute + " '" + Messages.cut(name) + "' is not a site");
            return null;
        }
        return on(site.body(), site.inBody());
    }

    /** A frame given in an MJCF body's frame, on the model body that carries it. */
    private Attachment on(MjcfBody body, Pose inBody) {
        Frame f = builder.frame(body.link());
        if (f == null) {
            return new Attachment(-1, inBody);
        }
        return new Attachment(f.bodyIndex(), f.pose().compose(body.bodyInLink()).compose(inBody));
    }
}
