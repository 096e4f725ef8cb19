/**
 * The {@code symdyn} command line: {@code inspect} prints a model's structure and {@code evaluate} its dynamics
 * at given states, both as JSON (through the generic runtime or, with {@code --backend generated}, through the
 * model's generated class compiled in memory; for a model with constraints also the constraint terms, constrained
 * dynamics, impulses and assembly of the runtime's solvers, see {@code ConstrainedEvaluation});
 * {@code simulate} runs one simulation with contact and {@code rollouts} a batch of them on every core
 * ({@code RolloutsCommand}, through the runtime's {@link org.symdyn.rollout.Rollouts}); {@code view} animates a
 * trajectory in an HTML page;
 * {@code generate} writes the generated Java class of each model through the generator's
 * {@link org.symdyn.generator.GenerationPipeline}, the one the Maven plugin runs.
 * Entry point {@link org.symdyn.cli.SymDynCli}; commands, options and help by picocli; the JSON reader and writer,
 * on Jackson's streaming core, are in {@link org.symdyn.cli.json}.
 */
package org.symdyn.cli;
