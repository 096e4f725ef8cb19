package org.symdyn.solvers;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.ModelInfo;
import org.symdyn.model.Model;

/**
 * Which velocity coordinates (degrees of freedom) of a model are driven by actuators (RBDL's
 * {@code ConstraintSet::SetActuationMap}). It defines the selection matrices used by
 * {@link ConstrainedInverseDynamics}:
 * <pre>
 *   S (n_a x n): rows e_kᵀ of the actuated dofs,     u = S v̇,  the generalised actuator force is Sᵀ τ_a
 *   P (n_u x n): rows e_kᵀ of the unactuated dofs,   w = P v̇,  n_a + n_u = n,  v̇ = Sᵀ u + Pᵀ w
 * </pre>
 * both in increasing dof order. (RBDL's documentation uses S and P the same way; some texts call the actuation
 * matrix P: here P is always the unactuated one.) Immutable.
 */
public final class ActuationMap {
    private final boolean[] actuated;
    private final int[] actuatedDofs;
    private final int[] unactuatedDofs;
    private final List<String> dofNames;

    private ActuationMap(boolean[] actuated, List<String> dofNames) {
        this.actuated = actuated.clone();
        this.dofNames = dofNames;
        int na = 0;
        for (boolean a : actuated) {
            na += a ? 1 : 0;
        }
        actuatedDofs = new int[na];
        unactuatedDofs = new int[actuated.length - na];
        for (int i = 0, ka = 0, ku = 0; i < actuated.length; i++) {
            if (actuated[i]) {
                actuatedDofs[ka++] = i;
            } else {
                unactuatedDofs[ku++] = i;
            }
        }
    }

    /**
     * From one flag per velocity coordinate of {@code model} (true: driven by an actuator).
     *
     * @throws IllegalArgumentException if the length is not nv
     */
    public static ActuationMap of(ModelInfo model, boolean[] actuatedDof) {
        if (actuatedDof.length != model.nv()) {
            throw new IllegalArgumentException("the actuation map needs one flag per dof (" + model.nv()
                    + "), got " + actuatedDof.length);
        }
        return new ActuationMap(actuatedDof, Collections.unmodifiableList(new ArrayList<>(model.vNames())));
    }

    /** {@link #of(ModelInfo, boolean[])} of {@link Model#info()}. */
    public static ActuationMap of(Model model, boolean[] actuatedDof) {
        return of(model.info(), actuatedDof);
    }

    /** Every dof actuated. */
    public static ActuationMap allActuated(ModelInfo model) {
        boolean[] a = new boolean[model.nv()];
        Arrays.fill(a, true);
        return of(model, a);
    }

    /** {@link #allActuated(ModelInfo)} of {@link Model#info()}. */
    public static ActuationMap allActuated(Model model) {
        return allActuated(model.info());
    }

    /** Every dof actuated except those of floating joints (a free-floating base is never driven). */
    public static ActuationMap allButFloatingBase(ModelInfo model) {
        boolean[] a = new boolean[model.nv()];
        for (int b = 0; b < model.bodyCount(); b++) {
            for (int d = 0; d < model.jointNv(b); d++) {
                a[model.vIndex(b) + d] = !model.isFloating(b);
            }
        }
        return of(model, a);
    }

    /** {@link #allButFloatingBase(ModelInfo)} of {@link Model#info()}. */
    public static ActuationMap allButFloatingBase(Model model) {
        return allButFloatingBase(model.info());
    }

    /**
     * Exactly the dofs of the named joints actuated.
     *
     * @throws IllegalArgumentException if a name is not a joint of the model
     */
    public static ActuationMap ofJoints(ModelInfo model, String... jointNames) {
        boolean[] a = new boolean[model.nv()];
        for (String name : jointNames) {
            int body = model.jointNames().indexOf(name);
            if (body < 0) {
                throw new IllegalArgumentException("no joint named '" + name + "' in model '" + model.modelName()
                        + "'; joints: " + model.jointNames());
            }
            for (int d = 0; d < model.jointNv(body); d++) {
                a[model.vIndex(body) + d] = true;
            }
        }
        return of(model, a);
    }

    /** {@link #ofJoints(ModelInfo, String...)} of {@link Model#info()}. */
    public static ActuationMap ofJoints(Model model, String... jointNames) {
        return ofJoints(model.info(), jointNames);
    }

    /** Number of velocity coordinates n. */
    public int nv() {
        return actuated.length;
    }

    /** Number of actuated dofs n_a. */
    public int actuatedCount() {
        return actuatedDofs.length;
    }

    /** Number of unactuated dofs n_u = n - n_a. */
    public int unactuatedCount() {
        return unactuatedDofs.length;
    }

    /** True if dof i is actuated. */
    public boolean isActuated(int dof) {
        return actuated[dof];
    }

    /** The k-th actuated dof (row k of S). */
    public int actuatedDof(int k) {
        return actuatedDofs[k];
    }

    /** The k-th unactuated dof (row k of P). */
    public int unactuatedDof(int k) {
        return unactuatedDofs[k];
    }

    /** The actuated dofs in increasing order (a copy). */
    public int[] actuatedDofs() {
        return actuatedDofs.clone();
    }

    /** The unactuated dofs in increasing order (a copy). */
    public int[] unactuatedDofs() {
        return unactuatedDofs.clone();
    }

    /** The name of a velocity coordinate (the model's vNames). */
    public String dofName(int dof) {
        return dofNames.get(dof);
    }

    /** S (n_a x n), a new matrix. */
    public DMatrixRMaj selectionMatrix() {
        DMatrixRMaj s = new DMatrixRMaj(actuatedDofs.length, actuated.length);
        for (int k = 0; k < actuatedDofs.length; k++) {
            s.set(k, actuatedDofs[k], 1);
        }
        return s;
    }

    /** P (n_u x n), a new matrix. */
    public DMatrixRMaj unactuatedSelectionMatrix() {
        DMatrixRMaj p = new DMatrixRMaj(unactuatedDofs.length, actuated.length);
        for (int k = 0; k < unactuatedDofs.length; k++) {
            p.set(k, unactuatedDofs[k], 1);
        }
        return p;
    }

    @Override
    public String toString() {
        List<String> a = new ArrayList<>();
        for (int d : actuatedDofs) {
            a.add(dofNames.get(d));
        }
        return "ActuationMap{actuated " + a + ", " + unactuatedDofs.length + " unactuated}";
    }
}
