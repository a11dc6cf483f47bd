#!/usr/bin/env node
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ToolManifest } from '../model/manifest';
import { ToolkitError } from '../errors';
import { loadGenerator } from './build-peers';
import { expandGlobs } from './expand-globs';
import { describeDrift } from './manifest-drift';
import { manifestJsonOfModule, serializeManifestModule } from './manifest-module';
import { serializeManifest } from './serialize-manifest';
import { watchSources } from './watch-sources';

const NAME = 'toolwright-schema';

/** Usage text printed by `--help`. */
export const USAGE = `Usage: ${NAME} <files or globs…> -o <manifest.json|manifest.ts> [options]

Writes the toolwright build-time manifest: for every @Tool method of every exported class,
its parameter names, optionality, exact JSON Schemas and JSDoc descriptions.

A .ts (.mts, .cts) output is a module exporting \`manifest\` that also imports the context and
DTO classes the parameters name: what toolchains without decorator metadata (esbuild, tsx,
vitest) need to inject contexts and validate DTOs with class-validator.

Options:
  -o, --out <file>         the manifest to write (required): JSON, or a module for .ts/.mts/.cts
  -p, --project <tsconfig> take compiler options from a tsconfig; without files, also its files
      --check              do not write: exit 1 when <file> is not what would be generated
  -w, --watch              keep running: regenerate when a source file (or one it imports) changes;
                           <file> is written only when its text changes, and problems are printed
                           while the last good manifest stays (for \`tsx watch\`, \`vite\`…)
  -h, --help               show this help

Globs: * and ? within a path segment, ** across directories, {a,b/c} alternatives, [xy]
classes; quote them so the shell passes them through. A directory stands for every .ts file
under it.

A definition problem (a tool class that is not exported, two tool classes with one name…) is
reported with file:line and the fix; the other files are still described, and the exit code is 1.

Needs the dev dependencies typescript and typescript-json-schema
(npm i -D typescript typescript-json-schema).

Exit codes: 0 success (or up to date), 1 a problem or a stale manifest, 2 usage error.

Examples:
  ${NAME} 'src/**/*.service.ts' -o tools.manifest.json
  ${NAME} 'src/**/*.ts' -o src/tools.manifest.ts
  ${NAME} --project tsconfig.json -o dist/tools.manifest.json
  ${NAME} --project tsconfig.json -o dist/tools.manifest.json --check
  ${NAME} 'src/**/*.ts' -o src/tools.manifest.ts --watch & tsx watch src/main.ts
`;

/** Where the CLI writes and what it runs in; every field defaults to the real process. */
export interface CliIo {
  /** Receives output meant for stdout (`--help`). */
  readonly stdout?: (text: string) => void;
  /** Receives errors, progress and summaries. */
  readonly stderr?: (text: string) => void;
  /** Whether stderr is a terminal: progress lines are printed only then. */
  readonly stderrIsTTY?: boolean;
  /** The working directory. */
  readonly cwd?: string;
  /** Ends `--watch` (the real process watches until it is stopped). */
  readonly signal?: AbortSignal;
}

interface CliArgs {
  readonly help: boolean;
  readonly check: boolean;
  readonly watch: boolean;
  readonly out?: string;
  readonly project?: string;
  readonly files: string[];
}

/** A mistake on the command line: printed with a pointer to `--help`, exit code 2. */
function usageError(message: string): ToolkitError {
  return new ToolkitError('CLI_USAGE', message);
}

function parseArgs(argv: readonly string[]): CliArgs {
  let help = false;
  let check = false;
  let watch = false;
  let out: string | undefined;
  let project: string | undefined;
  const files: string[] = [];
  let onlyFiles = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (onlyFiles || !arg.startsWith('-') || arg === '-') {
      files.push(arg);
      continue;
    }
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      if (inline !== undefined) {
        if (inline === '') throw usageError(`${flag} needs a value`);
        return inline;
      }
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('-') && next !== '-')) throw usageError(`${flag} needs a value`);
      i += 1;
      return next;
    };
    switch (flag) {
      case '--':
        onlyFiles = true;
        break;
      case '-h':
      case '--help':
        help = true;
        break;
      case '--check':
        check = true;
        break;
      case '-w':
      case '--watch':
        watch = true;
        break;
      case '-o':
      case '--out':
        if (out !== undefined) throw usageError(`${flag} given twice`);
        out = value();
        break;
      case '-p':
      case '--project':
        if (project !== undefined) throw usageError(`${flag} given twice`);
        project = value();
        break;
      default:
        throw usageError(`unknown option ${flag}`);
    }
  }
  if (check && watch) throw usageError('--check and --watch exclude each other');
  return { help, check, watch, files, ...(out !== undefined ? { out } : {}), ...(project !== undefined ? { project } : {}) };
}

