#!/usr/bin/env python3
"""Large test models for the generation-time table of benchmarks/README.md (issue 14).

  large_models.py chain N > chainN.urdf      a plain chain of N revolute links (1-1.6 kg, full inertias, axes
                                             cycling z, y, x)
  large_models.py humanoid > humanoid71.urdf a humanoid with hands: 65 revolute joints (legs 2 x 7, waist 2, neck
                                             3, arms 2 x 7, hands 2 x 16); with --floating, 71 dof

Deterministic (seeded): the same command writes the same file. Inertias are those of solid boxes, so every link
passes the reader's physical checks.
"""
import random
import sys


def box_inertia(m, a, b, c):
    return m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12


def link(name, m, size, com):
    ixx, iyy, izz = box_inertia(m, *size)
    off = 0.02 * min(ixx, iyy, izz)  # products of inertia: small, so that the inertia stays positive definite
    return ('<link name="%s"><inertial><origin xyz="%.4f %.4f %.4f" rpy="0 0 0"/><mass value="%.4f"/>'
            '<inertia ixx="%.8f" ixy="%.8f" ixz="%.8f" iyy="%.8f" iyz="%.8f" izz="%.8f"/></inertial></link>'
            % (name, com[0], com[1], com[2], m, ixx, off, 2 * off, iyy, 3 * off, izz))


def joint(name, parent, child, xyz, axis, rpy=(0, 0, 0)):
    return ('<joint name="%s" type="revolute"><parent link="%s"/><child link="%s"/>'
            '<origin xyz="%.4f %.4f %.4f" rpy="%.3f %.3f %.3f"/><axis xyz="%d %d %d"/>'
            '<limit lower="-3" upper="3" effort="100" velocity="10"/></joint>'
            % (name, parent, child, xyz[0], xyz[1], xyz[2], rpy[0], rpy[1], rpy[2], axis[0], axis[1], axis[2]))


AXES = [(0, 0, 1), (0, 1, 0), (1, 0, 0)]


def chain(n):
    rnd = random.Random(n)
    out = ['<?xml version="1.0"?>', '<robot name="chain%d">' % n, '<link name="base"/>']
    parent = 'base'
    for i in range(n):
        m = 1 + 0.6 * rnd.random()
        out.append(link('l%d' % i, m, (0.08, 0.1, 0.35), (0.01, 0.02, 0.1)))
        out.append(joint('j%d' % i, parent, 'l%d' % i, (0, 0, 0.2), AXES[i % 3]))
        parent = 'l%d' % i
    out.append('</robot>')
    return '\n'.join(out)


def humanoid():
    rnd = random.Random(71)
    out = ['<?xml version="1.0"?>', '<robot name="humanoid71">']
    out.append(link('pelvis', 8.0, (0.3, 0.2, 0.15), (0, 0, 0.05)))

    def limb(prefix, parent, n, offset, step, mass, size):
        names = []
        for i in range(n):
            name = '%s%d' % (prefix, i)
            out.append(link(name, mass * (0.8 + 0.4 * rnd.random()), size, (0.0, 0.01, step[2] / 2)))
            out.append(joint(name + '_joint', parent, name, offset if i == 0 else step, AXES[i % 3],
                             (0.05 * (i % 2), 0, 0)))
            parent = name
            names.append(name)
        return parent

    for side, y in (('l', 0.1), ('r', -0.1)):
        limb(side + '_leg', 'pelvis', 7, (0, y, -0.1), (0, 0, -0.3), 3.0, (0.1, 0.1, 0.3))
    torso = limb('waist', 'pelvis', 2, (0, 0, 0.1), (0, 0, 0.15), 6.0, (0.3, 0.2, 0.2))
    limb('neck', torso, 3, (0, 0, 0.3), (0, 0, 0.05), 1.0, (0.1, 0.1, 0.1))
    for side, y in (('l', 0.2), ('r', -0.2)):
        wrist = limb(side + '_arm', torso, 7, (0, y, 0.25), (0, 0, -0.2), 1.5, (0.08, 0.08, 0.2))
        for f in range(5):
            n = 4 if f == 0 else 3
            limb('%s_finger%d_' % (side, f), wrist, n, (0.02 * f - 0.04, 0, -0.08), (0, 0, -0.03), 0.03,
                 (0.015, 0.015, 0.03))
    out.append('</robot>')
    return '\n'.join(out)


if __name__ == '__main__':
    if len(sys.argv) == 3 and sys.argv[1] == 'chain':
        print(chain(int(sys.argv[2])))
    elif len(sys.argv) == 2 and sys.argv[1] == 'humanoid':
        print(humanoid())
    else:
        sys.exit(__doc__)
