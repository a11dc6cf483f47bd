import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as TS from 'typescript';
import { ts } from './compiler';
import type { JsonSchema } from '../model/json-schema';
import type { ManifestClass, ManifestMethod, ManifestParam, ToolManifest } from '../model/manifest';
import { ToolkitError } from '../errors';
import { classReference } from './class-refs';
import { classifyParam, unwrapTypeNode } from './classify-param';
import { DEFAULT_COMPILER_OPTIONS, generatorCompilerOptions, loadProject } from './compiler-options';
import { expandGlobs, isTypeScriptSource } from './expand-globs';
import { literalValue, NOT_LITERAL } from './literal-value';
import { canonicalManifest } from './serialize-manifest';
import { createSchemaReader, type SchemaReader } from './schema-generator';
import {
  displayPath,
  formatProblems,
  scanSourceFile,
  type ImportBindings,
  type ScannedClass,
  type ScannedMethod,
  type ScannedParam,
  type ScanProblem,
} from './scan-sources';

/** Reported once per scanned source file while a manifest is generated. */
export interface GenerateProgress {
  /** The file, relative to `cwd`. */
  readonly file: string;
  /** 1-based position of the file among all scanned files. */
  readonly index: number;
  /** How many files are scanned. */
  readonly total: number;
  /** How many `@Tool` methods the file holds. */
  readonly tools: number;
}

/** Options of {@link generateManifest}. */
export interface GenerateManifestOptions {
  /**
   * Source files, directories or globs (`src/**\/*.service.ts`), relative to `cwd`. Without
   * them, the files of `project` are scanned.
   */
  readonly files?: readonly string[] | undefined;
  /** A tsconfig whose compiler options (and, without `files`, whose files) are used. */
  readonly project?: string | undefined;
  /** The working directory: globs resolve against it and manifest paths are relative to it. Default `process.cwd()`. */
  readonly cwd?: string | undefined;
  /** Called after each source file is analysed (the CLI prints a progress line on a TTY). */
  readonly onProgress?: ((progress: GenerateProgress) => void) | undefined;
  /** Receives each definition problem (`file:line:column: message`) instead of a throw; the manifest leaves out
   * the files with problems (both, for a duplicated class name) and describes the rest. */
  readonly onProblem?: ((problem: string) => void) | undefined;
}

function definitionError(message: string, cause?: unknown): ToolkitError {
  return new ToolkitError('INVALID_DEFINITION', message, cause === undefined ? {} : { cause });
}

function locate(node: TS.Node, cwd: string): string {
  const sourceFile = node.getSourceFile();
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
  return `${displayPath(sourceFile.fileName, cwd)}:${line + 1}:${character + 1}`;
}

function resolveFiles(options: GenerateManifestOptions, cwd: string, projectFiles: readonly string[] | undefined): string[] {
  if (options.files !== undefined && options.files.length > 0) return expandGlobs(options.files, cwd);
  if (projectFiles !== undefined) return projectFiles.filter(isTypeScriptSource);
  throw new ToolkitError('NO_MATCHING_FILES', 'no source files to scan. Fix: pass files or globs, or a tsconfig with `project`.');
}

function methodDescription(method: TS.MethodDeclaration): string | undefined {
  const docs = ts.getJSDocCommentsAndTags(method).filter(ts.isJSDoc);
  const last = docs[docs.length - 1];
  const text = last === undefined ? undefined : ts.getTextOfJSDocComment(last.comment)?.trim();
  return text === undefined || text === '' ? undefined : text;
}

function paramDescriptions(method: TS.MethodDeclaration): Map<string, string> {
  const result = new Map<string, string>();
  for (const tag of ts.getJSDocTags(method)) {
    if (!ts.isJSDocParameterTag(tag) || !ts.isIdentifier(tag.name)) continue;
    const text = ts.getTextOfJSDocComment(tag.comment)?.replace(/^\s*-\s*/, '').trim();
    if (text !== undefined && text !== '') result.set(tag.name.text, text);
  }
  return result;
}

