#!/usr/bin/env python3
"""Write an MJCF model of solo12 (MuJoCo 2.2.2) from its URDF, for timing mj_step standing on 4 feet.

Usage: python3 urdf2mjcf.py URDF OUT.xml [--kp KP] [--radius R] [--fuse]
Robots (by the URDF's robot name): "solo" (shared/models/solo12.urdf; defaults kp 6, radius 0.0175, friction 0.9)
and "quadruped" (SymDyn's samples/src/main/symdyn/quadruped.urdf, the robot of ContactStepBenchmark; kp 200,
joint damping 8 for the servos' kd, radius 0.01, friction 0.8, stand hfe 0.6, kfe -1.2).

Every number of the kinematic tree comes from the URDF: link masses, full inertia tensors (rotated into the
link frame if the inertial origin has an rpy), centre-of-mass offsets, joint origins (xyz, rpy as a quaternion),
joint axes. Revolute/continuous joints become hinges (limits dropped: +-10 rad in the URDF, never reached);
fixed joints become welded child bodies (or, with --fuse, leaf fixed links are merged into their parent here:
masses added, inertias combined by the parallel-axis theorem, the foot sphere moved to the parent at the foot
frame; MuJoCo 2.2.2's own fusestatic="true" left these bodies unfused). Visual/collision meshes are not copied: the only collision geoms are one sphere per foot
(centred at the foot frame, mass-less) and a plane floor; feet touch the floor only.
Added: freejoint on the root link, floor (friction 0.9), timestep 1 ms, 12 position servos (kp) holding the
standing pose HAA, HFE, KFE = +-0.1, +-0.8, -+1.6 (as SymDyn's ConstrainedSolverBenchmark.standing), a keyframe
"stand" with the base at the height where the foot spheres touch the floor. MuJoCo defaults otherwise
(Euler, Newton solver, pyramidal cone).
"""
import math
import sys
import xml.etree.ElementTree as ET

# Per robot (chosen by the URDF's robot name): feet, standing pose, servo gains, foot radius, floor friction.
def solo12_stand():
    # SymDyn ConstrainedSolverBenchmark.standing: HAA, HFE, KFE = +-0.1, +-0.8, -+1.6
    stand = {}
    for leg in ["FL", "FR", "HL", "HR"]:
        side = 1.0 if leg[1] == "L" else -1.0
        front = 1.0 if leg[0] == "F" else -1.0
        stand[leg + "_HAA"], stand[leg + "_HFE"], stand[leg + "_KFE"] = 0.1 * side, 0.8 * front, -1.6 * front
    return stand


def quadruped_stand():
    # samples/src/main/symdyn/quadruped.urdf servo targets: haa 0, hfe 0.6, kfe -1.2
    stand = {}
    for leg in ["lf", "rf", "lh", "rh"]:
        stand[leg + "_haa"], stand[leg + "_hfe"], stand[leg + "_kfe"] = 0.0, 0.6, -1.2
    return stand


PRESETS = {
    "solo": dict(feet=["FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"], stand=solo12_stand, kp=6.0, damping=0.0,
                 radius=0.0175, friction=0.9),
    # SymDyn's sample quadruped: point feet (a small sphere here), PD servos kp 200, kd 8 (as joint damping:
    # MuJoCo 2.2.2's position actuator has no kv), friction 0.8
    "quadruped": dict(feet=["lf_foot", "rf_foot", "lh_foot", "rh_foot"], stand=quadruped_stand, kp=200.0,
                      damping=8.0, radius=0.01, friction=0.8),
}
FEET = []


def vec(s, default="0 0 0"):
    return [float(x) for x in (s if s is not None else default).split()]


