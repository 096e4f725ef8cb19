package org.symdyn.contact;

import java.util.Objects;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Kinematics;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.contract.ModelPart;
import org.symdyn.model.ContactCandidateModel;
import org.symdyn.model.GroundModel;
import org.symdyn.spatial.Directions;

/**
 * The contacts of a {@link ContactSet} at one configuration: which candidate-ground pairs are within a margin of
 * touching, and for each such contact its gap, its frame and the Jacobian of its contact point; then the contacts
 * between its collision shapes ({@link ShapeContactDetection}), after the pairs' contacts.
 *
 * <p><b>Shape contacts.</b> Contact k between shapes A and B (B on a moving body; A on another body, the scenery or
 * a ground) has the manifold's normal n from A towards B and the frame (t1, t2, n) of
 * {@link Directions#tangentBasis}(n); its rows are [n; t1; t2] (J_B(b) − J_A(a)), J_X(p) the world point Jacobian
 * of body X at the material point currently at its witness, so u = J v is B's witness velocity relative to A's
 * (u_n &gt; 0 separating) and λ acts on B as λ_n n + λ_t1 t1 + λ_t2 t2 at b and on A as its opposite at a. Its
 * friction and restitution are the shapes' materials combined ({@link org.symdyn.model.ContactMaterial}).
 * {@link #body(int)} is B's body, {@link #otherBody(int)} A's (−1: the world); {@link #pair(int)},
 * {@link #candidate(int)} and {@link #ground(int)} are −1. A contact can also be <i>held</i>
 * ({@link HeldShapeContacts}): fixed as material points over an interval of motion, evaluated at any configuration
 * by {@link #update(double[], boolean[], HeldShapeContacts, boolean)}; the continuous-time system holds its shape
 * contacts over each segment.
 *
 * <p><b>Geometry.</b> Ground g is the half-space n · (x − p_g) ≤ 0 (n its unit outward normal). A point candidate
 * at c (body coordinates, world position x_c) has the gap φ = n · (x_c − p_g); a sphere of radius r centred at c has
 * φ = n · (x_c − p_g) − r and touches at x_c − r n, the material point of the sphere that is nearest the ground
 * (it moves over the sphere as it rolls). φ &lt; 0 is penetration.
 *
 * <p><b>Contact frame</b>, world coordinates, right-handed: (t1, t2, n) from {@link Directions#tangentBasis} of the
 * ground's normal; the same for every contact on one ground, so that friction components keep their meaning from
 * step to step. Per contact the three rows are ordered <b>[n; t1; t2]</b>: normal first, then the two tangents; an
 * impulse or force λ = (λ_n, λ_t1, λ_t2) acts on the candidate's body as the world force λ_n n + λ_t1 t1 + λ_t2 t2 at
 * the contact point (the ground pushes, λ_n ≥ 0), and enters the equations of motion as Jᵀ λ.
 *
 * <p><b>Jacobian</b> J (3 rows per contact, nv columns, row-major): the rows [n; t1; t2] times the world point
 * Jacobian ({@link Kinematics#pointJacobian}) of the contact's material point, so u = J v is the contact point's
 * velocity in the contact frame (u_n &gt; 0 separating). {@link #accelerationBias} gives the matching k-terms of the
 * acceleration-level problem: u̇ = J v̇ + k, with k = [n; t1; t2] (J̇_c v − r α_b × n), J̇_c v the bias acceleration
 * of the centre c and α_b the world angular acceleration at v̇ = 0 (r = 0 for points).
 *
 * <p>Everything is allocated at construction for every pair; {@link #update} does not allocate. Not thread-safe.
 */
public final class ContactKinematics {
    private final ContactSet set;
    private final Kinematics kinematics;
    private final int nv;
    private final int pairs;
    private final double[][] groundPoint;
    private final double[][] groundFrame; // per ground: n, t1, t2 (9)
    private final double[] friction;
    private final double[] restitution;
    private final int[] candidateBody;
    private final double[][] candidateCenter;
    private final double[] candidateRadius;

    private final ShapeContactDetection shapes; // null without collision shapes
    private final int capacity;

    private int count;
    private int dropped;
    private final int[] pairOf; // the candidate-ground pair, -1 for a shape contact
    private final int[] shapeContact; // the detection's index of a shape contact, -1 for a pair or a held contact
    private final int[] heldOf; // the held contact's index, -1 otherwise
    private final int[] shapeAOf; // shape A of a shape contact (grounds after the shapes), -1 for a pair
    private final int[] shapeBOf; // shape B of a shape contact, -1 for a pair
    private final double[] roundB; // held contacts: B's radius of curvature (0: flat, and for every other contact)
    private final double[] roundA;
    private final double[] centreB; // 3 per contact: B's centre of curvature, B's coordinates (roundB > 0)
    private final double[] centreA; // 3 per contact: A's centre of curvature, A's coordinates (roundA > 0, A moving)
    // detected shape contacts: each side's rounding radius (a sphere's, a capsule's, else 0), its core point (the
    // witness moved in by it) kept in centreB / centreA
    private final double[] coreRadiusB;
    private final double[] coreRadiusA;
    private final int[] faceSide; // detected shape contacts: ShapeContactDetection.face
    private final double[] shapeRoundness;
    private final boolean[] shapeSphere;
    private final boolean[] shapePolyhedral;
    private final boolean[] shapeCapsule;
    /** Per shape, a cylinder's radius (0 for every other shape): its side's rounding ({@link #roundingAt}). */
    private final double[] shapeCylinderRadius;
    private final double[] axisScratch = new double[3];
    private final double[] rotationB = new double[9];
    private final double[] originB = new double[3];
    private final double[] heldB = new double[3];
    private final double[] heldA = new double[3];
    private final int[] bodyB; // the body pushed along +n
    private final int[] bodyA; // the body pushed along -n, -1 for the world
    private final double[] gap;
    private final double[] frame; // 9 per contact: n, t1, t2 (world)
    private final double[] contactFriction;
    /** μ for every contact instead of the grounds' and materials' ({@link #setFriction}); NaN: theirs. */
    private double frictionOverride = Double.NaN;
    private final double[] contactRestitution;
    private final double[] bodyPoint; // 3 per contact: the contact's material point, body coordinates
    private final double[] otherBodyPoint; // 3 per contact: A's witness in A's coordinates (shape contacts)
    private final double[] worldPoint; // 3 per contact
    private final double[] jacobian;
    /** Non-null: rows kept on their supports (see the constructor), {@code stride} entries reserved per contact. */
    private final DofBranches branches;
    private final int stride;
    private final int[] support;
    private final int[] supportLength;
    private final double[] rowValues;
    private final double[] t1 = new double[3];
    private final double[] t2 = new double[3];
    private final double[] nScratch = new double[3];
    private final DMatrixRMaj otherJacobian;

    private final double[] rotation = new double[9];
    private final double[] origin = new double[3];
    private final double[] centerWorld = new double[3];
    private final double[] centerVelocity = new double[3];
    private final double[] tmp3 = new double[3];
    private final double[] tmp6 = new double[6];
    private final double[] zeroV;
    private final DMatrixRMaj pointJacobian;
    /** The body whose branch {@link #pointJacobian} holds (sparse rows: zero elsewhere); −1 none. */
    private int pointJacobianBody = -1;
    private int otherJacobianBody = -1;

