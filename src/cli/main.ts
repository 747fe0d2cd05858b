// damage-control: the command line. One verb per file; this file only dispatches.
import { VERSION } from "../core/build-info";
import { runCheck, CHECK_HELP } from "./check";
import { DOCTOR_HELP, runDoctorCli } from "./doctor";
import { ENDPOINT_HELP, runEndpoint } from "./endpoint";
import { EXCEPTIONS_HELP, runExceptions } from "./exceptions";
import { HOOK_HELP, runHook } from "./hook";
import { INSTALL_HELP, runInstall } from "./install";
import { CliError, EXIT, wantsHelp } from "./io";
import { LINT_HELP, runLint } from "./lint";
import { runServe, SERVE_HELP } from "./serve";
import { RESTORE_HELP, runRestore, runSnapshots, runUndoRestore, SNAPSHOTS_HELP, UNDO_RESTORE_HELP } from "./snapshots";
import { refusedVerb } from "../engine/self/verbs";
import { startedByAgent } from "../core/provenance";

const HELP = `Usage: damage-control <verb> [options]

Verbs:
  check            decide one tool call (JSON on stdin): allow, block or ask
  rules lint FILE  check a rules file; diagnostics as FILE:LINE:COL: severity: message
  serve            run the endpoint for a folder without VS Code
  endpoint         print the URL and token of the endpoint guarding a folder
  doctor           report what guards a folder; exit 1 when it is not guarded
  exceptions [list|revoke ID]
                   the user's exceptions and approved workspace rules files; take one back
  snapshots [--json] | --delete ID | --clear
                   what the guard kept before the destructive calls it let run
  restore ID [--dry-run]
                   put a snapshot back (files, uncommitted git changes, branch tips)
  undo-restore ID [--dry-run]
                   take the last restore of a snapshot back (what it set aside returns)
  hook <agent>     an agent's command hook (claude: for builds that ignore onFailure)
  install AGENT, uninstall AGENT
                   wire an agent to the guard, or unwire it (AGENT: claude, pi, copilot,
                   codex, gemini, qwen, opencode, cline)
  install claude --managed
                   render a managed-settings file for platform teams

Run "damage-control <verb> --help" for a verb's options.`;

type Verb = { help: string; run: (argv: string[]) => number | Promise<number> };

const VERBS: Record<string, Verb> = {
  check: { help: CHECK_HELP, run: runCheck },
  serve: { help: SERVE_HELP, run: runServe },
  endpoint: { help: ENDPOINT_HELP, run: runEndpoint },
  doctor: { help: DOCTOR_HELP, run: runDoctorCli },
  exceptions: { help: EXCEPTIONS_HELP, run: runExceptions },
  hook: { help: HOOK_HELP, run: runHook },
  snapshots: { help: SNAPSHOTS_HELP, run: runSnapshots },
  restore: { help: RESTORE_HELP, run: runRestore },
  "undo-restore": { help: UNDO_RESTORE_HELP, run: runUndoRestore },
  install: { help: INSTALL_HELP, run: (a) => runInstall(a, "install") },
  uninstall: { help: INSTALL_HELP, run: (a) => runInstall(a, "uninstall") },
  rules: {
    help: LINT_HELP,
    run: (a) => {
      if (a[0] !== "lint") throw new CliError('rules takes a sub-verb: "rules lint FILE"');
      return runLint(a.slice(1));
    },
  },
};

async function main(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (!verb || verb === "--help" || verb === "-h" || verb === "help") {
    process.stdout.write(HELP + "\n");
    return verb ? EXIT.ok : EXIT.usage;
  }
  if (verb === "--version") {
    process.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const v = VERBS[verb];
  if (!v) throw new CliError(`unknown verb "${verb}" (run damage-control --help)`);
  if (wantsHelp(rest)) {
    process.stdout.write(v.help + "\n");
    return EXIT.ok;
  }
  // The verbs that change the guard or its records refuse inside an agent's tool call even when
  // the call reached them by a route the analysis does not see (a script): issue 35.
  const refused = verb === "serve" ? undefined : refusedVerb(argv);
  const agent = refused ? startedByAgent() : undefined;
  if (refused && agent) throw new CliError(`refused: it runs inside a tool call of ${agent}. ${refused}`, EXIT.unavailable);
  return v.run(rest);
}

// A reader that went away (`damage-control snapshots | head -1`) ends the CLI quietly: nobody is
// left to read the rest, and a stack trace would be the only thing the user sees.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
    throw e;
  });
}
// No stack trace on any path: one line the user can report.
process.on("uncaughtException", (e) => {
  if ((e as NodeJS.ErrnoException)?.code === "EPIPE") process.exit(0);
  try {
    process.stderr.write(`damage-control: internal error: ${(e as Error)?.message ?? String(e)}\n`);
  } catch {
    /* stderr is gone too */
  }
  process.exit(70);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    if (e instanceof CliError) {
      process.stderr.write(`damage-control: ${e.message}\n`);
      process.exitCode = e.code;
    } else {
      // Never a stack trace for the user; the message is enough to report.
      process.stderr.write(`damage-control: internal error: ${(e as Error)?.message ?? String(e)}\n`);
      process.exitCode = 70;
    }
  },
);
