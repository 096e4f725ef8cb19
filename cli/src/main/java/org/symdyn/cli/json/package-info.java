/**
 * A small, strict JSON reader and writer for the command line's input and output files.
 *
 * <p>Hand-written rather than taken from a library because the needs are small (a states file in, results out)
 * and because every error must name the file, line and column in the {@code path:[line,col] message} form that
 * the rest of SymDyn uses. {@link org.symdyn.cli.json.JsonReader} accepts exactly RFC 8259 JSON (no comments, no
 * trailing commas, no NaN, no duplicate keys) and remembers where each value started;
 * {@link org.symdyn.cli.json.JsonWriter} prints a {@link org.symdyn.cli.json.JsonValue} tree, with doubles in their
 * shortest round-trip form.
 */
package org.symdyn.cli.json;
