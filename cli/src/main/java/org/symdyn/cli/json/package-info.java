/**
 * The command line's JSON: Jackson's streaming core underneath, a small tree with positions on top.
 *
 * <p>{@link org.symdyn.cli.json.JsonReader} parses strict RFC 8259 JSON with Jackson's {@code JsonParser} (no
 * comments, trailing commas, NaN, duplicate keys or anything after the value) into a
 * {@link org.symdyn.cli.json.JsonValue} tree that remembers where each value starts, so that every error, Jackson's
 * or the states file's, names the file, line and column in the {@code path:[line,col] message} form the rest of
 * SymDyn uses; {@link org.symdyn.cli.json.JsonWriter} prints a tree with Jackson's {@code JsonGenerator}, doubles in
 * their shortest round-trip form. jackson-core has no tree model of its own (that is jackson-databind), hence
 * {@link org.symdyn.cli.json.JsonValue}.
 */
package org.symdyn.cli.json;
