/**
 * The URDF reader: {@link org.symdyn.io.urdf.UrdfReader} reads a URDF file, with SymDyn's extension elements in
 * namespace {@value org.symdyn.io.urdf.UrdfReader#NAMESPACE}, into a {@link org.symdyn.model.Model}; the classes
 * beside it are URDF's own rules: links and joints as declared, the tree ordered depth first in document order,
 * the floating base, the extension elements (constraints, devices) and the warnings about namespaces. The XML
 * layer and the reporting they share with the other formats' readers are {@code org.symdyn.io}'s.
 */
package org.symdyn.io.urdf;