def rpy_matrix(r, p, y):
    # URDF: R = Rz(y) Ry(p) Rx(r)
    cr, sr, cp, sp, cy, sy = math.cos(r), math.sin(r), math.cos(p), math.sin(p), math.cos(y), math.sin(y)
    return [[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
            [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
            [-sp, cp * sr, cp * cr]]


def rpy_quat(r, p, y):
    cr, sr = math.cos(r / 2), math.sin(r / 2)
    cp, sp = math.cos(p / 2), math.sin(p / 2)
    cy, sy = math.cos(y / 2), math.sin(y / 2)
    return [cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy,
            cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy]  # w x y z


def matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def transpose(a):
    return [[a[j][i] for j in range(3)] for i in range(3)]


def matvec(a, v):
    return [sum(a[i][k] * v[k] for k in range(3)) for i in range(3)]


def fmt(v):
    return " ".join(repr(float(x)) for x in v)


def main():
    args = sys.argv[1:]
    opts = {"--kp": None, "--radius": None}
    fuse = "--fuse" in args
    args = [a for a in args if a != "--fuse"]
    pos = []
    i = 0
    while i < len(args):
        if args[i] in opts:
            opts[args[i]] = args[i + 1]
            i += 2
        else:
            pos.append(args[i])
            i += 1
    urdf_path, out_path = pos
    robot = ET.parse(urdf_path).getroot()
    preset = PRESETS[robot.get("name")]
    FEET[:] = preset["feet"]
    kp = float(opts["--kp"]) if opts["--kp"] else preset["kp"]
    radius = float(opts["--radius"]) if opts["--radius"] else preset["radius"]
    friction, damping = preset["friction"], preset["damping"]
    links = {l.get("name"): l for l in robot.findall("link")}
    joints = robot.findall("joint")
    children = {}
    parent_of = {}
    for j in joints:
        p, c = j.find("parent").get("link"), j.find("child").get("link")
        children.setdefault(p, []).append(j)
        parent_of[c] = j
    roots = [n for n in links if n not in parent_of]
    assert len(roots) == 1, roots
    root = roots[0]
    if links[root].find("inertial") is None and [j.get("type") for j in children.get(root, [])] == ["floating"]:
        root = children[root][0].find("child").get("link")  # a massless "world" link with a floating joint
    stand = preset["stand"]()

    total_mass = [0.0]
    hinge_order = []
    foot_z = {}

    def link_inertial(link):
        """(mass, com, 3x3 inertia about the com) of a link, in the link frame; None without <inertial>."""
        inertial = link.find("inertial")
        if inertial is None:
            return None
        m = float(inertial.find("mass").get("value"))
        total_mass[0] += m
        o = inertial.find("origin")
        xyz = vec(o.get("xyz") if o is not None else None)
        rpy = vec(o.get("rpy") if o is not None else None)
        a = inertial.find("inertia").attrib
        I = [[float(a["ixx"]), float(a["ixy"]), float(a["ixz"])],
             [float(a["ixy"]), float(a["iyy"]), float(a["iyz"])],
             [float(a["ixz"]), float(a["iyz"]), float(a["izz"])]]
        R = rpy_matrix(*rpy)
        return m, xyz, matmul(matmul(R, I), transpose(R))  # tensor expressed in the link frame

    def fixed_origin(joint):
        o = joint.find("origin")
        return (vec(o.get("xyz") if o is not None else None), vec(o.get("rpy") if o is not None else None))

    def combined(parts):
        """Merge [(m, com, I)] (same frame) by the parallel-axis theorem."""
        M = sum(p[0] for p in parts)
        c = [sum(p[0] * p[1][k] for p in parts) / M for k in range(3)]
        I = [[0.0] * 3 for _ in range(3)]
        for m, ci, Ii in parts:
            d = [ci[k] - c[k] for k in range(3)]
            dd = sum(x * x for x in d)
            for i in range(3):
                for j in range(3):
                    I[i][j] += Ii[i][j] + m * ((dd if i == j else 0.0) - d[i] * d[j])
        return M, c, I

    def inertial_xml(name, ind):
        """The link's <inertial>; with --fuse, merged with its fixed-joint leaf children (whose geoms move up)."""
        parts = []
        own = link_inertial(links[name])
        if own:
            parts.append(own)
        if fuse:
            for j in fused_children(name):
                xyz, rpy = fixed_origin(j)
                R = rpy_matrix(*rpy)
                li = link_inertial(links[j.find("child").get("link")])
                if li is None:
                    continue
                m, c, I = li
                parts.append((m, [xyz[k] + matvec(R, c)[k] for k in range(3)], matmul(matmul(R, I), transpose(R))))
        if not parts:
            return ""
        m, xyz, I = combined(parts)
        full = [I[0][0], I[1][1], I[2][2], I[0][1], I[0][2], I[1][2]]
        return f'{ind}<inertial pos="{fmt(xyz)}" mass="{m!r}" fullinertia="{fmt(full)}"/>\n'

    def fused_children(name):
        out = []
        for j in children.get(name, []):
            if fuse and j.get("type") == "fixed":
                assert not children.get(j.find("child").get("link")), "only leaf fixed links can be fused"
                out.append(j)
        return out

    def foot_geom(foot, ind, pos="0 0 0", quat="1 0 0 0"):
        return (f'{ind}<geom name="{foot}_sphere" type="sphere" size="{radius!r}" pos="{pos}" quat="{quat}" '
                f'mass="0" contype="1" conaffinity="0" friction="{friction!r} 0.005 0.0001" rgba="0.9 0.2 0.2 1"/>\n')

    def body_xml(name, ind, Rw, pw, joint=None):
        s = ""
        link = links[name]
        if joint is None:
            s += f'{ind}<body name="{name}" pos="0 0 0">\n'
            s += f'{ind}  <freejoint name="root"/>\n'
        else:
            o = joint.find("origin")
            xyz = vec(o.get("xyz") if o is not None else None)
            rpy = vec(o.get("rpy") if o is not None else None)
            s += f'{ind}<body name="{name}" pos="{fmt(xyz)}" quat="{fmt(rpy_quat(*rpy))}">\n'
            jt = joint.get("type")
            Rj = rpy_matrix(*rpy)
            pw = [pw[k] + matvec(Rw, xyz)[k] for k in range(3)]
            Rw = matmul(Rw, Rj)
            if jt in ("revolute", "continuous"):
                ax = joint.find("axis")
                axis = vec(ax.get("xyz") if ax is not None else None, "1 0 0")
                jn = joint.get("name")
                damp = f' damping="{damping!r}"' if damping else ""
                s += f'{ind}  <joint name="{jn}" type="hinge" axis="{fmt(axis)}"{damp}/>\n'
                hinge_order.append(jn)
                q = stand.get(jn, 0.0)
                n = math.sqrt(sum(x * x for x in axis))
                u = [x / n for x in axis]
                c, sn = math.cos(q), math.sin(q)
                K = [[0, -u[2], u[1]], [u[2], 0, -u[0]], [-u[1], u[0], 0]]
                K2 = matmul(K, K)
                Rq = [[(1 if i == j else 0) + sn * K[i][j] + (1 - c) * K2[i][j] for j in range(3)] for i in range(3)]
                Rw = matmul(Rw, Rq)
            elif jt != "fixed":
                raise SystemExit("unsupported joint type " + jt)
        s += inertial_xml(name, ind + "  ")
        if name in FEET:
            s += foot_geom(name, ind + "  ")
            foot_z[name] = pw[2]
        fused = fused_children(name)
        for j in fused:  # a fused foot: its sphere sits in this body, at the foot frame
            child = j.find("child").get("link")
            xyz, rpy = fixed_origin(j)
            if child in FEET:
                s += foot_geom(child, ind + "  ", fmt(xyz), fmt(rpy_quat(*rpy)))
                foot_z[child] = pw[2] + matvec(Rw, xyz)[2]
        for j in children.get(name, []):
            if j not in fused:
                s += body_xml(j.find("child").get("link"), ind + "  ", Rw, pw, j)
        s += f"{ind}</body>\n"
        return s

    I3 = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    tree = body_xml(root, "    ", I3, [0, 0, 0])
    assert sorted(foot_z) == sorted(FEET), foot_z
    z0 = -min(foot_z.values()) + radius  # sphere centre at the foot frame, sphere bottom on z = 0
    qpos = [0, 0, z0, 1, 0, 0, 0] + [stand[j] for j in hinge_order]
    acts = "".join(f'    <position name="{j}_servo" joint="{j}" kp="{kp!r}"/>\n' for j in hinge_order)
    ctrl = [stand[j] for j in hinge_order]
    xml = f"""<!-- Generated by benchmarks/peers/mujoco/urdf2mjcf.py from {urdf_path}; do not edit.
     URDF total mass {total_mass[0]!r} kg; foot frames z (base at 0, standing pose): {fmt(foot_z[f] for f in FEET)}
     standing base height (sphere radius {radius}) {z0!r}; servo kp {kp!r}, joint damping {damping!r} -->
<mujoco model="{robot.get('name')}">
  <compiler angle="radian" inertiafromgeom="false"/>
  <option timestep="0.001"/>
  <worldbody>
    <geom name="floor" type="plane" size="0 0 1" contype="0" conaffinity="1" friction="{friction!r} 0.005 0.0001"/>
{tree}  </worldbody>
  <actuator>
{acts}  </actuator>
  <keyframe>
    <key name="stand" qpos="{fmt(qpos)}" ctrl="{fmt(ctrl)}"/>
  </keyframe>
</mujoco>
"""
    with open(out_path, "w") as f:
        f.write(xml)
    print(f"wrote {out_path}: {len(hinge_order)} hinges, URDF total mass {total_mass[0]:.8f} kg, "
          f"base height {z0:.6f} m, fuse={fuse}")


if __name__ == "__main__":
    main()
