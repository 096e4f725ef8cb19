// Run 1 (goals `test`) generated both models and tested the classes; run 2 (`generate-sources symdyn:help`)
// found both up to date and left the sources untouched.
def pkg = 'org/symdyn/it/dyn'
def sources = ['Pendulum', 'TwoLinkArmDynamics'].collect { new File(basedir, "target/generated-sources/symdyn/$pkg/${it}.java") }
sources.each { assert it.isFile() : "missing $it" }
assert sources[0].text.contains('public final class Pendulum ')
assert new File(basedir, 'target/symdyn-fingerprints/generated-sources_symdyn.properties').isFile()

def log = new File(basedir, 'build.log').text
// issue 10, item 4: why each model was generated
assert log.contains('; regenerated because it was not generated before')
assert log.contains('pendulum.urdf -> org.symdyn.it.dyn.Pendulum: 1 dof (nq 1), 0 constraints (0 rows), generated in ')
assert log.contains('arms/two_link.urdf -> org.symdyn.it.dyn.TwoLinkArmDynamics: 2 dof (nq 2)')
assert log =~ /mass_matrix \d+ flops \(\d+ mul, \d+ add, \d+ trig\), forward_dynamics \d+ flops/
assert log.contains('symdyn: 2 regenerated (2 written), 0 up to date, 0 removed')
assert log.contains('Tests run: 3, Failures: 0, Errors: 0, Skipped: 0')
// the second build
assert log.contains('pendulum.urdf: up to date (org.symdyn.it.dyn.Pendulum)')
assert log.contains('symdyn: 0 regenerated (0 written), 2 up to date, 0 removed')
// untouched: older than the classes that run 1 compiled after generating them
sources.each {
    def cls = new File(basedir, "target/classes/$pkg/${it.name.replace('.java', '.class')}")
    assert cls.isFile()
    assert it.lastModified() < cls.lastModified() : "$it was rewritten by the second build"
}
// the help goal and the prefix
assert log.contains('symdyn:generate')
assert log.contains('symdyn:help')
return true
