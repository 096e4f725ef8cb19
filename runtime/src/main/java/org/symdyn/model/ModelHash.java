package org.symdyn.model;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.symdyn.geometry.Box;
import org.symdyn.geometry.Capsule;
import org.symdyn.geometry.ConvexHull;
import org.symdyn.geometry.Cylinder;
import org.symdyn.geometry.HalfSpace;
import org.symdyn.geometry.Shape;
import org.symdyn.geometry.Sphere;
import org.symdyn.geometry.TriangleMesh;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * The content hash of a {@link Model}: SHA-256 over everything that changes what the model computes or how its
 * coordinates, bodies, frames, constraints and parameters are named (names, tree, joint types, axes and placements,
 * inertias, gravity, frames, constraints, parameters), and over nothing else (not the file path, the file's bytes or
 * source locations). Two models with the same hash evaluate the same numbers under the same names, so a generated
 * class can be matched to the model a solver was set up with ({@link org.symdyn.contract.ModelInfo#modelHash()}),
 * also for models built in code.
 */
public final class ModelHash {
    private final MessageDigest digest;

    private ModelHash() {
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    /** The content hash of {@code model}, 64 lowercase hex digits. */
    public static String of(Model model) {
        ModelHash h = new ModelHash();
        h.text("symdyn-model-1").text(model.name()).text(model.rootName()).numbers(model.gravity());
        h.count(model.bodyCount());
        for (Body b : model.bodies()) {
            Joint j = b.joint();
            h.text(b.name()).count(b.parentIndex()).text(j.name()).text(j.type().name()).numbers(j.axis())
                    .pose(j.placement()).number(j.lower()).number(j.upper()).inertia(b.inertia())
                    .inertia(model.ownInertia(b.index()));
            if (j.armature() != 0) { // absent from the models without armature, whose hashes stay as they were
                h.text("armature").number(j.armature());
            }
        }
        h.count(model.frames().size());
        for (Frame f : model.frames()) {
            h.text(f.name()).count(f.bodyIndex()).pose(f.pose());
        }
        h.count(model.constraints().size());
        for (ConstraintModel c : model.constraints()) {
            h.text(c.typeName()).text(c.name()).count(c.rowCount()).number(c.baumgarteTimeConstant());
            if (c instanceof LoopConstraintModel loop) {
                h.count(loop.predecessorBody()).pose(loop.predecessorFrame()).count(loop.successorBody())
                        .pose(loop.successorFrame()).count(loop.axes().size());
                for (double[] a : loop.axes()) {
                    h.numbers(a);
                }
            } else if (c instanceof ContactConstraintModel contact) {
                h.count(contact.body()).numbers(contact.point()).numbers(contact.normal());
            } else if (c instanceof CouplerConstraintModel coupler) {
                h.count(coupler.joint()).count(coupler.referenceJoint()).number(coupler.ratio())
                        .number(coupler.offset());
            } else if (c instanceof LineOnLineConstraintModel lol) {
                h.count(lol.bodyF()).pose(lol.edgeF()).number(lol.halfLengthF()).count(lol.bodyB())
                        .pose(lol.edgeB()).number(lol.halfLengthB()).count(lol.rolling() ? 1 : 0);
            }
        }
        h.count(model.parameters().size());
        for (ParameterModel p : model.parameters()) {
            h.text(p.name()).text(p.field().name()).count(p.body()).number(p.value());
            h.numbers(p.direction() == null ? new double[0] : p.direction());
        }
        return HexFormat.of().formatHex(h.digest.digest());
    }

    /**
     * The scene hash of {@code model} ({@link Model#sceneHash()}), 64 lowercase hex digits: its grounds, contact
     * candidates, collision shapes (link, body, pose, kind, sizes or vertices, material) and no-contact pairs.
     */
    public static String ofScene(Model model) {
        ModelHash h = new ModelHash();
        h.text("symdyn-scene-1").count(model.grounds().size());
        for (GroundModel g : model.grounds()) {
            h.text(g.name()).numbers(g.point()).numbers(g.normal()).number(g.friction()).number(g.restitution());
        }
        h.count(model.contactCandidates().size());
        for (ContactCandidateModel c : model.contactCandidates()) {
            h.text(c.name()).count(c.body()).numbers(c.center()).number(c.radius());
        }
        SceneModel scene = model.scene();
        h.count(scene.collisionShapes().size());
        for (CollisionShapeModel c : scene.collisionShapes()) {
            h.text(c.name()).text(c.link()).count(c.body()).pose(c.pose()).shape(c.shape())
                    .number(c.material().friction()).number(c.material().restitution());
            if (c.material().frictionRule() != ContactMaterial.FrictionRule.HARMONIC_MEAN) {
                // only then: the hashes of other scenes are unchanged
                h.text(c.material().frictionRule().name()).count(c.material().priority())
                        .count(c.material().condim());
            }
        }
        h.count(scene.noContactPairs().size());
        for (NoContactPair p : scene.noContactPairs()) {
            h.text(p.link1()).text(p.link2());
        }
        return HexFormat.of().formatHex(h.digest.digest());
    }

    private ModelHash shape(Shape s) {
        if (s instanceof Sphere sp) {
            return text("sphere").number(sp.radius());
        } else if (s instanceof Capsule c) {
            return text("capsule").number(c.radius()).number(c.length());
        } else if (s instanceof Box b) {
            return text("box").number(b.halfExtent(0)).number(b.halfExtent(1)).number(b.halfExtent(2));
        } else if (s instanceof Cylinder c) {
            return text("cylinder").number(c.radius()).number(c.length());
        } else if (s instanceof HalfSpace hs) {
            return text("halfspace").number(hs.normal(0)).number(hs.normal(1)).number(hs.normal(2))
                    .number(hs.offset());
        } else if (s instanceof ConvexHull hull) {
            text("hull").count(hull.vertexCount());
            for (int i = 0; i < hull.vertexCount(); i++) {
                number(hull.vertex(i, 0)).number(hull.vertex(i, 1)).number(hull.vertex(i, 2));
            }
            return this;
        } else if (s instanceof TriangleMesh mesh) {
            text("mesh").count(mesh.vertexCount());
            for (int i = 0; i < mesh.vertexCount(); i++) {
                number(mesh.vertex(i, 0)).number(mesh.vertex(i, 1)).number(mesh.vertex(i, 2));
            }
            count(mesh.triangleCount());
            for (int t = 0; t < mesh.triangleCount(); t++) {
                count(mesh.triangleVertex(t, 0)).count(mesh.triangleVertex(t, 1)).count(mesh.triangleVertex(t, 2));
            }
            return this;
        }
        throw new IllegalArgumentException("no hash rule for shape " + s);
    }

    private ModelHash text(String s) {
        byte[] b = (s == null ? "" : s).getBytes(StandardCharsets.UTF_8);
        count(b.length);
        digest.update(b);
        return this;
    }

    private ModelHash count(int n) {
        digest.update((byte) (n >>> 24));
        digest.update((byte) (n >>> 16));
        digest.update((byte) (n >>> 8));
        digest.update((byte) n);
        return this;
    }

    private ModelHash number(double x) {
        long bits = Double.doubleToLongBits(x == 0 ? 0.0 : x); // -0 and 0 are the same model
        for (int s = 56; s >= 0; s -= 8) {
            digest.update((byte) (bits >>> s));
        }
        return this;
    }

    private ModelHash numbers(double[] x) {
        count(x.length);
        for (double v : x) {
            number(v);
        }
        return this;
    }

    private ModelHash pose(Pose p) {
        numbers(p.rotationArray());
        return numbers(p.translationArray());
    }

    private ModelHash inertia(RigidBodyInertia in) {
        number(in.mass());
        numbers(in.comArray());
        return numbers(in.inertiaAboutComArray());
    }
}
