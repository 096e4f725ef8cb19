package org.symdyn.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.model.Model;
import org.symdyn.simulation.DriftControl;
import org.w3c.dom.Document;

/** The four-bar demo on a short run: its printed summary, its plot, and the physics it shows. */
class FourBarDemoTest {
    @Test
    void printsASummaryAndWritesAWellFormedPlot(@TempDir Path dir) throws Exception {
        Path svg = dir.resolve("plot.svg");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertTrue(FourBarDemo.run(svg, 1.0, new PrintStream(bytes, true, StandardCharsets.UTF_8)));
        String out = bytes.toString(StandardCharsets.UTF_8);
        for (String row : new String[] {"made from this file", "steps", "wall time (ms)", "final |phi| (m)",
                "final |phidot| (m/s)", "max |phi| over the run (m)", "max |E - E0| (J)", "max |E - E0| / |E0|",
                "Plot: "}) {
            assertTrue(out.contains(row), "missing '" + row + "' in\n" + out);
        }
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        Document doc = f.newDocumentBuilder().parse(svg.toFile());
        assertEquals("svg", doc.getDocumentElement().getLocalName());
        assertEquals(2, doc.getElementsByTagName("clipPath").getLength(), "two panels");
        assertTrue(doc.getElementsByTagName("polyline").getLength() >= 4, "two series per panel");
        String text = Files.readString(svg);
        assertTrue(text.contains("Baumgarte stabilisation (T = 0.1 s)"), "legend");
        assertTrue(text.contains("projection after every step"), "legend");
        assertTrue(!text.contains("NaN") && !text.contains("Infinity"), "non-finite coordinates");
    }

    /**
     * One second from the assembled state with the generated class: projection holds ‖φ‖ at its Newton tolerance
     * (1e-12), Baumgarte within 1e-9; both conserve energy to 1e-8 of E0 (RK4 at 1 ms).
     */
    @Test
    void bothRunsStayOnTheConstraintsAndConserveEnergy() throws Exception {
        Model model = SampleModels.load("fourbar.urdf");
        FourBarDemo.State s0 = FourBarDemo.assemble(model);
        assertEquals(FourBarDemo.CRANK_ANGLE, s0.q()[0], 1e-5);
        assertTrue(s0.residual() < 1e-12);
        FourBarDemo.Run projection = FourBarDemo.simulate(model, DriftControl.PROJECTION, s0, 1.0);
        FourBarDemo.Run baumgarte = FourBarDemo.simulate(model, DriftControl.BAUMGARTE, s0, 1.0);
        assertEquals(1000, projection.steps());
        assertEquals(1000, baumgarte.steps());
        assertTrue(projection.maxPhi() <= 1e-12, "projection max |phi| " + projection.maxPhi());
        assertEquals(0, projection.projectionFailures());
        assertTrue(baumgarte.maxPhi() < 1e-9, "Baumgarte max |phi| " + baumgarte.maxPhi());
        assertTrue(projection.relativeDrift() < 1e-8, "projection drift " + projection.relativeDrift());
        assertTrue(baumgarte.relativeDrift() < 1e-8, "Baumgarte drift " + baumgarte.relativeDrift());
        assertEquals(1001, projection.time().length, "every step recorded, and the initial state");
    }
}
