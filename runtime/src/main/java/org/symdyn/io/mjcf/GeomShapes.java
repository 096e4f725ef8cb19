package org.symdyn.io.mjcf;

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
 * (restitution 0), any other a visual shape with its {@code rgba}.</li>
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
    private final MjcfSource source;
    private final ModelBuilder builder;
    private final MeshLoader meshes;

    GeomShapes(MjcfSource source, ModelBuilder builder, MeshPolicy meshes) {
        this.source = source;
        this.builder = builder;
        // The files are already resolved against meshdir: no package path is needed, nor a folder to resolve in.
        this.meshes = new MeshLoader(meshes, PackagePath.of(List.of(), null), null);
    }

    void add(List<Map.Entry<GeomDeclaration, MjcfBody>> geoms, Map<String, MjcfBody> bodies,
            List<XmlElement> contacts) {
        for (Map.Entry<GeomDeclaration, MjcfBody> entry : geoms) {
            add(entry.getKey(), entry.getValue());
        }
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

    private void add(GeomDeclaration g, MjcfBody body) {
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
            return;
        }
        if (shape == null) {
            return;
        }
        Pose inLink = body.bodyInLink().compose(g.inBody());
        if (g.collides()) {
            builder.addCollisionShape(g.name(), body.link(), inLink, shape, new ContactMaterial(g.friction(), 0),
                    at);
        } else {
            builder.addVisualShape(body.link(), inLink, shape, g.rgba(), at);
        }
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
            return null;
        }
        if (g.meshFile() == null) {
            r.warning(label + ": its mesh has no file; left out");
            return null;
        }
        return meshes.load(r.values(), r.element(), g.meshFile(), g.meshScale(), null, label, g.collides());
    }
}
