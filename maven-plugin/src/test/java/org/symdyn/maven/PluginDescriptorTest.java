package org.symdyn.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The plugin descriptor that Maven reads ({@code target/classes/META-INF/maven/plugin.xml}, written by
 * maven-plugin-plugin's {@code descriptor} goal at {@code compile}): the goals, their phases and every parameter
 * with its property and default.
 */
class PluginDescriptorTest {
    private static final Map<String, Element> MOJOS = new HashMap<>();

    @BeforeAll
    static void read() throws Exception {
        Path descriptor = Path.of("target/classes/META-INF/maven/plugin.xml");
        assertTrue(Files.isRegularFile(descriptor), descriptor.toAbsolutePath() + " (run from the module)");
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document doc = f.newDocumentBuilder().parse(descriptor.toFile());
        NodeList mojos = doc.getElementsByTagName("mojo");
        for (int i = 0; i < mojos.getLength(); i++) {
            Element mojo = (Element) mojos.item(i);
            MOJOS.put(child(mojo, "goal").getTextContent(), mojo);
        }
    }

    private static Element child(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return e;
            }
        }
        return null;
    }

    private static Element mojo(String goal) {
        Element m = MOJOS.get(goal);
        assertNotNull(m, "goal " + goal + " in " + MOJOS.keySet());
        return m;
    }

    private static Set<String> parameters(String goal) {
        Set<String> names = new TreeSet<>();
        NodeList ps = child(mojo(goal), "parameters").getElementsByTagName("parameter");
        for (int i = 0; i < ps.getLength(); i++) {
            names.add(child((Element) ps.item(i), "name").getTextContent());
        }
        return names;
    }

    /** {@code ${property} default} of a parameter, from the mojo's {@code configuration}. */
    private static String configuration(String goal, String parameter) {
        Element c = child(child(mojo(goal), "configuration"), parameter);
        assertNotNull(c, goal + " has no configuration of " + parameter);
        return c.getTextContent() + " " + c.getAttribute("default-value");
    }

    @Test
    void theGoalsAndTheirPhases() {
        assertEquals(Set.of("generate", "generate-test", "help"), MOJOS.keySet());
        assertEquals("generate-sources", child(mojo("generate"), "phase").getTextContent());
        assertEquals("generate-test-sources", child(mojo("generate-test"), "phase").getTextContent());
        assertEquals(GenerateMojo.class.getName(), child(mojo("generate"), "implementation").getTextContent());
        assertEquals(GenerateTestMojo.class.getName(),
                child(mojo("generate-test"), "implementation").getTextContent());
        for (String goal : new String[] {"generate", "generate-test"}) {
            assertEquals("true", child(mojo(goal), "threadSafe").getTextContent(), goal);
        }
    }

    @Test
    void everyParameterWithItsPropertyAndDefault() {
        Set<String> shared = Set.of("addSourceRoot", "classNames", "closedForm", "derivatives", "excludes",
                "failOnMissingModels", "fingerprintDirectory", "floatingBase", "force", "includes", "kinematicsForm",
                "mathTrig", "models", "packageName", "parts", "skip", "strict");
        Set<String> main = new TreeSet<>(shared);
        main.addAll(Set.of("sourceDirectory", "outputDirectory"));
        assertEquals(main, without(parameters("generate"), "project", "mojoExecution"));
        Set<String> test = new TreeSet<>(shared);
        test.addAll(Set.of("testSourceDirectory", "testOutputDirectory", "mavenTestSkip"));
        assertEquals(test, without(parameters("generate-test"), "project", "mojoExecution"));

        for (String goal : new String[] {"generate", "generate-test"}) {
            assertEquals("${symdyn.failOnMissingModels} false", configuration(goal, "failOnMissingModels"));
            assertEquals("${symdyn.addSourceRoot} true", configuration(goal, "addSourceRoot"));
            assertEquals("${symdyn.skip} false", configuration(goal, "skip"));
        }
        assertEquals("${symdyn.sourceDirectory} ${project.basedir}/src/main/symdyn",
                configuration("generate", "sourceDirectory"));
        assertEquals("${symdyn.outputDirectory} ${project.build.directory}/generated-sources/symdyn",
                configuration("generate", "outputDirectory"));
        assertEquals("${symdyn.testSourceDirectory} ${project.basedir}/src/test/symdyn",
                configuration("generate-test", "testSourceDirectory"));
        assertEquals("${symdyn.testOutputDirectory} ${project.build.directory}/generated-test-sources/symdyn",
                configuration("generate-test", "testOutputDirectory"));
        assertEquals("${maven.test.skip} false", configuration("generate-test", "mavenTestSkip"));
    }

    private static Set<String> without(Set<String> names, String... readOnly) {
        Set<String> s = new TreeSet<>(names);
        s.removeAll(Set.of(readOnly));
        return s;
    }
}