    /**
     * @param kinematics any backend's kinematics (a generated class or {@code GenericDynamics}) of the set's model
     * @param nv         the model's velocity count
     */
    public ContactKinematics(ContactSet set, Kinematics kinematics, int nv) {
        this(set, kinematics, nv, null);
    }

    /**
     * As {@link #ContactKinematics(ContactSet, Kinematics, int)}, with the Jacobian kept on each contact's support
     * when {@code sparseRows} is given: the rows of a contact between bodies A and B are non-zero only on the union
     * of their branches ({@link DofBranches}), at most 2 depth entries each, and only those are computed and stored
     * ({@link #supportLength}, {@link #support}, {@link #rowValue}); {@link #jacobian()} is then unavailable. For
     * many bodies, where a dense row would be nv entries of which twelve are not zero. Null: dense rows.
     */
    public ContactKinematics(ContactSet set, Kinematics kinematics, int nv, DofBranches sparseRows) {
        if (kinematics instanceof ModelFunctions functions) {
            ModelFunctions.requirePart(functions, ModelPart.KINEMATICS,
                    "contact kinematics");
        }
        this.set = Objects.requireNonNull(set, "set");
        this.kinematics = Objects.requireNonNull(kinematics, "kinematics");
        this.nv = nv;
        this.pairs = set.pairCount();
        int ng = set.groundCount();
        groundPoint = new double[ng][];
        groundFrame = new double[ng][9];
        friction = new double[ng];
        restitution = new double[ng];
        for (int g = 0; g < ng; g++) {
            GroundModel gm = set.grounds().get(g);
            groundPoint[g] = gm.point();
            double[] n = gm.normal();
            double[] t1 = new double[3];
            double[] t2 = new double[3];
            Directions.tangentBasis(n, t1, t2);
            System.arraycopy(n, 0, groundFrame[g], 0, 3);
            System.arraycopy(t1, 0, groundFrame[g], 3, 3);
            System.arraycopy(t2, 0, groundFrame[g], 6, 3);
            friction[g] = gm.friction();
            restitution[g] = gm.restitution();
        }
        int nc = set.candidateCount();
        candidateBody = new int[nc];
        candidateCenter = new double[nc][];
        candidateRadius = new double[nc];
        for (int c = 0; c < nc; c++) {
            ContactCandidateModel cm = set.candidates().get(c);
            candidateBody[c] = cm.body();
            candidateCenter[c] = cm.center();
            candidateRadius[c] = cm.radius();
        }
        shapes = set.shapeCount() == 0 ? null : new ShapeContactDetection(set, kinematics);
        // per shape, its rounding (a sphere's, a capsule's radius), read for every shape contact detected
        shapeRoundness = new double[set.shapeCount()];
        shapeSphere = new boolean[set.shapeCount()];
        shapePolyhedral = new boolean[set.shapeCount()];
        shapeCapsule = new boolean[set.shapeCount()];
        shapeCylinderRadius = new double[set.shapeCount()];
        for (int i = 0; i < shapeRoundness.length; i++) {
            org.symdyn.geometry.Shape shape = shapes.placements().shape(i);
            shapeRoundness[i] = roundness(i);
            shapeSphere[i] = shape instanceof org.symdyn.geometry.Sphere;
            shapeCapsule[i] = shape instanceof org.symdyn.geometry.Capsule;
            shapeCylinderRadius[i] = shape instanceof org.symdyn.geometry.Cylinder c ? c.radius() : 0;
            shapePolyhedral[i] = shape instanceof org.symdyn.geometry.Box
                    || shape instanceof org.symdyn.geometry.ConvexHull || shape instanceof org.symdyn.geometry.TriangleMesh;
        }
        capacity = pairs + (shapes == null ? 0 : shapes.capacity());
        pairOf = new int[capacity];
        shapeContact = new int[capacity];
        heldOf = new int[capacity];
        shapeAOf = new int[capacity];
        shapeBOf = new int[capacity];
        roundB = new double[capacity];
        roundA = new double[capacity];
        centreB = new double[3 * capacity];
        centreA = new double[3 * capacity];
        coreRadiusB = new double[capacity];
        coreRadiusA = new double[capacity];
        faceSide = new int[capacity];
        bodyB = new int[capacity];
        bodyA = new int[capacity];
        gap = new double[capacity];
        frame = new double[9 * capacity];
        contactFriction = new double[capacity];
        contactRestitution = new double[capacity];
        bodyPoint = new double[3 * capacity];
        otherBodyPoint = new double[3 * capacity];
        worldPoint = new double[3 * capacity];
        branches = sparseRows;
        if (sparseRows != null && sparseRows.size() != nv) {
            throw new IllegalArgumentException("the dof branches are for " + sparseRows.size() + " dofs, not " + nv);
        }
        stride = sparseRows == null ? 0 : 2 * sparseRows.maxDepth();
        jacobian = new double[sparseRows == null ? 3 * capacity * nv : 1];
        support = new int[Math.max(1, capacity * stride)];
        supportLength = new int[capacity];
        rowValues = new double[Math.max(1, 3 * capacity * stride)];
        zeroV = new double[nv];
        pointJacobian = new DMatrixRMaj(3, nv);
        otherJacobian = new DMatrixRMaj(3, nv);
    }

    /** The most contacts one update finds: every candidate-ground pair, and the set's bound on shape contacts. */
    public int capacity() {
        return capacity;
    }

    public ContactSet set() {
        return set;
    }

    /** The number of velocity coordinates (columns of the Jacobian). */
    public int nv() {
        return nv;
    }

    /**
     * Finds the contacts at q, the pairs with gap ≤ {@code margin} (m), in pair order, and computes their frames
     * and Jacobians.
     */
    public void update(double[] q, double margin) {
        update(q, null, 0, margin);
    }

    /**
     * As {@link #update(double[], double)}, but a pair is a contact when its gap predicted after a step h at the
     * current normal speed, φ + h min(0, n · ṗ_c), is at most {@code margin}: a fast approach is caught in the step
     * that would otherwise pass through the ground.
     */
    public void update(double[] q, double[] v, double h, double margin) {
        update(q, v, h, margin, null);
    }

    /**
     * As {@link #update(double[], double)}, but the contacts are exactly the pairs marked in {@code pairs} (one entry
     * per pair of the set), whatever their gaps: for a caller that decided the active set itself (the hybrid
     * continuous-time system keeps it fixed over an integrator step). Allocation-free.
     *
     * @throws IllegalStateException when the set has collision shapes, whose contacts change from state to state:
     *                               select pairs with {@link #update(double[], boolean[], HeldShapeContacts, boolean)}
     *                               or {@link #update(double[], boolean[], double[], double, double)} instead
     */
    public void update(double[] q, boolean[] pairs) {
        if (pairs.length != this.pairs) {
            throw new IllegalArgumentException("pair selection has " + pairs.length + " entries, the set "
                    + this.pairs + " pairs");
        }
        if (shapes != null) {
            throw new IllegalStateException("the contact set of " + set.modelName() + " has collision shapes, whose"
                    + " contacts change from state to state and cannot be selected by pair");
        }
        update(q, null, 0, Double.POSITIVE_INFINITY, pairs);
    }

