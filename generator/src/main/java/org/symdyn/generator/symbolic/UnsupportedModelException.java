package org.symdyn.generator.symbolic;

import java.util.Objects;
import org.symdyn.model.SourceLocation;

/**
 * The generator's refusal of a model it cannot derive or generate, located where the model declares what is
 * refused: a constraint of a type the generator does not derive, or a model too large for the derivatives option
 * (located at its first link). The message is {@code path:[line,col] reason}.
 */
public final class UnsupportedModelException extends UnsupportedOperationException {
    private static final long serialVersionUID = 1L;

    private final transient SourceLocation location;
    private final String reason;

    /** A refusal at {@code location} for {@code reason} (a sentence without the location). */
    public UnsupportedModelException(SourceLocation location, String reason) {
        super(location + " " + reason);
        this.location = Objects.requireNonNull(location, "location");
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** Where the model declares what is refused. */
    public SourceLocation location() {
        return location;
    }

    /** Why, without the location. */
    public String reason() {
        return reason;
    }
}