function isEmptyReturn(type: TS.Type): boolean {
  const empty = ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never | ts.TypeFlags.Null;
  if (type.flags & empty) return true;
  return type.isUnion() && type.types.every((t) => (t.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Null)) !== 0);
}

/** Everything one analysis run needs, shared by the per-class steps. */
interface Analysis {
  readonly cwd: string;
  readonly checker: TS.TypeChecker;
  readonly reader: SchemaReader;
}

/**
 * Adds what a checker type cannot carry: an alias of a primitive (`type Days = number`) leaves
 * no alias symbol on its type, so its JSDoc tags (`@minimum 1`) and the `integer` name would be
 * lost on a parameter declared with it. (typescript-json-schema reads them itself for object
 * properties.) Keywords the schema already has win. (Keyword order is fixed later, by
 * canonicalManifest.)
 */
function applyAliasAnnotations(analysis: Analysis, param: ScannedParam, schema: JsonSchema): JsonSchema {
  const typeNode = unwrapTypeNode(param.node.type);
  if (typeNode === undefined || !ts.isTypeReferenceNode(typeNode)) return schema;
  let symbol = analysis.checker.getSymbolAtLocation(ts.isIdentifier(typeNode.typeName) ? typeNode.typeName : typeNode.typeName.right);
  if (symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias) symbol = analysis.checker.getAliasedSymbol(symbol);
  if (symbol === undefined || (symbol.flags & ts.SymbolFlags.TypeAlias) === 0) return schema;
  const extra = analysis.reader.annotationsOf(symbol);
  const result: JsonSchema = { ...schema };
  for (const [key, value] of Object.entries(extra)) if (result[key] === undefined) result[key] = value;
  if (symbol.getName() === 'integer') {
    if (result.type === 'number') result.type = 'integer';
    else if (Array.isArray(result.type)) result.type = result.type.map((t) => (t === 'number' ? 'integer' : t));
  }
  return result;
}

function analyseParam(
  analysis: Analysis,
  cls: ScannedClass,
  method: ScannedMethod,
  param: ScannedParam,
  imports: ImportBindings,
  descriptions: ReadonlyMap<string, string>,
): ManifestParam {
  const classification = classifyParam(param, analysis.checker, imports);
  const description = descriptions.get(param.name);
  const entry: ManifestParam = { name: param.name, index: param.index, optional: param.optional, kind: classification.kind };
  if (classification.kind === 'injected') entry.injected = classification.injected;
  const classKind = classification.kind === 'model' ? 'model' : classification.injected === 'context' ? 'context' : undefined;
  const reference = classKind === undefined ? undefined : classReference(analysis.checker, param, classKind, analysis.cwd);
  if (reference !== undefined && 'problem' in reference) {
    throw definitionError(`${locate(param.node, analysis.cwd)}: ${cls.name}.${method.name}: the type of parameter ${param.name} ${reference.problem}`);
  }
  Object.assign(entry, reference);
  if (description !== undefined) entry.description = description;
  if (classification.kind === 'model') {
    let schema: JsonSchema;
    try {
      schema = analysis.reader.schemaOf(declaredType(analysis.checker, param.node)) ?? {};
    } catch (error) {
      const typeText = param.node.type?.getText() ?? 'its inferred type';
      throw definitionError(
        `${locate(param.node, analysis.cwd)}: ${cls.name}.${method.name}: the type of parameter ${param.name} (${typeText}) ` +
          `cannot be expressed as JSON Schema: ${error instanceof Error ? error.message : String(error)}. ` +
          'Fix: give the parameter a JSON-compatible type (primitives, literal unions, enums, arrays, plain interfaces, Date, Record).',
        error,
      );
    }
    schema = applyAliasAnnotations(analysis, param, schema);
    if (description !== undefined && schema.description === undefined) schema.description = description;
    if (param.node.initializer !== undefined && schema.default === undefined) {
      const value = literalValue(param.node.initializer, analysis.checker);
      if (value !== NOT_LITERAL) schema.default = value;
    }
    entry.schema = schema; // normalised with the rest of the manifest by canonicalManifest
  }
  return entry;
}

/**
 * The type a parameter is declared with: without the `| undefined` that `?` or a default
 * adds (optionality is recorded separately), so an optional enum keeps its enum identity.
 */