    /**
     * The pairs marked in {@code pairs}, whatever their gaps (as {@link #update(double[], boolean[])}), then the
     * contacts between collision shapes within {@code shapeMargin} (m), widened, with v given and h &gt; 0, by h times
     * each pair's speed bound ({@link ShapeContactDetection#detect}): the detection the continuous-time system fixes
     * its contacts from at the start of a segment. Allocation-free.
     *
     * @param v null for a static query
     */
    public void update(double[] q, boolean[] pairs, double[] v, double h, double shapeMargin) {
        checkSelection(pairs);
        updatePairs(q, null, 0, Double.POSITIVE_INFINITY, pairs);
        if (shapes != null) {
            updateShapes(q, v, h, shapeMargin);
        }
    }

    /**
     * The pairs marked in {@code pairs}, whatever their gaps, then the held shape contacts at q (gap, frame, touching
     * points and rows from the held points as {@link HeldShapeContacts} says; k-terms with a round side's centre),
     * every one or, with {@code closedOnly}, those whose mode is not {@link AccelerationProblemData#PAIR_OUT}, in held
     * order. Contact k of held contact i has {@link #heldIndex}(k) = i. Allocation-free.
     *
     * @throws IllegalArgumentException for held contacts of another contact set
     */
    public void update(double[] q, boolean[] pairs, HeldShapeContacts held, boolean closedOnly) {
        checkSelection(pairs);
        if (held != null && held.set() != set) {
            throw new IllegalArgumentException("the held shape contacts are of another contact set (of "
                    + held.set().modelName() + ")");
        }
        updatePairs(q, null, 0, Double.POSITIVE_INFINITY, pairs);
        if (held != null) {
            updateHeld(q, held, closedOnly);
        }
    }

    private void checkSelection(boolean[] pairs) {
        if (pairs.length != this.pairs) {
            throw new IllegalArgumentException("pair selection has " + pairs.length + " entries, the set "
                    + this.pairs + " pairs");
        }
    }

    private void update(double[] q, double[] v, double h, double margin, boolean[] selected) {
        updatePairs(q, v, h, margin, selected);
        if (shapes != null && selected == null) {
            updateShapes(q, v, h, margin);
        }
    }

    private void updatePairs(double[] q, double[] v, double h, double margin, boolean[] selected) {
        count = 0;
        dropped = 0;
        int ng = set.groundCount();
        for (int c = 0; c < candidateBody.length; c++) {
            int body = candidateBody[c];
            kinematics.bodyPose(q, body, rotation, origin);
            double[] cc = candidateCenter[c];
            for (int i = 0; i < 3; i++) {
                centerWorld[i] = rotation[3 * i] * cc[0] + rotation[3 * i + 1] * cc[1] + rotation[3 * i + 2] * cc[2]
                        + origin[i];
            }
            double r = candidateRadius[c];
            boolean jacobianDone = false;
            boolean velocityDone = false;
            for (int g = 0; g < ng; g++) {
                double[] f = groundFrame[g];
                double[] pg = groundPoint[g];
                double phi = f[0] * (centerWorld[0] - pg[0]) + f[1] * (centerWorld[1] - pg[1])
                        + f[2] * (centerWorld[2] - pg[2]) - r;
                if (selected != null) {
                    if (!selected[c * ng + g]) {
                        continue;
                    }
                } else if (!(phi <= margin)) {
                    if (v == null || !(h > 0)) {
                        continue;
                    }
                    if (!velocityDone) {
                        kinematics.pointVelocity(q, v, body, cc, centerVelocity);
                        velocityDone = true;
                    }
                    double un = f[0] * centerVelocity[0] + f[1] * centerVelocity[1] + f[2] * centerVelocity[2];
                    if (!(phi + h * Math.min(0, un) <= margin)) {
                        continue;
                    }
                }
                int k = count++;
                pairOf[k] = c * ng + g;
                shapeContact[k] = -1;
                heldOf[k] = -1;
                shapeAOf[k] = -1;
                shapeBOf[k] = -1;
                bodyB[k] = body;
                bodyA[k] = -1;
                System.arraycopy(f, 0, frame, 9 * k, 9);
                contactFriction[k] = !Double.isNaN(frictionOverride) ? frictionOverride : friction[g];
                contactRestitution[k] = restitution[g];
                gap[k] = phi;
                int o = 3 * k;
                for (int i = 0; i < 3; i++) {
                    worldPoint[o + i] = centerWorld[i] - r * f[i];
                }
                if (r == 0) {
                    System.arraycopy(cc, 0, bodyPoint, o, 3);
                } else {
                    // c − r Rᵀ n: the material point at the contact, body coordinates
                    for (int i = 0; i < 3; i++) {
                        bodyPoint[o + i] = cc[i] - r * (rotation[i] * f[0] + rotation[3 + i] * f[1]
                                + rotation[6 + i] * f[2]);
                    }
                }
                if (r != 0 || !jacobianDone) {
                    tmp3[0] = bodyPoint[o];
                    tmp3[1] = bodyPoint[o + 1];
                    tmp3[2] = bodyPoint[o + 2];
                    jacobian(q, body, tmp3, false);
                    jacobianDone = true;
                }
                writeRows(k, false);
            }
        }
    }

    /**
     * Appends the contacts between collision shapes: frame (n, t1, t2) from the manifold's normal, Jacobian rows
     * [n; t1; t2] (J_B(b) − J_A(a)) with a, b the witnesses as material points of their bodies.
     */
    private void updateShapes(double[] q, double[] v, double h, double margin) {
        shapes.detect(q, v, h, margin);
        dropped += shapes.dropped();
        for (int s = 0; s < shapes.count(); s++) {
            int k = count++;
            pairOf[k] = -1;
            shapeContact[k] = s;
            heldOf[k] = -1;
            shapeAOf[k] = shapes.shapeA(s);
            shapeBOf[k] = shapes.shapeB(s);
            roundA[k] = 0;
            roundB[k] = 0;
            int b = shapes.bodyB(s);
            int a = shapes.bodyA(s);
            bodyB[k] = b;
            bodyA[k] = a;
            gap[k] = shapes.gap(s);
            contactFriction[k] = !Double.isNaN(frictionOverride) ? frictionOverride : shapes.friction(s);
            contactRestitution[k] = shapes.restitution(s);
            for (int i = 0; i < 3; i++) {
                nScratch[i] = shapes.normal(s, i);
                worldPoint[3 * k + i] = shapes.pointB(s, i);
            }
            writeFrame(k);
            toBody(q, b, worldPoint, 3 * k, bodyPoint, 3 * k);
            coreRadiusB[k] = core(shapeBOf[k], bodyPoint, centreB, k, 1);
            faceSide[k] = shapes.face(s);
            // A's rounding also on the scenery (a flat B sliding over a fixed ball follows its centre), its centre in
            // the world
            coreRadiusA[k] = a >= 0 ? 0 : roundingAt(shapeAOf[k], k);
            if (a < 0) {
                for (int i = 0; i < 3; i++) {
                    centreA[3 * k + i] = shapes.pointA(s, i) - coreRadiusA[k] * frame[9 * k + i];
                    otherBodyPoint[3 * k + i] = shapes.pointA(s, i);
                }
            }

            tmp3[0] = bodyPoint[3 * k];
            tmp3[1] = bodyPoint[3 * k + 1];
            tmp3[2] = bodyPoint[3 * k + 2];
            jacobian(q, b, tmp3, false);
            if (a >= 0) {
                for (int i = 0; i < 3; i++) {
                    centerWorld[i] = shapes.pointA(s, i);
                }
                toBody(q, a, centerWorld, 0, otherBodyPoint, 3 * k);
                coreRadiusA[k] = core(shapeAOf[k], otherBodyPoint, centreA, k, -1);
                tmp3[0] = otherBodyPoint[3 * k];
                tmp3[1] = otherBodyPoint[3 * k + 1];
                tmp3[2] = otherBodyPoint[3 * k + 2];
                jacobian(q, a, tmp3, true);
            }
            writeRows(k, a >= 0);
        }
    }

