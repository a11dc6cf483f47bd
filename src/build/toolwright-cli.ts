#!/usr/bin/env node
import * as path from 'node:path';
import { describeThrown, ToolkitError } from '../errors/toolkit-error';
import { listingText, listToolkit, loadToolkit } from './toolkit-listing';

const NAME = 'toolwright';

/** Usage text printed by `--help`. */
export const TOOLWRIGHT_USAGE = `Usage: ${NAME} list <module> [--json] [--export <name>]

Prints what a toolkit holds: its tools (name, group, whether enabled and why, description),
groups and skills; with --json, the full definitions with each tool's JSON Schema (preset
parameters never appear in it).

<module> is a file that exports the toolkit: as \`toolkit\`, as the default export, as
module.exports, or as a function returning one (or a Promise of one); --export names another
export. It is loaded with require(): CommonJS, or an ES module without top-level await. For
TypeScript, run under a loader: node --import tsx node_modules/.bin/${NAME} list src/toolkit.ts

Options:
      --json             print the listing as JSON
      --export <name>    the export holding the toolkit
  -h, --help             show this help

Exit codes: 0 success, 1 the module cannot be loaded or exports no toolkit, 2 usage error.

Examples:
  ${NAME} list dist/toolkit.js
  ${NAME} list dist/app.js --export createToolkit --json
`;

/** Where the CLI writes and what it runs in; every field defaults to the real process. */
export interface ToolwrightCliIo {
  /** Receives the listing and `--help`. */
  readonly stdout?: (text: string) => void;
  /** Receives errors. */
  readonly stderr?: (text: string) => void;
  /** The working directory modules are resolved from. */
  readonly cwd?: string;
}

interface ListArgs {
  readonly module: string;
  readonly json: boolean;
  readonly exportName?: string;
}

function parseList(argv: readonly string[]): ListArgs {
  let module: string | undefined;
  let json = false;
  let exportName: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--json') json = true;
    else if (arg === '--export') {
      exportName = argv[++i];
      if (exportName === undefined || exportName.startsWith('-')) throw new ToolkitError('CLI_USAGE', '--export needs the name of an export');
    } else if (arg.startsWith('-')) throw new ToolkitError('CLI_USAGE', `unknown option ${arg.slice(0, 40)}`);
    else if (module === undefined) module = arg;
    else throw new ToolkitError('CLI_USAGE', `list takes one module, got another: ${arg.slice(0, 200)}`);
  }
  if (module === undefined) throw new ToolkitError('CLI_USAGE', 'list needs the module that exports the toolkit');
  return { module, json, ...(exportName !== undefined ? { exportName } : {}) };
}

/**
 * Runs the `toolwright` command line with `argv` (without `node` and the script path) and resolves
 * to the exit code: 0 success, 1 the module cannot be loaded or exports no toolkit, 2 usage error.
 * Never calls `process.exit` and never rejects.
 *
 * @example process.exitCode = await main(['list', 'dist/toolkit.js', '--json']);
 */
export async function main(argv: readonly string[], io: ToolwrightCliIo = {}): Promise<number> {
  const stdout = io.stdout ?? ((text: string) => void process.stdout.write(text));
  const stderr = io.stderr ?? ((text: string) => void process.stderr.write(text));
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    (command === undefined ? stderr : stdout)(TOOLWRIGHT_USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'list') {
    stderr(`${NAME}: unknown command ${command.slice(0, 40)} (run ${NAME} --help for usage)\n`);
    return 2;
  }
  if (rest.includes('-h') || rest.includes('--help')) {
    stdout(TOOLWRIGHT_USAGE);
    return 0;
  }
  let args: ListArgs;
  try {
    args = parseList(rest);
  } catch (error) {
    stderr(`${NAME}: ${describeThrown(error)} (run ${NAME} --help for usage)\n`);
    return 2;
  }
  try {
    const toolkit = await loadToolkit(args.module, path.resolve(io.cwd ?? process.cwd()), args.exportName);
    const listing = listToolkit(toolkit, args.json);
    stdout(args.json ? `${JSON.stringify(listing, null, 2)}\n` : listingText(listing));
    return 0;
  } catch (error) {
    stderr(`${NAME}: ${ToolkitError.is(error, 'CLI_USAGE') ? error.message : `unexpected error: ${describeThrown(error)}`}\n`);
    return 1;
  }
}

if (require.main === module) {
  // exits once stdout is flushed: a listed module that keeps handles open (a timer, a connection) must not hold the command
  void main(process.argv.slice(2)).then((code) => process.stdout.write('', () => process.exit(code)));
}
