// Run 1 (goals `test`) generated both models and the test model and tested the classes; run 2
// (`generate-test-sources symdyn:help`) found all three up to date and left the sources untouched.
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
// the test model: generate-test at generate-test-sources, into the test sources only
def probe = new File(basedir, 'target/generated-test-sources/symdyn/org/symdyn/it/probe/ProbeDynamics.java')
assert probe.isFile()
assert new File(basedir, 'target/test-classes/org/symdyn/it/probe/ProbeDynamics.class').isFile()
assert !new File(basedir, 'target/classes/org/symdyn/it/probe').exists()
assert new File(basedir, 'target/symdyn-fingerprints/generated-test-sources_symdyn.properties').isFile()
assert log.contains('probe.urdf -> org.symdyn.it.probe.ProbeDynamics: 1 dof (nq 1)')
assert log.contains('symdyn: 1 regenerated (1 written), 0 up to date, 0 removed')
assert log.contains('Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed')
assert log.contains('Tests run: 4, Failures: 0, Errors: 0, Skipped: 0')
assert log.contains('probe.urdf: up to date (org.symdyn.it.probe.ProbeDynamics)')
assert log.contains('symdyn: 0 regenerated (0 written), 1 up to date, 0 removed')
assert probe.lastModified() < new File(basedir, 'target/test-classes/org/symdyn/it/probe/ProbeDynamics.class')
        .lastModified() : "$probe was rewritten by the second build"
assert !log.contains('symdyn: no model')
// the help goal and the prefix
assert log.contains('symdyn:generate')
assert log.contains('symdyn:generate-test')
assert log.contains('symdyn:help')
return true