    /** Contact k's frame: n from nScratch, t1 and t2 its tangent basis ({@link Directions#tangentBasis}). */
    private void writeFrame(int k) {
        Directions.tangentBasis(nScratch, t1, t2);
        int fo = 9 * k;
        for (int r = 0; r < 3; r++) {
            frame[fo + r] = nScratch[r];
            frame[fo + 3 + r] = t1[r];
            frame[fo + 6 + r] = t2[r];
        }
    }

    /**
     * The point Jacobian of a point of body into {@link #pointJacobian} ({@code other}: {@link #otherJacobian}).
     * With sparse rows only the body's branch columns are written ({@link Kinematics#pointJacobianOnBranch}),
     * after zeroing those of the body the matrix held before, so the matrix stays zero off one branch:
     * {@link #writeRows} reads the union of two branches. (A 3 x nv fill per point made the kinematics of a pile
     * of free bodies cost the contacts times the bodies.)
     */
    private void jacobian(double[] q, int body, double[] point, boolean other) {
        DMatrixRMaj j = other ? otherJacobian : pointJacobian;
        if (branches == null) {
            kinematics.pointJacobian(q, body, point, j);
            return;
        }
        int held = other ? otherJacobianBody : pointJacobianBody;
        if (held >= 0 && held != body) {
            double[] d = j.data;
            for (int dof = branches.leaf(held); dof >= 0; dof = branches.parent(dof)) {
                d[dof] = 0;
                d[nv + dof] = 0;
                d[2 * nv + dof] = 0;
            }
        }
        kinematics.pointJacobianOnBranch(q, body, point, j);
        if (other) {
            otherJacobianBody = body;
        } else {
            pointJacobianBody = body;
        }
    }

    /**
     * Contact k's rows [n; t1; t2] (J_B − J_A) from the point Jacobians just computed (J_A only when
     * {@code other}): over all nv columns, or on the contact's support when the rows are kept sparse.
     */
    private void writeRows(int k, boolean other) {
        double[] pj = pointJacobian.data;
        double[] oj = otherJacobian.data;
        int fo = 9 * k;
        if (branches == null) {
            int row = 3 * k * nv;
            for (int d = 0; d < 3; d++) {
                double x = frame[fo + 3 * d], y = frame[fo + 3 * d + 1], z = frame[fo + 3 * d + 2];
                int out = row + d * nv;
                for (int j = 0; j < nv; j++) {
                    double jb = x * pj[j] + y * pj[nv + j] + z * pj[2 * nv + j];
                    jacobian[out + j] = other ? jb - (x * oj[j] + y * oj[nv + j] + z * oj[2 * nv + j]) : jb;
                }
            }
            return;
        }
        int so = k * stride;
        int len = branches.union(other ? bodyA[k] : -1, bodyB[k], support, so);
        supportLength[k] = len;
        for (int d = 0; d < 3; d++) {
            double x = frame[fo + 3 * d], y = frame[fo + 3 * d + 1], z = frame[fo + 3 * d + 2];
            int out = (3 * k + d) * stride;
            for (int e = 0; e < len; e++) {
                int j = support[so + e];
                double jb = x * pj[j] + y * pj[nv + j] + z * pj[2 * nv + j];
                rowValues[out + e] = other ? jb - (x * oj[j] + y * oj[nv + j] + z * oj[2 * nv + j]) : jb;
            }
        }
    }

    /** True when the rows are kept on their supports (see the four-argument constructor). */
    public boolean sparseRows() {
        return branches != null;
    }

    /** The entries reserved per contact in {@link #support} (and per row in {@link #rowValue}'s storage). */
    int stride() {
        return stride;
    }

    /** The number of dofs contact k's rows touch (sparse rows only). */
    public int supportLength(int k) {
        return supportLength[k];
    }

    /** The e-th dof of contact k's support, in decreasing order (sparse rows only). */
    public int support(int k, int e) {
        return support[k * stride + e];
    }

    /** Contact k's row d (0: n, 1: t1, 2: t2) at its e-th support dof (sparse rows only). */
    public double rowValue(int k, int d, int e) {
        return rowValues[(3 * k + d) * stride + e];
    }

    /** The supports' live buffer: contact k's at [k stride, k stride + supportLength(k)). */
    int[] supportBuffer() {
        return support;
    }

    /** The rows' live buffer: contact k's row d at [(3k + d) stride, ...), aligned with its support. */
    double[] rowBuffer() {
        return rowValues;
    }

    /** Appends the held contacts at q (see {@link HeldShapeContacts}). */
    private void updateHeld(double[] q, HeldShapeContacts held, boolean closedOnly) {
        for (int i = 0; i < held.count(); i++) {
            if (closedOnly && !held.closed(i)) {
                continue;
            }
            if (count == capacity) {
                dropped++;
                continue;
            }
            int k = count++;
            pairOf[k] = -1;
            shapeContact[k] = -1;
            heldOf[k] = i;
            shapeAOf[k] = held.shapeA[i];
            shapeBOf[k] = held.shapeB[i];
            int b = held.bodyB[i];
            int a = held.bodyA[i];
            bodyB[k] = b;
            bodyA[k] = a;
            contactFriction[k] = !Double.isNaN(frictionOverride) ? frictionOverride : held.friction[i];
            contactRestitution[k] = held.restitution[i];
            double rA = held.radiusA[i];
            double rB = held.radiusB[i];
            roundA[k] = a >= 0 ? rA : 0; // a fixed round A has no k-term
            roundB[k] = rB;
            System.arraycopy(held.pointB, 3 * i, centreB, 3 * k, 3);
            System.arraycopy(held.pointA, 3 * i, centreA, 3 * k, 3);
            // the held points x_B, x_A at q
            kinematics.bodyPose(q, b, rotationB, originB);
            toWorld(rotationB, originB, held.pointB, 3 * i, heldB);
            if (a >= 0) {
                kinematics.bodyPose(q, a, rotation, origin);
                toWorld(rotation, origin, held.pointA, 3 * i, heldA);
            } else {
                System.arraycopy(held.pointA, 3 * i, heldA, 0, 3);
            }
            double dx = heldB[0] - heldA[0], dy = heldB[1] - heldA[1], dz = heldB[2] - heldA[2];
            int plane = held.plane[i];
            if (plane == HeldShapeContacts.BOTH_ROUND) {
                double length = Math.sqrt(dx * dx + dy * dy + dz * dz);
                if (length > 0) {
                    nScratch[0] = dx / length;
                    nScratch[1] = dy / length;
                    nScratch[2] = dz / length;
                } else { // coincident centres: the normal as held (A's coordinates, world for a fixed A)
                    rotate(a >= 0 ? rotation : null, held.normal, 3 * i, nScratch);
                }
            } else {
                rotate(plane == HeldShapeContacts.PLANE_ON_B ? rotationB : a >= 0 ? rotation : null, held.normal, 3 * i,
                        nScratch);
            }
            double along = nScratch[0] * dx + nScratch[1] * dy + nScratch[2] * dz;
            double phi = along - rA - rB;
            gap[k] = phi;
            // the touching points: p_A on A, p_B on B (world)
            int o = 3 * k;
            for (int r = 0; r < 3; r++) {
                double pA;
                double pB;
                if (plane == HeldShapeContacts.PLANE_ON_B) {
                    pA = heldA[r] + rA * nScratch[r];
                    pB = pA + phi * nScratch[r];
                } else {
                    pB = heldB[r] - rB * nScratch[r];
                    pA = plane == HeldShapeContacts.PLANE_ON_A ? pB - phi * nScratch[r] : heldA[r] + rA * nScratch[r];
                }
                worldPoint[o + r] = pB;
                centerWorld[r] = pA;
            }
            writeFrame(k);
            toBody(rotationB, originB, worldPoint, o, bodyPoint, o);
            if (a >= 0) {
                toBody(rotation, origin, centerWorld, 0, otherBodyPoint, o);
            }
            shapeRows(q, k, b, a);
        }
    }

