package org.symdyn.simulation;

import java.io.IOException;
import java.util.Locale;

/**
 * A preallocated per-step record of a run, for plots of drift: time t (s), step h (s), constraint errors ‖φ‖₂ and
 * ‖φ̇‖₂ (units of the rows: m or rad, m/s or rad/s), kinetic energy T, potential energy V (J) and the largest
 * quaternion norm error. Records the initial state too when used as the listener of {@link Simulator#run}. When
 * full it keeps every {@code stride}-th record of what it holds and doubles its stride (so a log of capacity n of a
 * run of N steps holds between n/2 and n evenly spaced records; maxima are tracked over every step regardless).
 * Recording does not allocate. Energies are only computed when {@link #recordEnergy} is true (default), as they cost
 * a mass matrix per step.
 */
public final class SimulationLog implements StepListener {
    private final double[] time;
    private final double[] step;
    private final double[] phi;
    private final double[] phidot;
    private final double[] kinetic;
    private final double[] potential;
    private final double[] quaternion;
    private final boolean recordEnergy;
    private int size;
    private int stride = 1;
    private long seen;
    private double maxPhi;
    private double maxPhidot;
    private double maxQuaternion;
    private double initialEnergy = Double.NaN;
    private double maxEnergyDrift;

    /** A log of at most {@code capacity} records (≥ 2), with energies. */
    public SimulationLog(int capacity) {
        this(capacity, true);
    }

    /** A log of at most {@code capacity} records (≥ 2). */
    public SimulationLog(int capacity, boolean recordEnergy) {
        if (capacity < 2) {
            throw new IllegalArgumentException("capacity must be at least 2, got " + capacity);
        }
        time = new double[capacity];
        step = new double[capacity];
        phi = new double[capacity];
        phidot = new double[capacity];
        kinetic = new double[capacity];
        potential = new double[capacity];
        quaternion = new double[capacity];
        this.recordEnergy = recordEnergy;
    }

    @Override
    public void onStep(Simulator sim) {
        double p = sim.positionErrorNorm();
        double pd = sim.velocityErrorNorm();
        double qe = sim.quaternionNormError();
        maxPhi = Math.max(maxPhi, p);
        maxPhidot = Math.max(maxPhidot, pd);
        maxQuaternion = Math.max(maxQuaternion, qe);
        double kin = Double.NaN;
        double pot = Double.NaN;
        if (recordEnergy) {
            kin = sim.kineticEnergy();
            pot = sim.potentialEnergy();
            if (Double.isNaN(initialEnergy)) {
                initialEnergy = kin + pot;
            }
            maxEnergyDrift = Math.max(maxEnergyDrift, Math.abs(kin + pot - initialEnergy));
        }
        if (seen++ % stride != 0) {
            return;
        }
        if (size == time.length) {
            // Keep every other record and halve the sampling rate from now on.
            for (int i = 0; 2 * i < size; i++) {
                time[i] = time[2 * i];
                step[i] = step[2 * i];
                phi[i] = phi[2 * i];
                phidot[i] = phidot[2 * i];
                kinetic[i] = kinetic[2 * i];
                potential[i] = potential[2 * i];
                quaternion[i] = quaternion[2 * i];
            }
            size = (size + 1) / 2;
            stride *= 2;
            if ((seen - 1) % stride != 0) {
                return;
            }
        }
        time[size] = sim.time();
        step[size] = sim.lastStepSize();
        phi[size] = p;
        phidot[size] = pd;
        kinetic[size] = kin;
        potential[size] = pot;
        quaternion[size] = qe;
        size++;
    }

    /** Number of records held. */
    public int size() {
        return size;
    }

    /** Time of record i (s). */
    public double time(int i) {
        check(i);
        return time[i];
    }

    /** The step that led to record i (s; 0 for the initial state). */
    public double stepSize(int i) {
        check(i);
        return step[i];
    }

    /** ‖φ‖₂ at record i. */
    public double positionError(int i) {
        check(i);
        return phi[i];
    }

    /** ‖φ̇‖₂ at record i. */
    public double velocityError(int i) {
        check(i);
        return phidot[i];
    }

    /** T at record i (J; NaN without energies). */
    public double kineticEnergy(int i) {
        check(i);
        return kinetic[i];
    }

    /** V at record i (J; NaN without energies). */
    public double potentialEnergy(int i) {
        check(i);
        return potential[i];
    }

    /** T + V at record i (J; NaN without energies). */
    public double totalEnergy(int i) {
        check(i);
        return kinetic[i] + potential[i];
    }

    /** max | |quat| - 1 | at record i. */
    public double quaternionNormError(int i) {
        check(i);
        return quaternion[i];
    }

    /** max ‖φ‖₂ over every step seen (not only the records held). */
    public double maxPositionError() {
        return maxPhi;
    }

    /** max ‖φ̇‖₂ over every step seen. */
    public double maxVelocityError() {
        return maxPhidot;
    }

    /** max | |quat| - 1 | over every step seen. */
    public double maxQuaternionNormError() {
        return maxQuaternion;
    }

    /** max |E(t) - E(0)| over every step seen (J), E = T + V; NaN without energies. */
    public double maxEnergyDrift() {
        return recordEnergy ? maxEnergyDrift : Double.NaN;
    }

    /** E of the first step seen (J). */
    public double initialEnergy() {
        return initialEnergy;
    }

    /** Steps seen (records offered), including the initial state. */
    public long stepsSeen() {
        return seen;
    }

    /** Forgets everything (keeps the arrays). */
    public void clear() {
        size = 0;
        stride = 1;
        seen = 0;
        maxPhi = maxPhidot = maxQuaternion = maxEnergyDrift = 0;
        initialEnergy = Double.NaN;
    }

    /** Writes the records as CSV with a header: t,h,phi,phidot,kinetic,potential,total,quat_norm_error. */
    public void writeCsv(Appendable out) throws IOException {
        out.append("t,h,phi,phidot,kinetic,potential,total,quat_norm_error\n");
        for (int i = 0; i < size; i++) {
            out.append(String.format(Locale.ROOT, "%.9g,%.6g,%.6e,%.6e,%.12g,%.12g,%.15g,%.3e%n", time[i], step[i],
                    phi[i], phidot[i], kinetic[i], potential[i], kinetic[i] + potential[i], quaternion[i]));
        }
    }

    private void check(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("record " + i + " of " + size);
        }
    }
}