function declaredType(checker: TS.TypeChecker, node: TS.ParameterDeclaration): TS.Type {
  return node.type !== undefined ? checker.getTypeFromTypeNode(node.type) : checker.getTypeAtLocation(node);
}

/** The value a tool call resolves to: the awaited return type, Observables unwrapped (as the toolkit does). */
function resultType(checker: TS.TypeChecker, method: TS.MethodDeclaration): TS.Type | undefined {
  const signature = checker.getSignatureFromDeclaration(method);
  if (signature === undefined) return undefined;
  const returned = checker.getReturnTypeOfSignature(signature);
  let type = checker.getAwaitedType(returned) ?? returned;
  const isObservable =
    (type.flags & ts.TypeFlags.Object) !== 0 &&
    ((type as TS.ObjectType).objectFlags & ts.ObjectFlags.Reference) !== 0 &&
    type.getProperty('subscribe') !== undefined &&
    type.getProperty('pipe') !== undefined;
  if (isObservable) {
    const [value] = checker.getTypeArguments(type as TS.TypeReference);
    if (value !== undefined) type = checker.getAwaitedType(value) ?? value;
  }
  return type;
}

function analyseReturns(analysis: Analysis, method: TS.MethodDeclaration): JsonSchema | undefined {
  const type = resultType(analysis.checker, method);
  if (type === undefined || isEmptyReturn(type)) return undefined;
  // A ToolResult (toolResult(), userResult()…) is the envelope, not the tool's output.
  if (type.getSymbol()?.getName() === 'ToolResult' || type.aliasSymbol?.getName() === 'ToolResult') return undefined;
  try {
    const schema = analysis.reader.schemaOf(type);
    return schema === undefined || Object.keys(schema).length === 0 ? undefined : schema;
  } catch {
    return undefined; // a return type JSON Schema cannot express (functions, symbols…) is simply left out
  }
}

function analyseClass(analysis: Analysis, cls: ScannedClass, imports: ImportBindings): ManifestClass {
  const methods: Record<string, ManifestMethod> = {};
  cls.methods.forEach((method) => {
    const descriptions = paramDescriptions(method.node);
    const params = method.params.map((param) => analyseParam(analysis, cls, method, param, imports, descriptions));
    const description = methodDescription(method.node);
    const entry: ManifestMethod = description !== undefined ? { description, params } : { params };
    const returns = analyseReturns(analysis, method.node);
    if (returns !== undefined) entry.returns = returns;
    methods[method.name] = entry;
  });
  return { file: displayPath(cls.fileName, analysis.cwd), methods };
}

function checkDuplicates(classes: readonly ScannedClass[], cwd: string, skip: Set<string>): ScanProblem[] {
  const problems: ScanProblem[] = [];
  const seen = new Map<string, ScannedClass>();
  for (const cls of classes) {
    const first = seen.get(cls.name);
    if (first === undefined) {
      seen.set(cls.name, cls);
      continue;
    }
    const where = (c: ScannedClass): { line: number; column: number } => {
      const sf = c.node.getSourceFile();
      const { line, character } = sf.getLineAndCharacterOfPosition(c.node.getStart(sf));
      return { line: line + 1, column: character + 1 };
    };
    const firstAt = where(first);
    skip.add(displayPath(first.fileName, cwd)).add(displayPath(cls.fileName, cwd));
    problems.push({
      fileName: displayPath(cls.fileName, cwd),
      ...where(cls),
      message:
        `two tool classes are named ${cls.name} (also ${displayPath(first.fileName, cwd)}:${firstAt.line}). ` +
        'Fix: rename one of them; the manifest is keyed by class name, as the toolkit finds classes by name.',
    });
  }
  return problems;
}

