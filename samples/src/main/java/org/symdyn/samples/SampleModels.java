package org.symdyn.samples;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.io.urdf.UrdfReader;

/**
 * The sample model files as they travel with the classes: the build copies {@code src/main/symdyn/*.urdf} to the
 * classpath under {@code /symdyn/}, so demos and tests read the very bytes the generated classes were made from
 * (also from inside the runnable jar, where they are not files).
 */
public final class SampleModels {
    /** Classpath folder of the model files. */
    public static final String RESOURCE_FOLDER = "/symdyn/";

    private SampleModels() {
    }

    /** The bytes of {@code /symdyn/<fileName>}, e.g. {@code "fourbar.urdf"}. */
    public static byte[] bytes(String fileName) {
        String resource = RESOURCE_FOLDER + fileName;
        try (InputStream in = SampleModels.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no model resource " + resource + " on the classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /** The model of {@code /symdyn/<fileName>} as read by {@link UrdfReader} with default options. */
    public static Model load(String fileName) throws ModelException {
        return parse(new String(bytes(fileName), StandardCharsets.UTF_8), fileName);
    }

    /** A model from URDF text (e.g. a sample file edited in memory); {@code name} is used in messages. */
    public static Model parse(String urdf, String name) throws ModelException {
        return UrdfReader.parse(urdf, "symdyn/" + name, UrdfReader.Options.DEFAULT);
    }

    /** SHA-256 of the bytes, lower-case hex (the form of {@code ModelInfo.sourceSha256()}). */
    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
