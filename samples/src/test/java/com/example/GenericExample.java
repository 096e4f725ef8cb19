package com.example;

import com.example.robots.Arm7Dynamics;
import java.nio.file.Path;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.io.urdf.UrdfReader;

/** The generic interpreter: a model read at run time, evaluated without generating code. */
public class GenericExample {
    public static void main(String[] args) {
        Path file = Path.of(args.length > 0 ? args[0] : "src/main/symdyn/arm7.urdf");   // from the project folder
        Model model;
        try {
            model = UrdfReader.read(file);
        } catch (ModelException e) {
            e.diagnostics().forEach(System.err::println);   // every problem of the file, as path:[line,col] message
            throw new IllegalStateException("cannot read " + file, e);
        }
        GenericDynamics generic = new GenericDynamics(model);   // the same interfaces as a generated class
        Arm7Dynamics generated = new Arm7Dynamics();

        double[] q = new double[model.nq()];
        q[1] = 0.5;
        q[3] = -1.2;
        DMatrixRMaj hGeneric = new DMatrixRMaj(model.nv(), model.nv());
        DMatrixRMaj hGenerated = new DMatrixRMaj(model.nv(), model.nv());
        generic.massMatrix(q, hGeneric);
        generated.massMatrix(q, hGenerated);
        double largest = 0;
        for (int i = 0; i < hGeneric.getNumElements(); i++) {
            largest = Math.max(largest, Math.abs(hGeneric.get(i) - hGenerated.get(i)));
        }
        System.out.println(model.name() + ": H generic - generated, largest entry " + largest);
    }
}
