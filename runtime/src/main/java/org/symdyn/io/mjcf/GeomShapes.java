package org.symdyn.io.mjcf;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.symdyn.geometry.Box;
import org.symdyn.geometry.Capsule;
import org.symdyn.geometry.Cylinder;
import org.symdyn.geometry.HalfSpace;
import org.symdyn.geometry.Shape;
import org.symdyn.geometry.Sphere;
import org.symdyn.io.MeshLoader;
import org.symdyn.io.MeshPolicy;
import org.symdyn.io.Messages;
import org.symdyn.io.PackagePath;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;
import org.symdyn.model.ContactMaterial;
import org.symdyn.model.ModelBuilder;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;

/**
 * Geoms as the model's shapes, and {@code <contact>} exclusions:
 * <ul>
 * <li>A geom collides unless both its {@code contype} and {@code conaffinity} are 0 (Menagerie's {@code visual}
 * class): a colliding geom is a collision shape with friction μ = the first number of {@code friction}
 * (restitution 0), combined with another geom's by MuJoCo's rules of {@code priority} and {@code condim}
 * ({@link ContactMaterial.FrictionRule#MAXIMUM}), and also a visual shape (its {@code rgba}, or its material's) in
 * the groups MuJoCo draws by default (0 to 2); any other geom a visual shape.</li>
 * <li>Shapes: sphere; capsule (SymDyn's length is MuJoCo's two half-lengths); cylinder; box (half-sizes); plane as
 * a half-space below the geom's xy plane, only on the world body (a plane on a moving body is left out with a
 * warning); mesh from its file (the compiler's meshdir, relative to the model file), STL, OBJ or Collada, scaled by
 * the asset's scale, each file read once ({@link MeshLoader}); a missing or unreadable file is an error at the geom
 * or a warning with the geom left out, as the reader's {@link MeshPolicy} says, and under {@link MeshPolicy#SKIP}
 * mesh geoms are left out without a word. Ellipsoid,
 * height-field and SDF geoms are left out with a located warning.</li>
 * <li>{@code <contact><exclude body1 body2/>}: the two bodies' links never touch
 * ({@link ModelBuilder#addNoContact}); {@code <pair>} is a warning (not read).</li>
 * </ul>
 */
final class GeomShapes {
    /**
     * MuJoCo draws every geom, colliding or not, of groups 0 to 2 by default; Menagerie's collision geoms are in
     * group 3, drawn only on request, and their visual meshes in group 2.
     */
    private static final int MAX_DRAWN_GROUP = 2;

    private final MjcfSource source;
    private final ModelBuilder builder;
    private final MeshLoader meshes;
    private final boolean contactDisabled;

    /** @param contactDisabled {@code <option><flag contact="disable"/>}: every geom is a visual shape */
    GeomShapes(MjcfSource source, ModelBuilder builder, MeshPolicy meshes, boolean contactDisabled) {
        this.source = source;
        this.builder = builder;
        this.contactDisabled = contactDisabled;
        // The files are already resolved against meshdir: no package path is needed, nor a folder to resolve in.
        this.meshes = new MeshLoader(meshes, PackagePath.of(List.of(), null), null);
    }

    void add(List<Map.Entry<GeomDeclaration, MjcfBody>> geoms, Map<String, MjcfBody> bodies,
            List<XmlElement> contacts) {
        List<Map.Entry<GeomDeclaration, MjcfBody>> colliding = new ArrayList<>();
        for (Map.Entry<GeomDeclaration, MjcfBody> entry : geoms) {
            if (add(entry.getKey(), entry.getValue())) {
                colliding.add(entry);
            }
        }
        filterByBitMasks(colliding);
        for (XmlElement contact : contacts) {
            for (XmlElement c : source.children(contact)) {
                ValueReader v = source.values(c);
                if (c.is("exclude")) {
                    MjcfBody b1 = body(c, "body1", bodies);
                    MjcfBody b2 = body(c, "body2", bodies);
                    if (b1 != null && b2 != null) {
                        builder.addNoContact(b1.link(), b2.link(), v.location(c));
                    }
                } else if (c.is("pair")) {
                    v.warning(c, "contact <pair> is not read: geoms touch by the model's own rule");
                } else {
                    v.warning(c, "unknown element <" + Messages.cut(c.name()) + "> in <contact>; ignored");
                }
            }
        }
    }

    private MjcfBody body(XmlElement e, String attribute, Map<String, MjcfBody> bodies) {
        ValueReader v = source.values(e);
        String name = v.require(e, attribute, "<" + e.name() + "> has no '" + attribute + "' attribute");
        if (name == null) {
            return null;
        }
        MjcfBody b = bodies.get(name);
        if (b == null) {
            v.error(e, "<" + e.name() + "> " + attribute + " '" + Messages.cut(name) + "' is not a body");
        }
        return b;
    }

