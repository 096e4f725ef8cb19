/**
 * The SDFormat reader: {@link org.symdyn.io.sdf.SdfReader} reads an {@code .sdf} file (1.6 to 1.11) into a
 * {@link org.symdyn.model.Model}.
 */
package org.symdyn.io.sdf;
