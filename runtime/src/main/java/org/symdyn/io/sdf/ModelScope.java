package org.symdyn.io.sdf;

/**
 * One {@code <model>}, the scope of the names declared in it. SDFormat names the elements of a nested model
 * {@code outer::inner::name} from outside it; inside a model a name refers to that model's own elements (and from 1.8
 * on to those of models nested in it, as {@code inner::name}), and {@code __model__} to the model's own frame.
 *
 * @param prefix    what the model's own names get in front, {@code ""} for the top model, else
 *                  {@code "outer::inner::"}
 * @param frame     the model frame's name: {@code __model__} for the top model, the scoped model name for a nested
 *                  one
 * @param version   the version of the file the model is written in
 * @param isStatic  the model or a model around it is {@code <static>true</static>}
 */
record ModelScope(String prefix, String frame, SdfVersion version, boolean isStatic) {
    /** The top model's frame. */
    static final String TOP_FRAME = "__model__";
    /** The world frame, a joint's parent when a model is attached to the world. */
    static final String WORLD = "world";

    /** The scoped name of a name written in this model: {@code __model__} is the model frame. */
    String resolve(String name) {
        if (name.equals(TOP_FRAME)) {
            return frame;
        }
        return prefix + name;
    }

    /** The scope of a model nested in this one under that name. */
    ModelScope nested(String name, SdfVersion nestedVersion, boolean nestedStatic) {
        String scoped = prefix + name;
        return new ModelScope(scoped + "::", scoped, nestedVersion, isStatic || nestedStatic);
    }
}
