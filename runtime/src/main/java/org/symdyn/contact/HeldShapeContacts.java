package org.symdyn.contact;

import java.util.Arrays;

/**
 * Contacts between collision shapes held fixed over an interval of motion: the continuous-time hybrid system's
 * segments, in which each contact must keep its identity, its rows and its mode while the configuration moves
 * (Runge-Kutta stages, the re-integrations that locate an event). A detection's contact points change from state
 * to state; a held contact does not. Filled by {@link ContactKinematics#hold} from a detection, evaluated at any
 * configuration by {@link ContactKinematics#update(double[], boolean[], HeldShapeContacts, boolean)}.
 *
 * <p><b>Geometry.</b> Held contact i joins shape A and shape B of the detection's contact k (normal n from A towards
 * B, witnesses a and b). Each side is kept as a material point of its body: a flat side (a box, a hull, a cylinder,
 * a half-space, a mesh, a ground) by its witness; a round side (a sphere, a capsule) by its witness's centre of
 * curvature, c_A = a − r_A n or c_B = b + r_B n, with its radius (r = 0 for a flat side). Body coordinates, world
 * for the scenery and grounds. The normal is kept in the coordinates of the side that carries the tangent plane:
 * <pre>
 *   A flat (r_A = 0):            n turns with A,  φ = n · (x_B − x_A) − r_B,  p_B = x_B − r_B n,  p_A = p_B − φ n
 *   A round, B flat (r_B = 0):   n turns with B,  φ = n · (x_B − x_A) − r_A,  p_A = x_A + r_A n,  p_B = p_A + φ n
 *   both round:                  n = (x_B − x_A) / |x_B − x_A|,  φ = |x_B − x_A| − r_A − r_B,  p_X = x_X ∓ r_X n
 *   rows [n; t1; t2] (J_B(p_B) − J_A(p_A)),  k = [n; t1; t2] (a_B − a_A),  a_X = J̇_c v ∓ r_X α_X × n (round) or
 *   J̇_X(p_X) v (flat, p_X held as a material point)
 * </pre>
 * (x_X the held point at q, p_X the touching points, (t1, t2) = {@link org.symdyn.spatial.Directions#tangentBasis}(n),
 * α_X the body's angular acceleration at v̇ = 0), so that u = J v is B's velocity relative to A's at the touching
 * points and u_n = φ̇ while the plane's side does not turn. At the state it was held from this is the detection's
 * contact (gap, frame, witnesses, rows, to rounding). Exact for a vertex or an edge on a face, faces resting, and a
 * sphere or a capsule rolling or sliding on a face, whatever slides or rolls; between two round sides, and where the
 * side carrying the plane turns, the terms of the turning normal are left out (as {@link ContactKinematics} leaves
 * them out of its shape contacts' k), right to first order over the interval until the owner holds the contacts anew.
 *
 * <p>Per contact the owner also keeps a mode ({@link AccelerationProblemData#PAIR_OUT} and the others, read by
 * {@link AccelerationProblemData#setPairModes(int[], double[], HeldShapeContacts)}) with the reference direction of a
 * sliding contact, its force and the state's values at the time it was held (gap, frame, point, contact velocity)
 * for reports. Identity across holds is the contact's {@link #key}: the two shapes and the point's slot in their
 * manifold, as {@link TimeStepper} keys its warm starts.
 *
 * <p>Allocated at construction for the set's bound on shape contacts; nothing is allocated after. Not thread-safe.
 */
public final class HeldShapeContacts {
    private final ContactSet set;
    private final int capacity;
    private int count;
    private int dropped;

    final int[] shapeA;
    final int[] shapeB;
    final int[] slot;
    final int[] bodyA;
    final int[] bodyB;
    final long[] key;
    /** Where the tangent plane is held: on A, on B, or nowhere (both sides round). */
    static final int PLANE_ON_A = 0, PLANE_ON_B = 1, BOTH_ROUND = 2;

    final double[] pointA; // 3 per contact: A's witness or its centre of curvature, A's coordinates (world: bodyA < 0)
    final double[] pointB; // 3 per contact: B's witness or its centre of curvature, B's coordinates
    final double[] radiusA; // A's radius of curvature at the witness (0: flat)
    final double[] radiusB;
    final int[] plane; // PLANE_ON_A, PLANE_ON_B, BOTH_ROUND
    final double[] normal; // 3 per contact: n in the coordinates of the plane's side (A's, world for bodyA < 0; B's)
    final double[] friction;
    final double[] restitution;
    private final double[] gap; // at the state held from
    private final double[] frame; // 9 per contact: n, t1, t2 (world) at the state held from
    private final double[] worldPoint; // 3 per contact: x_b at the state held from
    private final double[] velocity; // 3 per contact: u = J v at the state held from
    private final int[] mode;
    private final double[] reference; // 2 per contact: (t1, t2) components of a sliding contact's reference
    private final double[] force; // 3 per contact, contact frame: the owner's

    /** Room for the set's bound on shape contacts ({@link ContactSet#maxShapeContacts()}). */
    public HeldShapeContacts(ContactSet set) {
        this.set = set;
        this.capacity = set.maxShapeContacts();
        int c = Math.max(1, capacity);
        shapeA = new int[c];
        shapeB = new int[c];
        slot = new int[c];
        bodyA = new int[c];
        bodyB = new int[c];
        key = new long[c];
        pointA = new double[3 * c];
        pointB = new double[3 * c];
        radiusA = new double[c];
        radiusB = new double[c];
        plane = new int[c];
        normal = new double[3 * c];
        friction = new double[c];
        restitution = new double[c];
        gap = new double[c];
        frame = new double[9 * c];
        worldPoint = new double[3 * c];
        velocity = new double[3 * c];
        mode = new int[c];
        reference = new double[2 * c];
        force = new double[3 * c];
    }