    /** out = R x[o..o+3) + p. */
    private static void toWorld(double[] r, double[] p, double[] x, int o, double[] out) {
        for (int i = 0; i < 3; i++) {
            out[i] = r[3 * i] * x[o] + r[3 * i + 1] * x[o + 1] + r[3 * i + 2] * x[o + 2] + p[i];
        }
    }

    /** out = R x[o..o+3) (R null: the identity). */
    private static void rotate(double[] r, double[] x, int o, double[] out) {
        for (int i = 0; i < 3; i++) {
            out[i] = r == null ? x[o + i] : r[3 * i] * x[o] + r[3 * i + 1] * x[o + 1] + r[3 * i + 2] * x[o + 2];
        }
    }

    /** out[o..o+3) = Rᵀ (x[xo..xo+3) − p). */
    private static void toBody(double[] r, double[] p, double[] x, int xo, double[] out, int o) {
        double dx = x[xo] - p[0], dy = x[xo + 1] - p[1], dz = x[xo + 2] - p[2];
        for (int i = 0; i < 3; i++) {
            out[o + i] = r[i] * dx + r[3 + i] * dy + r[6 + i] * dz;
        }
    }

    /**
     * Contact k's rows [n; t1; t2] (J_B(b) − J_A(a)) from its frame, {@link #bodyPoint} b and, for a moving A,
     * {@link #otherBodyPoint} a.
     */
    private void shapeRows(double[] q, int k, int b, int a) {
        tmp3[0] = bodyPoint[3 * k];
        tmp3[1] = bodyPoint[3 * k + 1];
        tmp3[2] = bodyPoint[3 * k + 2];
        jacobian(q, b, tmp3, false);
        if (a >= 0) {
            tmp3[0] = otherBodyPoint[3 * k];
            tmp3[1] = otherBodyPoint[3 * k + 1];
            tmp3[2] = otherBodyPoint[3 * k + 2];
            jacobian(q, a, tmp3, true);
        }
        writeRows(k, a >= 0);
    }

    /**
     * Holds shape contact k of the last detecting update at q ({@link #isShapeContact}, not itself held) in
     * {@code out} as {@link HeldShapeContacts} describes: each side's witness, or a sphere's or capsule's centre of
     * curvature, in its body's coordinates (world for the scenery and grounds), the normal in the coordinates of the
     * side that carries the tangent plane, its materials, and, for reports, its gap, frame, witness and velocity
     * {@code u[3k..3k+3)} now. Its mode is {@link AccelerationProblemData#PAIR_OUT}.
     *
     * @return the held contact's index, or −1 when {@code out} is full (counted in its {@link HeldShapeContacts#dropped})
     * @throws IllegalArgumentException when k is not a detected shape contact, or {@code out} is of another set
     */
    public int hold(double[] q, int k, double[] u, HeldShapeContacts out) {
        int s = shapeContact[k];
        if (s < 0) {
            throw new IllegalArgumentException("contact " + k + " is not a detected shape contact");
        }
        if (out.set() != set) {
            throw new IllegalArgumentException("the held shape contacts are of another contact set (of "
                    + out.set().modelName() + ")");
        }
        int i = out.add();
        if (i < 0) {
            return -1;
        }
        int a = bodyA[k];
        int b = bodyB[k];
        out.shapeA[i] = shapeAOf[k];
        out.shapeB[i] = shapeBOf[k];
        out.slot[i] = shapes.slot(s);
        out.key[i] = shapeContactKey(k);
        out.bodyA[i] = a;
        out.bodyB[i] = b;
        out.friction[i] = shapes.friction(s);
        out.restitution[i] = shapes.restitution(s);
        double rA = rounding(shapeAOf[k]);
        double rB = rounding(shapeBOf[k]);
        out.radiusA[i] = rA;
        out.radiusB[i] = rB;
        int fo = 9 * k;
        // B: its witness b, or b + r_B n, in B's coordinates
        kinematics.bodyPose(q, b, rotationB, originB);
        for (int r = 0; r < 3; r++) {
            heldB[r] = worldPoint[3 * k + r] + rB * frame[fo + r];
        }
        toBody(rotationB, originB, heldB, 0, out.pointB, 3 * i);
        // A: its witness a, or a − r_A n, in A's coordinates (world for the scenery and grounds)
        for (int r = 0; r < 3; r++) {
            heldA[r] = shapes.pointA(s, r) - rA * frame[fo + r];
        }
        if (a >= 0) {
            kinematics.bodyPose(q, a, rotation, origin);
            toBody(rotation, origin, heldA, 0, out.pointA, 3 * i);
        } else {
            System.arraycopy(heldA, 0, out.pointA, 3 * i, 3);
        }
        int plane = rA == 0 ? HeldShapeContacts.PLANE_ON_A
                : rB == 0 ? HeldShapeContacts.PLANE_ON_B : HeldShapeContacts.BOTH_ROUND;
        out.plane[i] = plane;
        // n in the coordinates of the plane's side (A's for two round sides: the fallback of coincident centres)
        double[] r0 = plane == HeldShapeContacts.PLANE_ON_B ? rotationB : a >= 0 ? rotation : null;
        for (int r = 0; r < 3; r++) {
            out.normal[3 * i + r] = r0 == null ? frame[fo + r]
                    : r0[r] * frame[fo] + r0[3 + r] * frame[fo + 1] + r0[6 + r] * frame[fo + 2];
        }
        out.setState(i, gap[k], frame, fo, worldPoint, 3 * k, u, 3 * k);
        return i;
    }

