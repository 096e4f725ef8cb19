package org.symdyn.model;

/**
 * A model number that generated code keeps as a settable parameter instead of folding it in (for identification
 * or design optimisation): a link's mass, centre of mass or inertia, a joint's origin offset, or a joint's armature.
 * Declared in a model file as {@code <symdyn:parameter name="payload_mass" link="tool" field="mass"/>},
 * {@code <symdyn:parameter name="upper_arm_length" joint="elbow" field="origin_z"/>} or
 * {@code <symdyn:parameter name="elbow_rotor" joint="elbow" field="armature"/>}.
 *
 * @param name      the parameter's name, a Java identifier unique in the model
 * @param field     which number it stands for
 * @param body      the moving body whose link carries it (link fields) or whose joint it places (origin fields)
 * @param value     its value in the model (the default of the generated field)
 * @param direction for origin fields: the unit direction, in the parent body's frame, along which the joint
 *                  origin moves per unit of the parameter (the parent frame's axis x, y or z); null otherwise
 * @param location  where it was declared
 */
public record ParameterModel(String name, Field field, int body, double value, double[] direction,
        SourceLocation location) {

    public ParameterModel {
        direction = direction == null ? null : direction.clone();
    }

    @Override
    public double[] direction() {
        return direction == null ? null : direction.clone();
    }

    /**
     * The name with its first character upper-cased: what a generated class's accessors {@code get<Name>} and
     * {@code set<Name>} append, so that the model refuses names whose accessors would clash.
     */
    public static String accessorSuffix(String name) {
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    /**
     * The numbers a parameter may stand for. Link fields refer to the moving link's own inertial (not to links
     * merged into it by fixed joints): mass (kg); the centre of mass in link coordinates (m); the inertia about
     * the centre of mass in link axes (kg m², equal to the URDF numbers when the inertial frame is not rotated).
     * Origin fields are the joint origin's coordinates in its parent link's frame (m).
     */
    public enum Field {
        MASS("mass"), COM_X("com_x"), COM_Y("com_y"), COM_Z("com_z"),
        IXX("ixx"), IXY("ixy"), IXZ("ixz"), IYY("iyy"), IYZ("iyz"), IZZ("izz"),
        ORIGIN_X("origin_x"), ORIGIN_Y("origin_y"), ORIGIN_Z("origin_z"),
        /** A joint's armature (kg m² or kg: the rotor inertia added to H's diagonal on each of its dofs). */
        ARMATURE("armature");

        private final String fileName;

        Field(String fileName) {
            this.fileName = fileName;
        }

        /** The name used in model files. */
        public String fileName() {
            return fileName;
        }

        /** The field of that file name, or null. */
        public static Field of(String fileName) {
            for (Field f : values()) {
                if (f.fileName.equals(fileName)) {
                    return f;
                }
            }
            return null;
        }

        /**
         * Where a link field sits in an inertia's 13 numbers (m, c_x, c_y, c_z, then I_c row-major): one place, or
         * two for a product of inertia (I_c is symmetric). Empty for joint fields.
         */
        public int[] inertiaSlots() {
            return switch (this) {
                case MASS -> new int[] {0};
                case COM_X -> new int[] {1};
                case COM_Y -> new int[] {2};
                case COM_Z -> new int[] {3};
                case IXX -> new int[] {4};
                case IXY -> new int[] {5, 7};
                case IXZ -> new int[] {6, 10};
                case IYY -> new int[] {8};
                case IYZ -> new int[] {9, 11};
                case IZZ -> new int[] {12};
                default -> new int[0];
            };
        }

        /** True for fields of a link's inertial; false for joint fields (origin, armature). */
        public boolean isLinkField() {
            return ordinal() <= IZZ.ordinal();
        }

        /** True for the joint origin's coordinates. */
        public boolean isOrigin() {
            return this == ORIGIN_X || this == ORIGIN_Y || this == ORIGIN_Z;
        }
    }
}
