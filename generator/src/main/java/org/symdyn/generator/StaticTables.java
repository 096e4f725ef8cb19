package org.symdyn.generator;

import com.squareup.javapoet.ArrayTypeName;
import com.squareup.javapoet.CodeBlock;
import com.squareup.javapoet.FieldSpec;
import com.squareup.javapoet.MethodSpec;
import com.squareup.javapoet.TypeName;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * The static tables of a generated class (names, indices, frame offsets, constraint metadata, devices). A class
 * initialiser is a method like any other: HotSpot never compiles one over 8000 bytes of bytecode, and the generator
 * refuses such a class. An array initialiser costs 6-8 bytes per element (more past index 127), so up to
 * {@link #MAX_INLINE_ELEMENTS} elements over all tables (about 7 kB) they are written as literals ({@code {a, b, c}}, {@code List.of(a, b, c)}); beyond, each
 * table is built by a static method {@code NAME$init()} that fills it through methods of at most {@link #SLICE}
 * assignments each (a 60-link chain's tables were 8,689 bytes of class initialiser).
 */
final class StaticTables {
    /** Above this many elements over all tables, every table is filled by slice methods. */
    static final int MAX_INLINE_ELEMENTS = 900;
    /** Assignments per slice method (about 7 bytes each). */
    static final int SLICE = 250;

    private final boolean sliced;
    private final List<MethodSpec> methods = new ArrayList<>();

    /** Tables for a class whose tables hold {@code elements} elements in all. */
    StaticTables(int elements) {
        this.sliced = elements > MAX_INLINE_ELEMENTS;
    }

    /** True if the tables are filled by methods. */
    boolean sliced() {
        return sliced;
    }

    /** The slice methods written so far, to add to the class. */
    List<MethodSpec> methods() {
        return methods;
    }

    /**
     * {@code private static final T[] name}, its elements given as literals; for an array of arrays each literal is
     * a brace initialiser ({@code {1.0, 0.0}}), written {@code new double[] {1.0, 0.0}} when sliced.
     */
    FieldSpec array(ArrayTypeName type, String name, List<CodeBlock> elements) {
        FieldSpec.Builder f = FieldSpec.builder(type, name, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL);
        if (!sliced) {
            return f.initializer("{$L}", CodeBlock.join(elements, ", ")).build();
        }
        return f.initializer("$L$$init()", name).build();
    }

    /** Adds the static method {@code name$init()} and its slice methods that build the table (sliced form). */
    private void fill(ArrayTypeName type, String name, List<CodeBlock> elements) {
        MethodSpec.Builder init = MethodSpec.methodBuilder(name + "$init").addModifiers(Modifier.PRIVATE,
                Modifier.STATIC).returns(type);
        TypeName component = type.componentType;
        if (component instanceof ArrayTypeName inner) {
            init.addStatement("final $T a = new $T[$L][]", type, inner.componentType, elements.size());
        } else {
            init.addStatement("final $T a = new $T[$L]", type, component, elements.size());
        }
        // A slice holds up to SLICE values: a row of an array of arrays counts its values.
        int k = 0;
        for (int s = 0; k < elements.size(); s++) {
            String slice = name + "$" + s;
            init.addStatement("$L(a)", slice);
            MethodSpec.Builder m = MethodSpec.methodBuilder(slice).addModifiers(Modifier.PRIVATE, Modifier.STATIC)
                    .addParameter(type, "a");
            for (int values = 0; k < elements.size() && (values == 0 || values + weight(elements.get(k)) <= SLICE);
                    k++) {
                values += weight(elements.get(k));
                if (component instanceof ArrayTypeName) {
                    m.addStatement("a[$L] = new $T $L", k, component, elements.get(k));
                } else {
                    m.addStatement("a[$L] = $L", k, elements.get(k));
                }
            }
            methods.add(m.build());
        }
        methods.add(init.addStatement("return a").build());
    }

    /**
     * The number of values in a literal, for the slice budget: 1 for a number, a name or a string; the entries of a
     * row such as {@code {1.0, 0.0, 2.5}} or the arguments of a constructor call such as a device's
     * {@code new ServoSpec("s", "j", 7, 6, 200.0, ...)} (each about as many bytes of bytecode as an array entry).
     */
    private static int weight(CodeBlock element) {
        String text = element.toString();
        return text.startsWith("\"") ? 1 : text.split(",").length;
    }

    /** {@link #array} and, when sliced, its filling methods. */
    FieldSpec table(ArrayTypeName type, String name, List<CodeBlock> elements) {
        if (sliced) {
            fill(type, name, elements);
        }
        return array(type, name, elements);
    }

    /**
     * {@code private static final List<E> name = List.of(elements)}; when sliced, {@code List.of(name$init())} over
     * an array of {@code elementType} filled by slice methods.
     */
    FieldSpec list(TypeName listType, TypeName elementType, String name, List<CodeBlock> elements,
            CodeBlock inline) {
        FieldSpec.Builder f = FieldSpec.builder(listType, name, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL);
        if (!sliced) {
            return f.initializer(inline).build();
        }
        fill(ArrayTypeName.of(elementType), name, elements);
        return f.initializer("$T.of($L$$init())", List.class, name).build();
    }
}
