package org.symdyn.generator.symbolic;

import org.matheclipse.core.interfaces.IExpr;

/**
 * The result of a motion pass: per body, the spatial velocity [ω; v_origin] and spatial acceleration (Featherstone's,
 * [ω̇; v̇_origin - ω × v_origin]), each 6 entries in the body's own coordinates.
 *
 * @param velocity     velocity[i], body i's velocity
 * @param acceleration acceleration[i], body i's acceleration
 */
public record SymbolicMotion(IExpr[][] velocity, IExpr[][] acceleration) {
}
