package org.symdyn.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.symdyn.contact.ContactReport;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.TimeStepper;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;
import org.symdyn.samples.generated.QuadrupedDynamics;

/**
 * Time stepping with unilateral contact on the sample quadruped: dropped 2 cm onto the floor of its model file with
 * PD-held joints, through the generic runtime (model file read) and through the generated class alone (contacts
 * declared in code): the same trajectory, every contact solve converged, and at the end it stands on four feet
 * whose normal impulses carry its weight.
 */
class QuadrupedContactTest {
    private static final double H = 1e-3;

    @Test
    void generatedAloneAndGenericStepTheSameLanding() throws Exception {
        Model model = SampleModels.load("quadruped.urdf");
        GenericDynamics generic = new GenericDynamics(model);
        QuadrupedDynamics generated = new QuadrupedDynamics();
        TimeStepper a = TimeStepper.builder(generic).contacts(ContactSet.of(model)).build();
        ContactSet.Builder inCode = ContactSet.builder(generated).ground("floor", new double[3],
                new double[] {0, 0, 1}, 0.8, 0);
        for (String leg : QuadrupedStandingDemo.LEGS) {
            inCode.point(leg + "_toe", leg + "_shank", footInShank(model, leg));
        }
        TimeStepper b = TimeStepper.builder(generated).contacts(inCode.build()).build();

        double[] stand = QuadrupedStandingDemo.standingPose(model);
        double[] qa = stand.clone();
        qa[2] += 0.02;
        double[] qb = qa.clone();
        double[] va = new double[model.nv()], vb = new double[model.nv()];
        double[] tauA = new double[model.nv()], tauB = new double[model.nv()];
        double worst = 0;
        for (int i = 0; i < 600; i++) {
            pd(stand, qa, va, tauA);
            pd(stand, qb, vb, tauB);
            ContactReport ra = a.step(qa, va, tauA, H, qa, va);
            assertTrue(ra.converged(), ra::toString);
            ContactReport rb = b.step(qb, vb, tauB, H, qb, vb);
            assertTrue(rb.converged(), rb::toString);
            for (int j = 0; j < qa.length; j++) {
                worst = Math.max(worst, Math.abs(qa[j] - qb[j]));
            }
            for (int j = 0; j < va.length; j++) {
                worst = Math.max(worst, Math.abs(va[j] - vb[j]) * H);
            }
        }
        assertTrue(worst <= 1e-9, "generated and generic trajectories differ by " + worst);
        assertEquals(4, a.contactCount(), "stands on four feet");
        double mass = 0;
        for (int body = 0; body < model.bodyCount(); body++) {
            mass += model.body(body).inertia().mass();
        }
        double normal = 0;
        for (int k = 0; k < 4; k++) {
            normal += a.contactImpulse(k, 0);
        }
        assertEquals(mass * 9.81 * H, normal, 0.01 * mass * 9.81 * H, "the feet carry the weight: " + a.summary());
    }

    /** The foot link's origin in its shank's coordinates (the fixed joint's placement). */
    private static double[] footInShank(Model model, String leg) {
        return model.frame(leg + "_foot").pose().translationArray();
    }

    /** τ = kp (q_stand − q) − kd v on the joints, 0 on the base. */
    private static void pd(double[] stand, double[] q, double[] v, double[] tau) {
        for (int j = 6; j < v.length; j++) {
            tau[j] = 200 * (stand[j + 1] - q[j + 1]) - 5 * v[j];
        }
    }
}
