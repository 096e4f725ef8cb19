package org.symdyn.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.symdyn.manifold.StateSpace;
import org.symdyn.model.JointType;

/**
 * The continuous-time step with events, on a model-free hybrid system: a ball on a prismatic z coordinate under
 * gravity g that bounces off z = 0 with restitution e. Constant acceleration makes Runge-Kutta 4 exact, so the
 * impact time and the state after it are known in closed form: t₁ = √(2 z₀ / g), v⁺ = e g t₁.
 */
class IntegrationLoopTest {
    private static final double G = 9.81;
    private static final double E = 0.5;

    /** The ball's state and clock. */
    private static final class Ball extends SimulationState {
        Ball(StateSpace space) {
            super(space);
        }

        void set(double z, double vz) {
            assignState(0, new double[] {z}, new double[] {vz});
        }
    }

    /** The floor: one event function, the height; the bounce applied at the start of the segment that touches. */
    private static final class Floor implements HybridEvents {
        int bounces;
        double bounceTime = Double.NaN;
        int steps;

        @Override
        public int eventFunctionCount() {
            return 1;
        }

        @Override
        public void beginStep() {
            steps++;
        }

        @Override
        public void beginSegment(double t, double[] q, double[] v) {
            if (q[0] <= 1e-9 && v[0] < 0) {
                v[0] = -E * v[0];
                bounces++;
                bounceTime = t;
            }
        }

        @Override
        public double segmentLimit(double t, double[] q, double[] v, double remaining) {
            return Double.POSITIVE_INFINITY;
        }

        @Override
        public boolean events(double[] q, double[] v, double[] g) {
            g[0] = q[0];
            return g[0] < 0;
        }

        @Override
        public void endStep(double[] q) {
        }
    }

    @Test
    void aBounceIsLocatedAndTheStepStillEndsAtH() {
        StateSpace space = new StateSpace(List.of(JointType.PRISMATIC));
        Integrator rk4 = new RungeKutta4(space, (q, v, t, vdot) -> vdot[0] = -G);
        Floor floor = new Floor();
        IntegrationLoop loop = IntegrationLoop.withEvents(rk4, floor, 1e-12);
        Ball ball = new Ball(space);
        assertThrows(IllegalStateException.class, () -> loop.step(ball, 0.01));
        ball.set(1, 0);
        for (int i = 0; i < 60; i++) {
            assertEquals(0.01, loop.step(ball, 0.01));
        }
        double t1 = Math.sqrt(2 / G);
        double up = E * G * t1;
        double after = ball.time() - t1;
        assertEquals(0.6, ball.time(), 1e-14);
        assertEquals(60, ball.stepCount());
        assertEquals(60, floor.steps);
        assertEquals(1, floor.bounces);
        assertEquals(1, loop.eventCount());
        assertEquals(61, loop.segmentCount()); // the step of the impact is cut in two
        assertEquals(t1, floor.bounceTime, 1e-11);
        assertEquals(up * after - 0.5 * G * after * after, ball.q()[0], 1e-9);
        assertEquals(up - G * after, ball.v()[0], 1e-9);
        assertThrows(IllegalArgumentException.class, () -> loop.step(ball, 0));
    }
}