    /**
     * Shape i's rounding radius r at contact k ({@link #roundingAt}: a sphere's, a capsule's, a cylinder's side's, else
     * 0) and into core[3k..] its witness of contact k moved in by it, the sphere's centre or the point of the capsule's
     * segment or the cylinder's axis: witness[3k..] + side r n, in the
     * coordinates of the body whose pose {@link #rotation} holds (B: side +1, A: −1; n from A towards B).
     */
    private double core(int i, double[] witness, double[] core, int k, int side) {
        double r = roundingAt(i, k);
        if (r == 0) {
            System.arraycopy(witness, 3 * k, core, 3 * k, 3);
            return 0;
        }
        int fo = 9 * k;
        for (int c = 0; c < 3; c++) {
            double nc = rotation[c] * frame[fo] + rotation[3 + c] * frame[fo + 1] + rotation[6 + c] * frame[fo + 2];
            core[3 * k + c] = witness[3 * k + c] + side * r * nc;
        }
        return r;
    }

    /**
     * Into axisScratch: the world axis along which side A (or B) of detected shape contact k slides, false when it
     * does not: a capsule whose centre (the witness moved in by the radius) lies inside its segment, or a box whose
     * witness lies inside an edge. Read from the detection on demand, for the derivatives only: valid between the
     * update that detected the contacts and the next use of the detection (its placements and points).
     */
    private boolean slideAxis(int k, boolean sideA) {
        int s = shapeContact[k];
        if (s < 0) {
            return false;
        }
        if (shapes.feature(s, sideA) == org.symdyn.geometry.ContactManifold.EDGE) {
            for (int c = 0; c < 3; c++) {
                axisScratch[c] = shapes.edge(s, sideA, c);
            }
            return true;
        }
        int i = sideA ? shapeAOf[k] : shapeBOf[k];
        double r = sideA ? coreRadiusA[k] : coreRadiusB[k];
        if (i < 0 || i >= shapeCapsule.length || !(shapeCapsule[i] || shapeCylinderRadius[i] > 0) || r == 0) {
            return false;
        }
        org.symdyn.geometry.Shape shape = shapes.placements().shape(i);
        org.symdyn.geometry.Placement pl = shapes.placements().placement(i);
        double h = shape instanceof org.symdyn.geometry.Capsule capsule ? capsule.halfLength()
                : ((org.symdyn.geometry.Cylinder) shape).length() / 2;
        double along = 0;
        for (int c = 0; c < 3; c++) {
            double core = (sideA ? shapes.pointA(s, c) - r * frame[9 * k + c] : shapes.pointB(s, c)
                    + r * frame[9 * k + c]) - pl.translation(c);
            along += core * pl.rotation(c, 2);
        }
        if (!(Math.abs(along) < h * (1 - 1e-9))) {
            return false;
        }
        for (int c = 0; c < 3; c++) {
            axisScratch[c] = pl.rotation(c, 2);
        }
        return true;
    }

    /**
     * Component i of the world axis along which the centre of contact k's side A (or B) slides: a capsule's (or a
     * cylinder's, touched on its side) when the centre lies inside its segment, a box's edge when the witness lies
     * inside it (detected shape contacts, at the
     * last update's configuration), else 0 (a sphere's centre, a capsule's end, a corner, any other contact).
     */
    public double coreAxis(int k, boolean sideA, int i) {
        return slideAxis(k, sideA) ? axisScratch[i] : 0;
    }

    /** Whether contact k's side A (or B) has a centre that slides ({@link #coreAxis}). */
    public boolean slides(int k, boolean sideA) {
        return slideAxis(k, sideA);
    }

    /**
     * Whether side A (or B) of detected shape contact k touches with a centre: a sphere, a capsule or a cylinder's
     * side (its centre, {@link #center}), or a vertex or a point inside an edge of a box as the detection found it
     * (a ball on a box's corner or edge; the witness itself, radius 0).
     */
    public boolean centred(int k, boolean sideA) {
        if (shapeContact[k] < 0) {
            return false;
        }
        return (sideA ? coreRadiusA[k] : coreRadiusB[k]) > 0 || shapes.feature(shapeContact[k], sideA) != 0;
    }

    /**
     * The radius of curvature a contact keeps for shape i: a sphere's or a capsule's, else 0 (flat, and for a
     * ground); taken once per shape at construction. A held contact keeps it; a detected one's centre takes
     * {@link #roundingAt}, which adds a cylinder's side.
     */
    private double rounding(int i) {
        return i >= 0 && i < shapeRoundness.length ? shapeRoundness[i] : 0;
    }

    /**
     * The rounding of shape i at detected contact k, whose frame is written: {@link #rounding}, and a cylinder's
     * radius where n is perpendicular to its axis (|n · axis| ≤ {@link #CYLINDER_SIDE}): its side touches there along
     * a line of the side, whose points are the axis's less the radius along n, as a capsule's are, so that a wheel
     * rolling on its side keeps its axis point as the material point (its rim points, taken as material points,
     * put the step's derivatives O(1) off). Anywhere else on a cylinder (a cap, a rim touched at a slant) 0.
     */
    private double roundingAt(int i, int k) {
        double r = rounding(i);
        if (r != 0 || i < 0 || i >= shapeCylinderRadius.length || shapeCylinderRadius[i] == 0) {
            return r;
        }
        org.symdyn.geometry.Placement pl = shapes.placements().placement(i);
        int fo = 9 * k;
        double along = frame[fo] * pl.rotation(0, 2) + frame[fo + 1] * pl.rotation(1, 2)
                + frame[fo + 2] * pl.rotation(2, 2);
        return Math.abs(along) <= CYLINDER_SIDE ? shapeCylinderRadius[i] : 0;
    }

    /** How far from perpendicular to a cylinder's axis (|n · axis|) a contact normal may be for its side's rounding. */
    static final double CYLINDER_SIDE = 1e-9;

    /** {@link #rounding} from the shape itself. */
    private double roundness(int i) {
        if (i >= set.shapeCount()) {
            return 0; // a ground
        }
        return shapes.placements().shape(i).rounding();
    }

    /**
     * The identity of shape contact k (detected or held): its two shapes and its point's slot in their manifold,
     * the key of {@link TimeStepper}'s warm starts and {@link HeldShapeContacts#key}.
     */
    public long shapeContactKey(int k) {
        if (heldOf[k] >= 0) {
            throw new IllegalArgumentException("contact " + k + " is held: its key is its HeldShapeContacts'");
        }
        int s = shapeContact[k];
        if (s < 0) {
            throw new IllegalArgumentException("contact " + k + " is not a shape contact");
        }
        long pair = (long) shapes.shapeA(s) * (shapes.shapeCount() + set.groundCount()) + shapes.shapeB(s);
        return pair * 1024 + Math.min(shapes.slot(s), 1023);
    }

    /** The held contact's index of contact k (see {@link #update(double[], boolean[], HeldShapeContacts, boolean)}), −1 otherwise. */
    public int heldIndex(int k) {
        return heldOf[k];
    }

    /** Shape A of shape contact k (an index ≥ the set's shape count is a ground: index − shape count); −1 for a pair. */
    public int shapeA(int k) {
        return shapeAOf[k];
    }

    /** Shape B of shape contact k; −1 for a pair. */
    public int shapeB(int k) {
        return shapeBOf[k];
    }

    /** out[o..o+3) = Rᵀ (x[xo..xo+3) − p): a world point in the coordinates of body b. */
    private void toBody(double[] q, int b, double[] x, int xo, double[] out, int o) {
        kinematics.bodyPose(q, b, rotation, origin);
        toBody(rotation, origin, x, xo, out, o);
    }

