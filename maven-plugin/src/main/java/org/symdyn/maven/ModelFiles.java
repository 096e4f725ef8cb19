package org.symdyn.maven;

import java.io.File;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.maven.plugin.MojoExecutionException;
import org.codehaus.plexus.util.Scanner;
import org.sonatype.plexus.build.incremental.BuildContext;
import org.symdyn.generator.JavaNames;
import org.symdyn.io.ModelFileReader;

/**
 * The model files of a run of a goal ({@link AbstractGenerateMojo}): those under the source directory that the
 * include and exclude patterns select (an {@code .xml} file only when it is a model,
 * {@link ModelFileReader#isModelFile}), sorted by their '/'-separated path relative to it, each with its class name
 * ({@code classNames}, {@code models}) and floating base ({@code models}, else the goal's {@code floatingBase}).
 */
final class ModelFiles {
    /** The default of the goal's {@code includes}: URDF and MJCF files. */
    static final String[] DEFAULT_INCLUDES = {"**/*.urdf", "**/*.xml", "**/*.mjcf"};

    private ModelFiles() {
    }

    /** The model files, sorted, with their settings; a configuration that names no model file is an error. */
    static List<ModelFile> of(File source, BuildContext buildContext, List<String> includes, List<String> excludes,
            List<ModelConfiguration> models, Map<String, String> classNames, boolean floatingBase,
            Consumer<String> skipped) throws MojoExecutionException {
        Map<String, ModelConfiguration> perModel = new LinkedHashMap<>();
        if (models != null) {
            for (ModelConfiguration m : models) {
                if (m == null || m.getFile() == null || m.getFile().isBlank()) {
                    throw new MojoExecutionException("symdyn: a <model> entry has no <file>");
                }
                String key = normalise(m.getFile());
                if (perModel.put(key, m) != null) {
                    throw new MojoExecutionException("symdyn: two <model> entries for " + key);
                }
                String problem = m.getClassName() == null ? null : JavaNames.classNameProblem(m.getClassName());
                if (problem != null) {
                    throw new MojoExecutionException("symdyn: <model> " + key + ": className '" + m.getClassName()
                            + "' " + problem);
                }
            }
        }
        Map<String, String> overrides = new HashMap<>();
        if (classNames != null) {
            for (Map.Entry<String, String> e : classNames.entrySet()) {
                String key = normalise(e.getKey());
                String name = e.getValue() == null ? "" : e.getValue().trim();
                String problem = JavaNames.classNameProblem(name);
                if (problem != null) {
                    throw new MojoExecutionException("symdyn: classNames: '" + name + "' (for " + key + ") "
                            + problem);
                }
                ModelConfiguration m = perModel.get(key);
                if (m != null && m.getClassName() != null && !m.getClassName().equals(name)) {
                    throw new MojoExecutionException("symdyn: " + key + " is named " + name + " in classNames and "
                            + m.getClassName() + " in models");
                }
                overrides.put(key, name);
            }
        }

        List<String> names = new ArrayList<>();
        if (source.isDirectory()) {
            Scanner scanner = buildContext.newScanner(source, true);
            scanner.setIncludes(includes == null || includes.isEmpty() ? DEFAULT_INCLUDES.clone()
                    : includes.toArray(String[]::new));
            if (excludes != null && !excludes.isEmpty()) {
                scanner.setExcludes(excludes.toArray(String[]::new));
            }
            scanner.addDefaultExcludes();
            scanner.scan();
            for (String f : scanner.getIncludedFiles()) {
                if (ModelFileReader.isModelFile(new File(source, f).toPath())) {
                    names.add(normalise(f));
                } else {
                    skipped.accept("symdyn: " + normalise(f) + " is skipped: an XML file that is neither MJCF"
                            + " (<mujoco>) nor URDF (<robot>)");
                }
            }
        } else if (source.exists()) {
            throw new MojoExecutionException("symdyn: sourceDirectory " + source + " is not a directory");
        }
        names.sort(null);

        Set<String> unknown = new TreeSet<>(overrides.keySet());
        unknown.addAll(perModel.keySet());
        unknown.removeAll(names);
        if (!unknown.isEmpty()) {
            throw new MojoExecutionException("symdyn: classNames/models name model files that are not among the"
                    + " inputs: " + unknown + " (inputs, relative to " + source + ": " + names + ")");
        }
        List<ModelFile> result = new ArrayList<>();
        for (String name : names) {
            ModelConfiguration m = perModel.get(name);
            String override = overrides.get(name);
            if (override == null && m != null) {
                override = m.getClassName();
            }
            boolean floating = m != null && m.getFloatingBase() != null ? m.getFloatingBase() : floatingBase;
            result.add(new ModelFile(name, new File(source, name), override, floating));
        }
        return result;
    }

    /** A path relative to the source directory, '/'-separated, without leading {@code ./}. */
    static String normalise(String relative) {
        String s = relative.trim().replace('\\', '/');
        while (s.startsWith("./")) {
            s = s.substring(2);
        }
        return s;
    }
}
