package org.symdyn.generator.emit;

import com.squareup.javapoet.CodeBlock;
import java.util.List;
import java.util.Set;
import org.matheclipse.core.interfaces.ISymbol;

/**
 * Statements that define {@code defines} (none for an output assignment) from the values {@code uses}: either one
 * line of plain text ({@code line}, ending in a newline) or a block with control flow ({@code block}).
 */
record Statement(List<ISymbol> defines, String line, CodeBlock block, int bytes, Set<ISymbol> uses) {
    static Statement of(ISymbol defines, String statement, int bytes, Set<ISymbol> uses) {
        return new Statement(defines == null ? List.of() : List.of(defines), statement + ";\n", null, bytes, uses);
    }

    static Statement block(List<ISymbol> defines, CodeBlock block, int bytes) {
        return new Statement(defines, null, block, bytes, Set.of());
    }
}
