package org.symdyn.generator.symbolic;

import org.matheclipse.core.interfaces.IExpr;

/**
 * The world pose of a frame: rotation world &lt;- frame (9, row-major, so x_world = R x_frame + position) and the
 * frame origin in world coordinates (3), as {@link org.symdyn.contract.Kinematics} returns them.
 *
 * @param rotation R, row-major
 * @param position the origin
 */
public record SymbolicPose(IExpr[] rotation, IExpr[] position) {
}
