// Every problem of every bad model reported with its position, the good model not generated, nothing written.
def log = new File(basedir, 'build.log').text
def models = new File(basedir, 'src/main/symdyn').absolutePath
def expected = [
    "$models/extension.urdf:[10,3] unknown SymDyn element 'bungee' ",
    "$models/extension.urdf:[11,3] contact 'c': unknown link 'nowhere'",
    "$models/malformed.urdf:[3,3] malformed XML: ",
    "$models/negative_mass.urdf:[4,3] link 'b': mass -1.0 kg is negative",
]
expected.each { line ->
    assert log.contains("[ERROR] $line") : "no log.error line starting with $line"
    // and again in the failure's message, which Maven prints after BUILD FAILURE
    assert log.indexOf(line) != log.lastIndexOf(line) : "$line is not in the failure message"
}
assert log.contains('symdyn: 3 bad models, nothing generated:')
assert !log.contains("$models/good.urdf")
assert log.contains('BUILD FAILURE')
assert log.contains('MojoFailureException') && !log.contains('MojoExecutionException')
def out = new File(basedir, 'target/generated-sources/symdyn')
assert !out.exists() || out.listFiles().length == 0 : "something was generated: ${out.listFiles()}"
assert !new File(basedir, 'target/symdyn-fingerprints').exists()
return true
