package org.symdyn.model;

/**
 * Two links whose collision shapes never touch each other ({@code <symdyn:no_contact link1 link2/>}, the SRDF
 * {@code disable_collisions} idea). By link, not by the body fixed joints merge links into; the order of the two
 * names does not matter.
 */
public record NoContactPair(String link1, String link2, SourceLocation location) {

    /** True when this pair names the links {@code a} and {@code b} in either order. */
    public boolean matches(String a, String b) {
        return (link1.equals(a) && link2.equals(b)) || (link1.equals(b) && link2.equals(a));
    }
}