    /**
     * Adds the world force of shape contact k, given in its frame (f_n, f_t1, f_t2), to the collision shapes it acts
     * on: + f on shape B at out[offset + 3 B ..], − f on shape A (a ground gets none). Nothing for a candidate's
     * contact.
     */
    public void addShapeForce(int k, double fn, double ft1, double ft2, double[] out, int offset) {
        int b = shapeBOf[k];
        if (b < 0) {
            return;
        }
        int a = shapeAOf[k];
        int fo = 9 * k;
        for (int i = 0; i < 3; i++) {
            double f = fn * frame[fo + i] + ft1 * frame[fo + 3 + i] + ft2 * frame[fo + 6 + i];
            out[offset + 3 * b + i] += f;
            if (a < set.shapeCount()) {
                out[offset + 3 * a + i] -= f;
            }
        }
    }

    /** Contacts the last {@link #update} found beyond the set's bound on shape contacts and dropped. */
    public int dropped() {
        return dropped;
    }

    /** True when contact k is between collision shapes, detected or held (else a candidate-ground pair). */
    public boolean isShapeContact(int k) {
        return shapeBOf[k] >= 0;
    }

    /**
     * The shape contact detection (null when the set has no collision shapes); a detected contact k that
     * {@link #isShapeContact} is its contact {@link #shapeContactIndex} (a held one is {@link #heldIndex}).
     */
    public ShapeContactDetection shapeContacts() {
        return shapes;
    }

    /** The detection's index of shape contact k, −1 for a candidate-ground contact or a held one. */
    public int shapeContactIndex(int k) {
        return shapeContact[k];
    }

    /**
     * "candidate@ground" for a candidate's contact, "shapeB@shapeA" for a shape contact (with the ground's name when
     * A is a ground): the name reports use. Allocates: for reports, not for a step.
     */
    public String name(int k) {
        if (shapeBOf[k] < 0) {
            return set.pairName(pairOf[k]);
        }
        return shapeName(shapeBOf[k]) + "@" + shapeName(shapeAOf[k]);
    }

    /** The name of the other side of contact k: its ground, or shape A. */
    public String otherName(int k) {
        if (shapeBOf[k] < 0) {
            return set.grounds().get(ground(k)).name();
        }
        return shapeName(shapeAOf[k]);
    }

    /** The name of contact k's own side: its candidate, or shape B. */
    public String ownName(int k) {
        if (shapeBOf[k] < 0) {
            return set.candidates().get(candidate(k)).name();
        }
        return shapeName(shapeBOf[k]);
    }

    private String shapeName(int i) {
        return i < set.shapeCount() ? set.shapes().get(i).name() : set.grounds().get(i - set.shapeCount()).name();
    }

    /** The number of contacts found by the last {@link #update}. */
    public int count() {
        return count;
    }

    /** The candidate-ground pair (see {@link ContactSet}) of contact k, −1 for a shape contact. */
    public int pair(int k) {
        return pairOf[k];
    }

    /** The candidate index of contact k, −1 for a shape contact. */
    public int candidate(int k) {
        return pairOf[k] < 0 ? -1 : pairOf[k] / set.groundCount();
    }

    /** The ground index of contact k, −1 for a shape contact. */
    public int ground(int k) {
        return pairOf[k] < 0 ? -1 : pairOf[k] % set.groundCount();
    }

    /** The gap φ of contact k (m; negative: penetration). */
    public double gap(int k) {
        return gap[k];
    }

    /** Coulomb's μ of contact k (its ground's; for shapes their materials combined; or {@link #setFriction}'s). */
    public double friction(int k) {
        return contactFriction[k];
    }

    /**
     * Gives every contact found from the next detection on Coulomb's μ = {@code mu}, instead of its ground's or its
     * shapes' combined materials (a parameter sweep over friction without rebuilding the set); NaN restores theirs.
     *
     * @throws IllegalArgumentException for a negative or infinite μ
     */
    public void setFriction(double mu) {
        if (mu < 0 || Double.isInfinite(mu)) {
            throw new IllegalArgumentException("friction " + mu + " must be a finite number >= 0 (or NaN: the set's own)");
        }
        frictionOverride = mu;
    }

    /** Newton's restitution e of contact k (its ground's; for shapes their materials combined). */
    public double restitution(int k) {
        return contactRestitution[k];
    }

    /** Component i of contact k's frame row d (0: n, 1: t1, 2: t2), world coordinates. */
    public double frame(int k, int d, int i) {
        return frame[9 * k + 3 * d + i];
    }

    /** Component i of the world position of contact k's point (for a shape contact, B's witness). */
    public double worldPoint(int k, int i) {
        return worldPoint[3 * k + i];
    }

    /** Component i of contact k's material point in the coordinates of its body (B's, for a shape contact). */
    public double bodyPoint(int k, int i) {
        return bodyPoint[3 * k + i];
    }

    /**
     * The radius r of contact k's rounded side B: its candidate's (0 for a point), or for a detected shape contact
     * shape B's rounding there (a sphere's, a capsule's or a cylinder's side's radius, else 0); 0 for a held
     * contact. The contact point is
     * {@link #center} − r n: the centre is a material point of the body, the offset −r n turns with the normal, not
     * with the body (what the derivatives of a step or of a compliant force need of a rolling contact).
     */
    public double radius(int k) {
        int c = candidate(k);
        return c >= 0 ? candidateRadius[c] : shapeContact[k] >= 0 ? coreRadiusB[k] : 0;
    }

    /**
     * Component i of contact k's centre on side B, body coordinates: its candidate's centre, or for a detected shape
     * contact B's witness moved in by its {@link #radius} (a sphere's centre, a point of a capsule's segment or of a
     * cylinder's axis), else
     * the witness.
     */
    public double center(int k, int i) {
        int c = candidate(k);
        return c >= 0 ? candidateCenter[c][i] : shapeContact[k] >= 0 ? centreB[3 * k + i] : bodyPoint[3 * k + i];
    }

    /**
     * The rounding radius of side A of a detected shape contact k (a sphere's, a capsule's or a cylinder's side's, on a
     * body or the scenery; 0 otherwise): A's witness is its centre + r n ({@link #otherCenter} on a moving body).
     */
    public double otherRadius(int k) {
        return shapeContact[k] >= 0 ? coreRadiusA[k] : 0;
    }

    /**
     * For a detected shape contact: +1 when its normal is a face normal of shape A and its point a feature of B over
     * that face (a box's corner on another's face), −1 the reverse, 0 neither or not known (and for every other
     * contact). The point of contact then slides on the face's side as the shapes move.
     */
    public int face(int k) {
        return shapeContact[k] >= 0 ? faceSide[k] : 0;
    }

    /**
     * Whether side A (or B) of detected shape contact k is a box, a convex hull or a mesh: a shape whose touching
     * feature over another's face is one of its vertices or a point of its edges and faces, fixed in it (not a
     * cylinder's rim, which rolls).
     */
    public boolean polyhedral(int k, boolean sideA) {
        int i = sideA ? shapeAOf[k] : shapeBOf[k];
        return shapeContact[k] >= 0 && i >= 0 && i < shapePolyhedral.length && shapePolyhedral[i];
    }

    /** Whether contact k is a detected shape contact that is its manifold's only point (a closest pair). */
    public boolean singlePoint(int k) {
        return shapeContact[k] >= 0 && shapes.singlePoint(shapeContact[k]);
    }

