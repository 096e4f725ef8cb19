package org.symdyn.maven;

import java.io.File;

/** One model file of a run of the goal, its settings, and what the run finds out about it. */
final class ModelFile {
    final String name; // relative to the source directory, '/' separated
    final File file;
    final String classOverride;
    final boolean floating;
    String modelSha256;
    String options;
    String reason; // why it is regenerated, null when up to date
    String className;

    ModelFile(String name, File file, String classOverride, boolean floating) {
        this.name = name;
        this.file = file;
        this.classOverride = classOverride;
        this.floating = floating;
    }
}
