package org.symdyn.io;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParser;
import javax.xml.parsers.SAXParserFactory;
import org.xml.sax.Attributes;
import org.xml.sax.InputSource;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Parses XML into an {@link XmlElement} tree with a hardened SAX parser.
 *
 * <p>Model files come from anywhere (downloaded robot descriptions, build inputs), so the parser never reads
 * anything but the document itself: no external DTD, no external general or parameter entities, an entity
 * resolver that answers every request with nothing, JAXP's external-access properties set to "no protocol", and
 * secure processing on (which bounds entity expansion, defeating "billion laughs"). A reference to an entity
 * that was therefore not read is reported as a {@link SkippedEntity} so the reader can refuse the file instead
 * of silently reading a different document than the author wrote.
 */
final class XmlTreeParser {
    private XmlTreeParser() {
    }

    /** The document is not well-formed XML (or could not be parsed at all); line and column 0 when unknown. */
    static final class MalformedXmlException extends Exception {
        private static final long serialVersionUID = 1L;
        final int line;
        final int column;

        MalformedXmlException(String message, int line, int column) {
            super(message);
            this.line = line;
            this.column = column;
        }
    }

    /** A reference to an entity whose replacement text was not read (external, or declared only externally). */
    record SkippedEntity(String name, int line, int column) {
    }

    /**
     * The document element, the entities that were skipped, and the entities the document type declaration
     * declares: internal ones with their replacement text (names of parameter entities start with {@code %}), and
     * the names of external ones (never read).
     */
    record Document(XmlElement root, List<SkippedEntity> skippedEntities, Map<String, String> internalEntities,
            java.util.Set<String> externalEntities) {
    }

    /**
     * @param source the document (a byte stream, so the parser honours the encoding declaration, or characters)
     * @param text   the same document as characters, used only to move reported positions from the end of each
     *               start tag (where SAX's locator stands) to its {@code <}
     * @param keepText keep each element's character content ({@link XmlElement#text()}); model files carry
     *                 everything in attributes and leave it off
     */
    static Document parse(InputSource source, String text, boolean keepText) throws MalformedXmlException {
        SAXParser parser = newHardenedParser();
        TreeHandler handler = new TreeHandler(new LinePositions(text), keepText);
        try {
            parser.setProperty("http://xml.org/sax/properties/declaration-handler", handler);
            parser.parse(source, handler);
        } catch (SAXParseException e) {
            throw new MalformedXmlException(e.getMessage(), Math.max(e.getLineNumber(), 0),
                    Math.max(e.getColumnNumber(), 0));
        } catch (SAXException | IOException e) {
            throw new MalformedXmlException(String.valueOf(e.getMessage()), 0, 0);
        }
        if (handler.root == null) {
            throw new MalformedXmlException("no document element", 0, 0);
        }
        return new Document(handler.root, List.copyOf(handler.skipped), Map.copyOf(handler.internalEntities),
                java.util.Set.copyOf(handler.externalEntities));
    }

    /**
     * The JDK's own SAX parser (not whatever implementation the class path offers, whose features might differ),
     * configured to read nothing outside the document. Fails closed: if a protection cannot be switched on, the
     * exception propagates and no document is parsed.
     */
    private static SAXParser newHardenedParser() {
        try {
            SAXParserFactory factory = SAXParserFactory.newDefaultInstance();
            factory.setNamespaceAware(true);
            factory.setValidating(false);
            factory.setXIncludeAware(false);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
            factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            SAXParser parser = factory.newSAXParser();
            parser.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            parser.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            return parser;
        } catch (ParserConfigurationException | SAXException e) {
            throw new IllegalStateException("cannot configure a secure XML parser: " + e.getMessage(), e);
        }
    }

    private static final class TreeHandler extends DefaultHandler implements org.xml.sax.ext.DeclHandler {
        private final Map<String, String> internalEntities = new LinkedHashMap<>();
        private final java.util.Set<String> externalEntities = new java.util.LinkedHashSet<>();
        private final LinePositions positions;
        private final Deque<XmlElement> open = new ArrayDeque<>();
        private final boolean keepText;
        private final List<SkippedEntity> skipped = new ArrayList<>();
        private Locator locator;
        private XmlElement root;

        TreeHandler(LinePositions positions, boolean keepText) {
            this.positions = positions;
            this.keepText = keepText;
        }

        @Override
        public void setDocumentLocator(Locator locator) {
            this.locator = locator;
        }

        @Override
        public void startElement(String uri, String localName, String qName, Attributes attrs) {
            Map<String, String> map = new LinkedHashMap<>();
            Map<String, String> namespaced = new LinkedHashMap<>();
            for (int i = 0; i < attrs.getLength(); i++) {
                if (attrs.getURI(i).isEmpty()) {
                    map.put(attrs.getLocalName(i), attrs.getValue(i));
                } else if (!attrs.getQName(i).startsWith("xmlns")) {
                    namespaced.put(XmlElement.namespacedKey(attrs.getURI(i), attrs.getLocalName(i)),
                            attrs.getValue(i));
                }
            }
            int[] pos = positions.startOfTag(locator == null ? 0 : locator.getLineNumber(),
                    locator == null ? 0 : locator.getColumnNumber());
            XmlElement element = new XmlElement(uri == null ? "" : uri, localName, map, namespaced, pos[0], pos[1]);
            if (open.isEmpty()) {
                root = element;
            } else {
                open.peek().addChild(element);
            }
            open.push(element);
        }

        @Override
        public void endElement(String uri, String localName, String qName) {
            open.pop();
        }

        @Override
        public void characters(char[] ch, int start, int length) {
            if (keepText && !open.isEmpty()) {
                open.peek().appendText(ch, start, length);
            }
        }

        @Override
        public void skippedEntity(String name) {
            skipped.add(new SkippedEntity(name, locator == null ? 0 : locator.getLineNumber(),
                    locator == null ? 0 : locator.getColumnNumber()));
        }

        @Override
        public void elementDecl(String name, String model) {
        }

        @Override
        public void attributeDecl(String eName, String aName, String type, String mode, String value) {
        }

        @Override
        public void internalEntityDecl(String name, String value) {
            internalEntities.putIfAbsent(name, value); // the first declaration binds (XML 1.0, 4.2)
        }

        @Override
        public void externalEntityDecl(String name, String publicId, String systemId) {
            if (!internalEntities.containsKey(name)) {
                externalEntities.add(name);
            }
        }

        /** Never fetch anything: every external entity or DTD resolves to an empty document. */
        @Override
        public InputSource resolveEntity(String publicId, String systemId) {
            return new InputSource(new StringReader(""));
        }
    }

}