    /**
     * MuJoCo lets two geoms collide when the {@code contype} of either shares a bit with the other's
     * {@code conaffinity}; SymDyn excludes pairs of links ({@link ModelBuilder#addNoContact}). Two links none of whose
     * geom pairs passes that test never touch; links where some pairs pass and others do not touch by every pair,
     * with a warning at the first pair MuJoCo would skip. Compared by classes of equal masks (a model has a few), so
     * that the usual model, whose masks all pass, costs one pass over its geoms.
     */
    private void filterByBitMasks(List<Map.Entry<GeomDeclaration, MjcfBody>> colliding) {
        // per link, the first geom of each mask class, in order
        Map<String, Map<List<Long>, GeomDeclaration>> byLink = new LinkedHashMap<>();
        Map<List<Long>, Boolean> classes = new LinkedHashMap<>();
        for (Map.Entry<GeomDeclaration, MjcfBody> e : colliding) {
            GeomDeclaration g = e.getKey();
            List<Long> masks = List.of(g.contype(), g.conaffinity());
            classes.put(masks, Boolean.TRUE);
            byLink.computeIfAbsent(e.getValue().link(), k -> new LinkedHashMap<>()).putIfAbsent(masks, g);
        }
        boolean allPass = true;
        for (List<Long> x : classes.keySet()) {
            for (List<Long> y : classes.keySet()) {
                allPass &= collide(x, y);
            }
        }
        if (allPass) {
            return;
        }
        List<String> links = new ArrayList<>(byLink.keySet());
        int mixed = 0;
        GeomDeclaration[] firstMixed = null;
        String[] firstLinks = null;
        for (int i = 0; i < links.size(); i++) {
            Map<List<Long>, GeomDeclaration> a = byLink.get(links.get(i));
            for (int j = i + 1; j < links.size(); j++) {
                Map<List<Long>, GeomDeclaration> b = byLink.get(links.get(j));
                boolean any = false;
                GeomDeclaration[] skipped = null;
                for (Map.Entry<List<Long>, GeomDeclaration> x : a.entrySet()) {
                    for (Map.Entry<List<Long>, GeomDeclaration> y : b.entrySet()) {
                        if (collide(x.getKey(), y.getKey())) {
                            any = true;
                        } else if (skipped == null) {
                            skipped = new GeomDeclaration[] {x.getValue(), y.getValue()};
                        }
                    }
                }
                if (skipped == null) {
                    continue;
                }
                ResolvedElement at = skipped[0].resolved();
                if (!any) {
                    builder.addNoContact(links.get(i), links.get(j), at.values().location(at.element()));
                } else if (mixed++ == 0) {
                    firstMixed = skipped;
                    firstLinks = new String[] {links.get(i), links.get(j)};
                }
            }
        }
        if (mixed > 0 && !meshes.skips()) {
            // one warning, not one per pair of links: the dynamics never see it, and a large model has many
            ResolvedElement at = firstMixed[0].resolved();
            at.warning(name(firstMixed[0]) + " and " + name(firstMixed[1]) + ": their contype and conaffinity keep"
                    + " them apart in MuJoCo, but other geoms of links '" + firstLinks[0] + "' and '" + firstLinks[1]
                    + "' collide, and SymDyn keeps pairs of links apart, not of geoms: they collide here"
                    + (mixed > 1 ? " (and so in " + (mixed - 1) + " more pairs of links)" : ""));
        }
    }

    /** MuJoCo's test on two geoms' (contype, conaffinity). */
    private static boolean collide(List<Long> a, List<Long> b) {
        return (a.get(0) & b.get(1)) != 0 || (b.get(0) & a.get(1)) != 0;
    }

    private static String name(GeomDeclaration g) {
        return g.name() == null ? "an unnamed geom" : "geom '" + Messages.cut(g.name()) + "'";
    }

    /** Adds the geom's shape; true if it is a collision shape. */
    private boolean add(GeomDeclaration g, MjcfBody body) {
        ResolvedElement r = g.resolved();
        String label = "geom" + (g.name() == null ? "" : " '" + Messages.cut(g.name()) + "'") + " of body '"
                + body.name() + "'";
        SourceLocation at = r.values().location(r.element());
        double[] s = g.size();
        Shape shape;
        try {
            shape = switch (g.type()) {
                case "sphere" -> new Sphere(s[0]);
                case "capsule" -> s[1] > 0 ? new Capsule(s[0], 2 * s[1]) : new Sphere(s[0]);
                case "cylinder" -> new Cylinder(s[0], 2 * s[1]);
                case "box" -> new Box(s[0], s[1], s[2]);
                case "plane" -> plane(r, body, label);
                case "mesh" -> mesh(g, label);
                default -> {
                    r.warning(label + ": " + g.type() + " geoms are not supported as shapes; left out");
                    yield null;
                }
            };
        } catch (IllegalArgumentException e) {
            r.error(label + ": " + e.getMessage());
            return false;
        }
        if (shape == null) {
            return false;
        }
        Pose inLink = body.bodyInLink().compose(g.inBody());
        if (g.collides() && !contactDisabled) {
            if (g.condim() > 3 && !meshes.skips()) {
                r.warning(label + ": condim " + g.condim() + " is read as 3: torsional and rolling friction are not"
                        + " modelled");
            }
            builder.addCollisionShape(g.name(), body.link(), inLink, shape, new ContactMaterial(g.friction(), 0,
                    ContactMaterial.FrictionRule.MAXIMUM, g.priority(), g.condim()), at);
            if (g.group() >= 0 && g.group() <= MAX_DRAWN_GROUP) {
                builder.addVisualShape(body.link(), inLink, shape, g.rgba(), at);
            }
            return true;
        }
        builder.addVisualShape(body.link(), inLink, shape, g.rgba(), at);
        return false;
    }

    private Shape plane(ResolvedElement r, MjcfBody body, String label) {
        if (!body.name().equals(BodyTreeReader.WORLD)) {
            r.warning(label + ": a plane is a ground only on the world body; left out");
            return null;
        }
        return new HalfSpace(0, 0, 1, 0);
    }

    private Shape mesh(GeomDeclaration g, String label) {
        ResolvedElement r = g.resolved();
        if (meshes.skips()) {
            if (g.collides() && !contactDisabled) {
                builder.leftOutCollisionMesh(r.values().location(r.element()));
            }
            return null;
        }
        if (g.meshFile() == null) {
            r.warning(label + ": its mesh has no file; left out");
            return null;
        }
        return meshes.load(r.values(), r.element(), g.meshFile(), g.meshScale(), null, label, g.collides());
    }
}
