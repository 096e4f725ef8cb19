/**
 * Reading model files: what every format's reader shares, whatever the format. The formats SymDyn reads (URDF in
 * {@code org.symdyn.io.urdf}; MJCF and SDFormat beside it, each in a subpackage named after its format) are XML,
 * so the shared part is the XML layer and the reporting: {@link org.symdyn.io.XmlDocument} reads a file within a
 * size bound and parses it with a parser that loads nothing outside the document (no external DTD or entity),
 * refusing a document that is not well-formed at the parser's position or at the unknown encoding's name, and
 * reporting each entity reference that was not read; {@link org.symdyn.io.XmlElement} is the element tree with
 * the position of every start tag; {@link org.symdyn.io.ValueReader} reads attribute values strictly and collects
 * the problems, each a {@link org.symdyn.model.Diagnostic} at an element's start tag; {@link org.symdyn.io.Names}
 * refuses names generated code cannot carry; {@link org.symdyn.io.Messages} bounds the file text quoted in
 * messages; {@link org.symdyn.io.ModelChecks} runs the {@link org.symdyn.model.ModelCheck}s that the packages
 * above declare on each assembled model.
 *
 * <p>Named {@code io} rather than after a format because the formats share this layer and each format's
 * specifics sit one level below it; a package of its own, not a part of {@code org.symdyn.model}, because the
 * model is what the readers make, also made in code by {@link org.symdyn.model.ModelBuilder}, and knows nothing
 * of files. These packages import {@code org.symdyn.model}, {@code org.symdyn.spatial} and
 * {@code org.symdyn.contract} and nothing else of SymDyn: nothing of {@code org.symdyn.dynamics} or what is built
 * on it. The check that needs the dynamics (H at the zero configuration) is
 * {@code org.symdyn.dynamics.JointSpaceInertiaCheck}, reached through {@code META-INF/services}.
 */
package org.symdyn.io;