    /**
     * Component i of side A's centre: {@link #otherBodyPoint} moved in by {@link #otherRadius}, in A's body
     * coordinates (world for the scenery and grounds).
     */
    public double otherCenter(int k, int i) {
        return shapeContact[k] >= 0 ? centreA[3 * k + i] : otherBodyPoint[3 * k + i];
    }

    /** The body of contact k: the candidate's, or shape B's; the contact force λ_n n acts on it. */
    public int body(int k) {
        return bodyB[k];
    }

    /** The other body of contact k: −1 for a ground or the scenery, else shape A's (the force −λ_n n acts on it). */
    public int otherBody(int k) {
        return bodyA[k];
    }

    /**
     * Component i of A's witness of shape contact k in A's body coordinates, world for the scenery and grounds
     * (meaningless for other contacts).
     */
    public double otherBodyPoint(int k, int i) {
        return otherBodyPoint[3 * k + i];
    }

    /**
     * The contact Jacobian, row-major: rows 3k, 3k+1, 3k+2 are contact k's [n; t1; t2] rows, {@link #nv()}
     * columns. Valid up to row 3 {@link #count()}; the array is the live buffer (read only).
     */
    public double[] jacobian() {
        if (branches != null) {
            throw new IllegalStateException("these contact kinematics keep their rows sparse (support, rowValue):"
                    + " no dense Jacobian");
        }
        return jacobian;
    }

    /** u = J v: contact velocities [u_n, u_t1, u_t2] per contact (3 count entries of {@code u}). */
    public void velocity(double[] v, double[] u) {
        if (branches != null) {
            for (int k = 0; k < count; k++) {
                int so = k * stride;
                int len = supportLength[k];
                for (int d = 0; d < 3; d++) {
                    int o = (3 * k + d) * stride;
                    double s = 0;
                    for (int e = 0; e < len; e++) {
                        s += rowValues[o + e] * v[support[so + e]];
                    }
                    u[3 * k + d] = s;
                }
            }
            return;
        }
        int m = 3 * count;
        for (int r = 0; r < m; r++) {
            double s = 0;
            int o = r * nv;
            for (int j = 0; j < nv; j++) {
                s += jacobian[o + j] * v[j];
            }
            u[r] = s;
        }
    }

    /**
     * The acceleration-level k-terms (see the class comment): u̇ = J v̇ + k, 3 per contact in [n; t1; t2] order,
     * at the q of the last {@link #update} and this v. Allocation-free.
     */
    public void accelerationBias(double[] q, double[] v, double[] k) {
        for (int c = 0; c < count; c++) {
            if (shapeBOf[c] >= 0) {
                shapeBias(q, v, c, k);
                continue;
            }
            int cand = candidate(c);
            int body = candidateBody[cand];
            kinematics.pointBiasAcceleration(q, v, body, candidateCenter[cand], tmp3);
            double ax = tmp3[0], ay = tmp3[1], az = tmp3[2];
            double r = candidateRadius[cand];
            double[] f = groundFrame[ground(c)];
            if (r != 0) {
                kinematics.bodyAcceleration(q, v, zeroV, body, tmp6);
                kinematics.bodyPose(q, body, rotation, origin);
                double wx = rotation[0] * tmp6[0] + rotation[1] * tmp6[1] + rotation[2] * tmp6[2];
                double wy = rotation[3] * tmp6[0] + rotation[4] * tmp6[1] + rotation[5] * tmp6[2];
                double wz = rotation[6] * tmp6[0] + rotation[7] * tmp6[1] + rotation[8] * tmp6[2];
                // − r α_b × n
                ax -= r * (wy * f[2] - wz * f[1]);
                ay -= r * (wz * f[0] - wx * f[2]);
                az -= r * (wx * f[1] - wy * f[0]);
            }
            for (int d = 0; d < 3; d++) {
                k[3 * c + d] = f[3 * d] * ax + f[3 * d + 1] * ay + f[3 * d + 2] * az;
            }
        }
    }

    /**
     * k of shape contact c: [n; t1; t2] (J̇_B(b) v − J̇_A(a) v) with the witnesses held as material points of their
     * bodies. Exact for a contact whose witnesses stay material points (a vertex or an edge on a face, faces
     * resting); for curved surfaces that roll, the curvature terms of the moving contact point are not included,
     * except for a held contact's round side, whose touching point's term is J̇_c v ∓ r α × n from its centre c.
     */
    private void shapeBias(double[] q, double[] v, int c, double[] k) {
        int fo = 9 * c;
        double ax, ay, az;
        if (roundB[c] > 0) {
            // a round B held by its centre: J̇_c v − r α × n
            roundBias(q, v, bodyB[c], centreB, 3 * c, -roundB[c], frame[fo], frame[fo + 1], frame[fo + 2]);
        } else {
            tmp3[0] = bodyPoint[3 * c];
            tmp3[1] = bodyPoint[3 * c + 1];
            tmp3[2] = bodyPoint[3 * c + 2];
            kinematics.pointBiasAcceleration(q, v, bodyB[c], tmp3, centerVelocity);
        }
        ax = centerVelocity[0];
        ay = centerVelocity[1];
        az = centerVelocity[2];
        if (bodyA[c] >= 0) {
            if (roundA[c] > 0) {
                roundBias(q, v, bodyA[c], centreA, 3 * c, roundA[c], frame[fo], frame[fo + 1], frame[fo + 2]);
            } else {
                tmp3[0] = otherBodyPoint[3 * c];
                tmp3[1] = otherBodyPoint[3 * c + 1];
                tmp3[2] = otherBodyPoint[3 * c + 2];
                kinematics.pointBiasAcceleration(q, v, bodyA[c], tmp3, centerVelocity);
            }
            ax -= centerVelocity[0];
            ay -= centerVelocity[1];
            az -= centerVelocity[2];
        }
        for (int d = 0; d < 3; d++) {
            k[3 * c + d] = frame[fo + 3 * d] * ax + frame[fo + 3 * d + 1] * ay + frame[fo + 3 * d + 2] * az;
        }
    }

    /**
     * centerVelocity = J̇_c v + s α_b × n: the bias acceleration of the touching point at c + s n of a round side
     * held by its centre c (body coordinates at centres[o..o+3)), α_b the body's world angular acceleration at v̇ = 0.
     */
    private void roundBias(double[] q, double[] v, int body, double[] centres, int o, double s, double nx, double ny,
            double nz) {
        tmp3[0] = centres[o];
        tmp3[1] = centres[o + 1];
        tmp3[2] = centres[o + 2];
        kinematics.pointBiasAcceleration(q, v, body, tmp3, centerVelocity);
        kinematics.bodyAcceleration(q, v, zeroV, body, tmp6);
        kinematics.bodyPose(q, body, rotation, origin);
        double wx = rotation[0] * tmp6[0] + rotation[1] * tmp6[1] + rotation[2] * tmp6[2];
        double wy = rotation[3] * tmp6[0] + rotation[4] * tmp6[1] + rotation[5] * tmp6[2];
        double wz = rotation[6] * tmp6[0] + rotation[7] * tmp6[1] + rotation[8] * tmp6[2];
        centerVelocity[0] += s * (wy * nz - wz * ny);
        centerVelocity[1] += s * (wz * nx - wx * nz);
        centerVelocity[2] += s * (wx * ny - wy * nx);
    }
}
