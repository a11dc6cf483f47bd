import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { sourceFiles } from '../support/source-files';

/**
 * One writer of a call's state: the call run (`src/executor/call/call-run.ts`). The steps of a call
 * (`call-*.ts`) read the state (`CallState`, read-only) and return what they found; nothing else
 * assigns to it. Checked with the type checker, so a write through any alias, cast or parameter
 * of the state's type is found, not only `run.x = …` spelled one way.
 */

const root = path.resolve(__dirname, '../..');
const src = path.join(root, 'src');
const WRITER = 'src/executor/call/call-run.ts';
/**
 * The one other place allowed to assign, and what: the callbacks the run inherits create the
 * call's helpers on first use (its context chain, its async completion). These are not the state
 * the steps read.
 */
const LAZY_HELPERS = { file: 'src/executor/call/call-callbacks.ts', members: new Set(['chain', 'asyncTrack']) };
/** Where the state is declared: what the steps read, the run, the callbacks it inherits. */
const STATE_TYPES = new Set(['CallState', 'CallRun', 'CallCallbacks']);

function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(path.join(root, 'tsconfig.json'), (file) => ts.sys.readFile(file));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return { ...options, noEmit: true };
}

/** `a.b = …`, `a.b += …`, `a.b ??= …`, `a.b++`, `delete a.b`…: the property access written to, if any. */
function writtenTarget(node: ts.Node): ts.Expression | undefined {
  if (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment) return node.left;
  if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) && (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)) return node.operand;
  if (ts.isDeleteExpression(node)) return node.expression;
  return undefined;
}

/** The state type (`CallState`, `CallRun`…) that declares the member `target` names; `undefined` for anything else. */
function stateOwner(checker: ts.TypeChecker, target: ts.Expression): string | undefined {
  let inner = target;
  while (ts.isParenthesizedExpression(inner) || ts.isNonNullExpression(inner)) inner = inner.expression;
  if (!ts.isPropertyAccessExpression(inner) && !ts.isElementAccessExpression(inner)) return undefined;
  const symbol = checker.getSymbolAtLocation(ts.isPropertyAccessExpression(inner) ? inner.name : inner.argumentExpression);
  for (const declaration of symbol?.declarations ?? []) {
    const owner = declaration.parent;
    if ((ts.isInterfaceDeclaration(owner) || ts.isClassDeclaration(owner)) && owner.name !== undefined && STATE_TYPES.has(owner.name.text)) return owner.name.text;
    // a constructor's `readonly parts: …` parameter property
    if (ts.isParameter(declaration) && ts.isConstructorDeclaration(owner) && owner.parent.name !== undefined && STATE_TYPES.has(owner.parent.name.text)) return owner.parent.name.text;
  }
  return undefined;
}

/** Every write to the call's state outside its one writer, as `file:line member (declared in Type)`. */
function foreignWrites(program: ts.Program, files: readonly string[]): string[] {
  const checker = program.getTypeChecker();
  const found: string[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file)!;
    const relative = path.relative(root, file).split(path.sep).join('/');
    if (relative === WRITER) continue;
    const visit = (node: ts.Node): void => {
      const target = writtenTarget(node);
      const owner = target !== undefined ? stateOwner(checker, target) : undefined;
      if (target !== undefined && owner !== undefined) {
        const member = target.getText(source).replace(/^.*[.[]/, '').replace(/\W/g, '');
        const allowed = relative === LAZY_HELPERS.file && LAZY_HELPERS.members.has(member);
        if (!allowed) found.push(`${relative}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${member} (declared in ${owner})`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The names the state's types declare, read without the checker: a file that assigns none of them needs no checking. */
function stateMemberNames(): Set<string> {
  const names = new Set<string>();
  for (const file of ['call-state.ts', 'call-run.ts', 'call-callbacks.ts']) {
    const source = ts.createSourceFile(file, fs.readFileSync(path.join(src, 'executor', 'call', file), 'utf8'), ts.ScriptTarget.Latest, true);
    source.forEachChild(function visit(node) {
      if ((ts.isPropertySignature(node) || ts.isPropertyDeclaration(node) || ts.isParameterPropertyDeclaration(node, node.parent)) && ts.isIdentifier(node.name)) names.add(node.name.text);
      node.forEachChild(visit);
    });
  }
  return names;
}

/** Whether `text` may assign to a property of one of those names (`x.done = …`, `x.attempts++`, `--x.attempts`…): only such files need the type checker. */
function mayWrite(text: string): boolean {
  const names = [...memberNames].join('|');
  const assigned = new RegExp(`[.\\]'"](?:${names})['"\\]]?\\s*(?:[-+*/%&|^?]{0,3}=(?!=)|\\+\\+|--)`);
  const updated = new RegExp(`(?:\\+\\+|--|delete\\s)[^;\\n]*[.'"](?:${names})\\b`);
  return assigned.test(text) || updated.test(text);
}

const memberNames = stateMemberNames();
const options = compilerOptions();

describe("a call's state has one writer", () => {
  it('no file of src/ but the call run assigns to the state of a call', () => {
    const files = sourceFiles(src).filter((file) => mayWrite(fs.readFileSync(file, 'utf8')));
    expect(files.map((file) => path.relative(src, file).split(path.sep).join('/'))).toContain('executor/call/call-run.ts');
    const program = ts.createProgram(files, options);
    expect(foreignWrites(program, files)).toEqual([]);
  });

  it('finds a write through a step, a cast and a parameter of the state type', () => {
    // a step as it must not be written: it changes the state instead of returning what it found
    const probe = path.join(src, 'executor', 'call', 'call-probe.ts');
    const text = [
      "import type { CallState } from './call-state';",
      "import type { CallRun } from './call-run';",
      'type Writable<T> = { -readonly [K in keyof T]: T[K] };',
      'export function probe(run: CallState, other: CallRun): void {',
      '  (run as Writable<CallState>).done = true;',
      "  other.repairs = [];",
      '  other.attempts++;',
      '  --other.attempts;',
      '}',
      '',
    ].join('\n');
    const host = ts.createCompilerHost(options);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (name, language, onError) => (path.resolve(name) === probe ? ts.createSourceFile(name, text, language) : read(name, language, onError));
    host.fileExists = ((exists) => (name: string) => path.resolve(name) === probe || exists(name))(host.fileExists.bind(host));
    const roots = [path.join(src, 'executor', 'call', 'call-state.ts'), path.join(src, 'executor', 'call', 'call-run.ts'), probe];
    const program = ts.createProgram(roots, options, host);
    expect(foreignWrites(program, [probe])).toEqual([
      'src/executor/call/call-probe.ts:5 done (declared in CallState)',
      'src/executor/call/call-probe.ts:6 repairs (declared in CallRun)',
      'src/executor/call/call-probe.ts:7 attempts (declared in CallRun)',
      'src/executor/call/call-probe.ts:8 attempts (declared in CallRun)',
    ]);
    expect(text.split('\n').filter(mayWrite)).toHaveLength(4);
  });
});