/**
 * Generates the build-time tool manifest (SPEC §8) from TypeScript sources: every `@Tool`
 * method of every exported class, keyed by class and method name, with exact parameter
 * names, optionality, JSON Schemas, JSDoc descriptions and injected-parameter markers.
 * One TypeScript Program is built for all files; typescript-json-schema writes the schemas.
 *
 * @example
 * const manifest = generateManifest({ files: ['src/services/*.ts'], project: 'tsconfig.json' });
 * const toolkit = new Toolkit({ manifest });
 * @throws ToolkitError `INVALID_DEFINITION` naming `file:line` and the fix, for: a destructured
 *   parameter without a name, a tool class that is not exported, two tool classes with the
 *   same name, a parameter type JSON Schema cannot express; `INVALID_TSCONFIG` for an unreadable
 *   or invalid tsconfig; `NO_MATCHING_FILES` for files that do not exist, globs that match no
 *   TypeScript source, or nothing to scan. With `onProblem`, definition problems go there instead.
 */
export function generateManifest(options: GenerateManifestOptions): ToolManifest {
  return generateWithSources(options).manifest;
}

/**
 * @internal {@link generateManifest}, also returning the project's own source files the
 * Program read (the inputs and what they import, outside node_modules): what `--watch` watches.
 */
export function generateWithSources(options: GenerateManifestOptions): { manifest: ToolManifest; sources: string[] } {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const project = options.project === undefined ? undefined : loadProject(options.project, cwd);
  const files = resolveFiles(options, cwd, project?.fileNames);
  const compilerOptions = generatorCompilerOptions(project?.options ?? DEFAULT_COMPILER_OPTIONS);
  const ambient = (project?.fileNames ?? []).filter((f) => !isTypeScriptSource(f) && /\.d\.[cm]?ts$/.test(f));

  // A syntactic scan first: definition problems are reported before the costly Program is built.
  const target = compilerOptions.target ?? ts.ScriptTarget.ES2022;
  const scanned: ScannedClass[] = [];
  const problems: ScanProblem[] = [];
  const toolFiles = new Set<string>();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    if (!text.includes('Tool')) continue; // cheap filter: no decorator can be named without it
    // No JSDoc parsing here: the scan needs none, and it is a good part of the parse.
    const sourceFile = ts.createSourceFile(file, text, { languageVersion: target, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, true);
    const result = scanSourceFile(sourceFile, displayPath(file, cwd));
    if (result.classes.length > 0) toolFiles.add(file);
    scanned.push(...result.classes);
    problems.push(...result.problems);
  }
  const skipped = new Set(problems.map((p) => p.fileName));
  problems.push(...checkDuplicates(scanned, cwd, skipped));
  if (problems.length > 0) {
    if (options.onProblem === undefined) {
      throw definitionError(
        `cannot generate the manifest (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${formatProblems(problems)}`,
      );
    }
    for (const problem of problems) options.onProblem(formatProblems([problem]));
  }

  // ONE Program for every file; types are read from the checker, schemas from typescript-json-schema.
  const program = ts.createProgram({ rootNames: [...ambient, ...files], options: compilerOptions });
  const analysis: Analysis = { cwd, checker: program.getTypeChecker(), reader: createSchemaReader(program) };
  const classes: Record<string, ManifestClass> = {};
  files.forEach((file, fileIndex) => {
    let tools = 0;
    if (toolFiles.has(file) && !skipped.has(displayPath(file, cwd))) {
      const sourceFile = program.getSourceFile(file);
      if (sourceFile === undefined) throw definitionError(`internal error: ${displayPath(file, cwd)} is not in the program`);
      // Scanned again on the Program's own nodes: the checker only knows those.
      const { classes: found, imports } = scanSourceFile(sourceFile, displayPath(file, cwd));
      for (const cls of found) {
        try {
          classes[cls.name] = analyseClass(analysis, cls, imports);
          tools += cls.methods.length;
        } catch (error) {
          if (options.onProblem === undefined || !ToolkitError.is(error)) throw error;
          options.onProblem(error.message);
        }
      }
    }
    options.onProgress?.({ file: displayPath(file, cwd), index: fileIndex + 1, total: files.length, tools });
  });

  const sources = program
    .getSourceFiles()
    .filter((file) => !file.isDeclarationFile && !/[\\/]node_modules[\\/]/.test(file.fileName))
    .map((file) => path.resolve(file.fileName));
  return { manifest: canonicalManifest({ version: 1, generator: 'toolwright-schema', classes }), sources };
}
