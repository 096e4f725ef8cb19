package org.symdyn.contact;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.GenericModel;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.Kinematics;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.dynamics.StateScope;
import org.symdyn.model.Model;

/**
 * A time stepper on the interpreter scopes each step ({@link StateScope}: H, C and the contact kinematics share one
 * kinematics pass) and changes no bit: a box sliding down an incline and a block on its corners, stepped on
 * {@link GenericDynamics} and on {@link GenericModel} (both scoped), agree exactly with the same interpreter seen
 * through a proxy that hides {@link StateScope} (every call recomputes).
 */
class ScopedStepTest {
    /** Dynamics and kinematics, nothing else (what the proxy implements). */
    interface Functions extends Dynamics, Kinematics {
    }

    private static Functions unscoped(GenericDynamics target) {
        return (Functions) Proxy.newProxyInstance(ScopedStepTest.class.getClassLoader(),
                new Class<?>[] {Functions.class}, (proxy, method, args) -> {
                    try {
                        return method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void scopedStepsEqualUnscopedStepsBitForBit() {
        double theta = 0.7;
        Model[] models = {ContactScenes.box(1, 0.1, ContactScenes.incline(theta, 0.5, 0.3)),
            ContactScenes.block(2, 0.2, true, ContactScenes.incline(0.1, 0.3, 0))};
        for (Model model : models) {
            Functions plain = unscoped(new GenericDynamics(model));
            assertFalse(plain instanceof StateScope);
            TimeStepper[] scoped = {TimeStepper.builder(new GenericDynamics(model)).contacts(ContactSet.of(model))
                .build(), TimeStepper.builder(new GenericModel(model)).contacts(ContactSet.of(model)).build()};
            for (TimeStepper stepper : scoped) {
                TimeStepper reference = TimeStepper.builder(plain).contacts(ContactSet.of(model)).build();
                double[] qa = ContactScenes.onIncline(theta, 0.12, 0); // both are free bodies: the same q layout
                double[] va = new double[model.nv()];
                va[va.length - 1] = -0.5;
                double[] qb = qa.clone();
                double[] vb = va.clone();
                double[] tau = new double[model.nv()];
                for (int i = 0; i < 400; i++) {
                    stepper.step(qa, va, tau, 1e-3, qa, va);
                    reference.step(qb, vb, tau, 1e-3, qb, vb);
                    assertArrayEquals(qb, qa, 0.0, model.name() + " q at step " + i);
                    assertArrayEquals(vb, va, 0.0, model.name() + " v at step " + i);
                }
            }
        }
    }
}
