package org.symdyn.maven;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.codehaus.plexus.util.Scanner;
import org.sonatype.plexus.build.incremental.BuildContext;
import org.sonatype.plexus.build.incremental.DefaultBuildContext;

/** An IDE-like build context: files as {@link DefaultBuildContext} does, markers and refreshes recorded. */
final class RecordingBuildContext implements BuildContext {
    /** A marker added with addMessage. */
    record Message(File file, int line, int column, String message, int severity) {
    }

    private final DefaultBuildContext files = new DefaultBuildContext();
    final List<Message> messages = new ArrayList<>();
    final List<File> refreshed = new ArrayList<>();
    final List<File> cleared = new ArrayList<>();
    boolean incremental;
    boolean delta = true;

    @Override public boolean hasDelta(String relpath) { return delta; }
    @Override public boolean hasDelta(File file) { return delta; }
    @Override @SuppressWarnings("rawtypes") public boolean hasDelta(List relpaths) { return delta; }
    @Override public OutputStream newFileOutputStream(File file) throws IOException {
        return files.newFileOutputStream(file);
    }
    @Override public Scanner newScanner(File basedir) { return files.newScanner(basedir); }
    @Override public void refresh(File file) { refreshed.add(file); }
    @Override public Scanner newDeleteScanner(File basedir) { return files.newDeleteScanner(basedir); }
    @Override public Scanner newScanner(File basedir, boolean ignoreDelta) { return files.newScanner(basedir, true); }
    @Override public boolean isIncremental() { return incremental; }
    @Override public Object getValue(String key) { return null; }
    @Override public void setValue(String key, Object value) { }
    @Override public void addWarning(File file, int line, int column, String message, Throwable cause) {
        addMessage(file, line, column, message, SEVERITY_WARNING, cause);
    }
    @Override public void addError(File file, int line, int column, String message, Throwable cause) {
        addMessage(file, line, column, message, SEVERITY_ERROR, cause);
    }
    @Override public void addMessage(File file, int line, int column, String message, int severity, Throwable cause) {
        messages.add(new Message(file, line, column, message, severity));
    }
    @Override public void removeMessages(File file) { cleared.add(file); }
    @Override public boolean isUptodate(File target, File source) { return files.isUptodate(target, source); }
}