    /** The contact set whose shapes these contacts join. */
    public ContactSet set() {
        return set;
    }

    /** Forgets every contact (and the count of those dropped). */
    public void clear() {
        count = 0;
        dropped = 0;
    }

    /** The most contacts held at once: the set's bound on shape contacts. */
    public int capacity() {
        return capacity;
    }

    /** The number of contacts held. */
    public int count() {
        return count;
    }

    /** Contacts not held since the last {@link #clear} because the bound was reached. */
    public int dropped() {
        return dropped;
    }

    /**
     * A new contact's index, its mode {@link AccelerationProblemData#PAIR_OUT} and force zero; −1 (counted in
     * {@link #dropped()}) when full.
     */
    int add() {
        if (count == capacity) {
            dropped++;
            return -1;
        }
        int i = count++;
        mode[i] = AccelerationProblemData.PAIR_OUT;
        reference[2 * i] = 0;
        reference[2 * i + 1] = 0;
        Arrays.fill(force, 3 * i, 3 * i + 3, 0);
        return i;
    }

    /** Records the state held from: gap, frame (9, world), B's witness (world) and u (3) of contact i. */
    void setState(int i, double g, double[] f, int fo, double[] x, int xo, double[] u, int uo) {
        gap[i] = g;
        System.arraycopy(f, fo, frame, 9 * i, 9);
        System.arraycopy(x, xo, worldPoint, 3 * i, 3);
        System.arraycopy(u, uo, velocity, 3 * i, 3);
    }

    /**
     * Sets contact i's mode: {@link AccelerationProblemData#PAIR_OUT}, {@link AccelerationProblemData#PAIR_NON_SLIDING},
     * {@link AccelerationProblemData#PAIR_SLIDING} or {@link AccelerationProblemData#PAIR_SLIDING_FIXED}, with the
     * (t1, t2) components of the unit reference direction of a sliding contact (read for sliding modes only).
     */
    public void setMode(int i, int m, double r1, double r2) {
        check(i);
        if (m < AccelerationProblemData.PAIR_OUT || m > AccelerationProblemData.PAIR_SLIDING_FIXED) {
            throw new IllegalArgumentException("mode " + m + " is none of AccelerationProblemData's PAIR_ modes");
        }
        mode[i] = m;
        reference[2 * i] = r1;
        reference[2 * i + 1] = r2;
    }

    /** Contact i's mode. */
    public int mode(int i) {
        return mode[i];
    }

    /** True when contact i is in the acceleration-level problem (its mode is not PAIR_OUT). */
    public boolean closed(int i) {
        return mode[i] != AccelerationProblemData.PAIR_OUT;
    }

    /** Component {@code axis} (0: t1, 1: t2) of sliding contact i's reference direction. */
    public double reference(int i, int axis) {
        return reference[2 * i + axis];
    }

    /** Sets contact i's force (N, its frame [n; t1; t2] at the last evaluation): the owner's record. */
    public void setForce(int i, double fn, double ft1, double ft2) {
        force[3 * i] = fn;
        force[3 * i + 1] = ft1;
        force[3 * i + 2] = ft2;
    }

    /** Sets every held contact's force to zero. */
    public void clearForces() {
        Arrays.fill(force, 0, 3 * count, 0);
    }

    /** Component c of contact i's force as last set (N, contact frame). */
    public double force(int i, int c) {
        return force[3 * i + c];
    }

    /** Contact i's identity: its two shapes (a ground as shapeCount + g) and its point's slot in their manifold. */
    public long key(int i) {
        return key[i];
    }

    /** Shape A of contact i (an index ≥ the set's shape count is ground index − shape count). */
    public int shapeA(int i) {
        return shapeA[i];
    }

    /** Shape B of contact i (a collision shape on a moving body). */
    public int shapeB(int i) {
        return shapeB[i];
    }

    /** The body of shape A (−1: the world). */
    public int bodyA(int i) {
        return bodyA[i];
    }

    /** The body of shape B. */
    public int bodyB(int i) {
        return bodyB[i];
    }

    /** Contact i's combined Coulomb μ. */
    public double friction(int i) {
        return friction[i];
    }

    /** Contact i's combined restitution. */
    public double restitution(int i) {
        return restitution[i];
    }

    /** Contact i's gap (m) at the state it was held from. */
    public double gap(int i) {
        return gap[i];
    }

    /** Component c of contact i's frame row d (0: n, 1: t1, 2: t2), world, at the state it was held from. */
    public double frame(int i, int d, int c) {
        return frame[9 * i + 3 * d + c];
    }

    /** Component c of B's witness of contact i (world, m) at the state it was held from. */
    public double worldPoint(int i, int c) {
        return worldPoint[3 * i + c];
    }

    /** Component c of contact i's velocity u = J v ([n; t1; t2], m/s) at the state it was held from. */
    public double velocity(int i, int c) {
        return velocity[3 * i + c];
    }

    /** Shape B's name. */
    public String ownName(int i) {
        return shapeName(shapeB[i]);
    }

    /** Shape A's name, or its ground's. */
    public String otherName(int i) {
        return shapeName(shapeA[i]);
    }

    private String shapeName(int s) {
        return s < set.shapeCount() ? set.shapes().get(s).name() : set.grounds().get(s - set.shapeCount()).name();
    }

    private void check(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("held contact " + i + " of " + count);
        }
    }
}
