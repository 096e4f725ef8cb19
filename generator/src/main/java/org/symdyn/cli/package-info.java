/**
 * The {@code symdyn} command line: {@code inspect} prints a model's structure and {@code evaluate} its dynamics
 * at given states, both as JSON. Entry point {@link org.symdyn.cli.SymDynCli}; the JSON reader and writer are in
 * {@link org.symdyn.cli.json}.
 */
package org.symdyn.cli;
