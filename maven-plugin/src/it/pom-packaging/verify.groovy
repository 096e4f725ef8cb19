// Both goals ran on a pom project, each skipped with one line; nothing generated, no failure for the missing models.
def log = new File(basedir, 'build.log').text
def skipped = 'symdyn: skipped: a project of packaging pom compiles no sources'
assert log.count(skipped) == 2 : log
assert !log.contains('symdyn: no model')
assert !new File(basedir, 'target').exists()
return true