function shellQuote(arg: string): string {
  return /^[\w./=:@%+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function countTools(manifest: ToolManifest): number {
  return Object.values(manifest.classes).reduce((n, cls) => n + Object.keys(cls.methods).length, 0);
}

/**
 * Runs the `toolwright-schema` command line with `argv` (without `node` and the script path)
 * and returns the exit code: 0 success, 1 generation error or stale manifest (`--check`),
 * 2 usage error. Definition problems are reported per file while the other files are still
 * described (the manifest is written without them), and end in exit code 1. With `--watch` it
 * generates once, returns 0 and goes on regenerating on changes until `io.signal` aborts (the real
 * process: until it is stopped). Never calls `process.exit` and never throws.
 *
 * @example process.exitCode = main(['src/**\/*.ts', '-o', 'tools.manifest.json']);
 */
export function main(argv: readonly string[], io: CliIo = {}): number {
  const stderr = io.stderr ?? ((text: string) => void process.stderr.write(text));
  try {
    return run(argv, io, stderr);
  } catch (error) {
    stderr(`${NAME}: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}

function run(argv: readonly string[], io: CliIo, stderr: (text: string) => void): number {
  const stdout = io.stdout ?? ((text: string) => void process.stdout.write(text));
  const tty = io.stderrIsTTY ?? process.stderr.isTTY === true;
  const cwd = path.resolve(io.cwd ?? process.cwd());
  const usage = (message: string): number => {
    stderr(`${NAME}: ${message} (run ${NAME} --help for usage)\n`);
    return 2;
  };

  let args: CliArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    if (ToolkitError.is(error, 'CLI_USAGE')) return usage(error.message);
    throw error;
  }
  if (args.help) {
    stdout(USAGE);
    return 0;
  }
  if (args.out === undefined) return usage('missing -o <manifest.json>');
  if (args.files.length === 0 && args.project === undefined) return usage('no source files given (pass files or globs, or --project <tsconfig>)');
  if (args.project !== undefined && !fs.existsSync(path.resolve(cwd, args.project))) return usage(`tsconfig not found: ${args.project}`);
  const inputs = args.project !== undefined ? [path.resolve(cwd, args.project)] : [];
  if (args.files.length > 0) {
    try {
      inputs.push(...expandGlobs(args.files, cwd));
    } catch (error) {
      if (ToolkitError.is(error, 'NO_MATCHING_FILES')) return usage(error.message);
      throw error;
    }
  }
  const outPath = path.resolve(cwd, args.out);
  const target = { args: { ...args, out: args.out }, argv, cwd, outPath, tty, stderr };
  if (!args.watch) return generateOnce(target);
  // without a first manifest, the inputs alone are watched until a change fixes it
  const sources = regenerate(target) ?? inputs;
  stderr(`${NAME}: watching the sources of ${args.out} for changes\n`);
  watchSources({ sources, outPath, stderr, regenerate: () => regenerate(target), ...(io.signal ? { signal: io.signal } : {}) });
  return 0;
}

/** One run of the CLI: what to generate, where, and where to report. */
interface Target {
  readonly args: CliArgs & { readonly out: string };
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly outPath: string;
  readonly tty: boolean;
  readonly stderr: (text: string) => void;
}

/** What one generation produced: the text to write, the problems printed, and the sources read. */
interface Generated {
  readonly text: string;
  readonly summary: string;
  readonly problems: readonly string[];
  readonly asModule: boolean;
  readonly manifest: ToolManifest;
  readonly sources: readonly string[];
}

/** Generates the manifest text, printing problems as they are found; `undefined` after printing a fatal error. */
function generate({ args, cwd, outPath, tty, stderr }: Target, progress: boolean): Generated | undefined {
  let files: string[] | undefined;
  const problems: string[] = [];
  try {
    if (args.files.length > 0) files = expandGlobs(args.files, cwd);
    // Building the Program is most of the time; say so before the per-file lines arrive.
    if (tty && progress) stderr(`${NAME}: compiling ${files !== undefined ? `${files.length} file${files.length === 1 ? '' : 's'}` : args.project ?? ''}…\n`);
    const { manifest, sources } = loadGenerator().generateWithSources({
      cwd,
      ...(files !== undefined ? { files } : {}),
      ...(args.project !== undefined ? { project: args.project } : {}),
      ...(tty && progress ? { onProgress: (p) => stderr(`${NAME}: [${p.index}/${p.total}] ${p.file}${p.tools > 0 ? ` (${p.tools} tool${p.tools === 1 ? '' : 's'})` : ''}\n`) } : {}),
      onProblem: (problem) => {
        problems.push(problem);
        stderr(`${NAME}: ${problem}\n`);
      },
    });
    const asModule = /\.[cm]?ts$/.test(outPath) && !/\.d\.[cm]?ts$/.test(outPath);
    const text = asModule ? serializeManifestModule(manifest, { outFile: outPath, cwd }) : serializeManifest(manifest);
    const summary = `${countTools(manifest)} tools in ${Object.keys(manifest.classes).length} classes`;
    const inputs = [...(files ?? []), ...(args.project !== undefined ? [path.resolve(cwd, args.project)] : [])];
    return { text, summary, problems, asModule, manifest, sources: [...new Set([...inputs, ...sources])] };
  } catch (error) {
    const message = ToolkitError.is(error) ? error.message : `unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
    stderr(`${NAME}: ${message}\n`);
    return undefined;
  }
}

/** The manifest on disk (CRLF read as LF: a checkout with CRLF line endings holds the same manifest), or `undefined`. */
function readOnDisk(outPath: string): string | undefined {
  try {
    return fs.readFileSync(outPath, 'utf8').replace(/\r\n/g, '\n');
  } catch {
    return undefined;
  }
}

/** Writes `text` unless the file already holds it (a watcher of the output then sees no change); false after printing why it failed. */
function writeIfChanged({ args, outPath, stderr }: Target, text: string, onDisk: string | undefined): boolean {
  if (onDisk === text) return true;
  try {
    fs.mkdirSync(path.dirname(outPath), { recursive: true });
    fs.writeFileSync(outPath, text);
    return true;
  } catch (error) {
    stderr(`${NAME}: cannot write ${args.out}: ${error instanceof Error ? error.message : String(error)}\n`);
    return false;
  }
}

/**
 * One regeneration under `--watch`: with a problem the manifest on disk stays as it was (a
 * manifest without the files in error would break the running app); returns the sources to
 * watch, or `undefined` when generation failed before reading them.
 */
function regenerate(target: Target): readonly string[] | undefined {
  const generated = generate(target, false);
  if (generated === undefined) {
    target.stderr(`${NAME}: ${target.args.out} kept as it was; waiting for a change\n`);
    return undefined;
  }
  const { text, summary, problems, sources } = generated;
  if (problems.length > 0) {
    target.stderr(`${NAME}: ${problems.length} problem${problems.length === 1 ? '' : 's'}: ${target.args.out} kept as it was; waiting for a change\n`);
    return sources;
  }
  const onDisk = readOnDisk(target.outPath);
  if (writeIfChanged(target, text, onDisk)) target.stderr(`${NAME}: ${onDisk === text ? 'unchanged' : 'wrote'} ${target.args.out} (${summary})\n`);
  return sources;
}

function generateOnce(target: Target): number {
  const { args, argv, stderr, tty } = target;
  const generated = generate(target, true);
  if (generated === undefined) return 1;
  const { text, summary, problems, asModule, manifest } = generated;
  // Every problem was printed as it was found; the rest of the manifest is still checked or written.
  const failed = problems.length > 0;
  const problemSummary = `${problems.length} problem${problems.length === 1 ? '' : 's'}: the files named above are left out of`;
  const onDisk = readOnDisk(target.outPath);
  if (args.check) {
    const regenerate = [NAME, ...argv.filter((a) => a !== '--check')].map(shellQuote).join(' ');
    if (onDisk === undefined) {
      stderr(`${NAME}: ${args.out} does not exist. Run \`${regenerate}\` to create it.\n`);
      return 1;
    }
    if (onDisk !== text) {
      stderr(`${NAME}: ${args.out} is out of date:\n${describeDrift(asModule ? manifestJsonOfModule(onDisk) : onDisk, manifest).join('\n')}\nRun \`${regenerate}\` to update it.\n`);
      return 1;
    }
    if (failed) stderr(`${NAME}: ${problemSummary} the check (the rest of ${args.out} is up to date)\n`);
    else if (tty) stderr(`${NAME}: ${args.out} is up to date (${summary})\n`);
    return failed ? 1 : 0;
  }
  if (!writeIfChanged(target, text, onDisk)) return 1;
  if (failed) stderr(`${NAME}: ${problemSummary} ${args.out} (${summary})\n`);
  else if (tty) stderr(`${NAME}: ${onDisk === text ? 'unchanged' : 'wrote'} ${args.out} (${summary})\n`);
  return failed ? 1 : 0;
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2));
}
