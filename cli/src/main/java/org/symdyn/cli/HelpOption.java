package org.symdyn.cli;

import picocli.CommandLine.Option;

/** {@code -h}, {@code --help} of a command. */
final class HelpOption {
    @Option(names = {"-h", "--help"}, usageHelp = true, order = 100, description = "Print this help and exit.")
    boolean help;
}
