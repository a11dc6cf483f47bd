import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import type { JsonSchema } from '../common/json-schema';
import type { ManifestClass, ManifestMethod, ManifestParam, ToolManifest } from '../common/manifest';
import { ToolkitError } from '../errors';
import { classifyParam, unwrapTypeNode } from './classify-param';
import { DEFAULT_COMPILER_OPTIONS, formatDiagnostics, generatorCompilerOptions, loadProject } from './compiler-options';
import { expandGlobs, isTypeScriptSource, NoMatchError } from './expand-globs';
import { normalizeSchema } from './normalize-schema';
import { canonicalManifest } from './serialize-manifest';
import { createSchemaReader, type SchemaReader } from './schema-generator';
import { createSchemaProgram, virtualNames, virtualSourceText } from './schema-program';
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
  readonly files?: readonly string[];
  /** A tsconfig whose compiler options (and, without `files`, whose files) are used. */
  readonly project?: string;
  /** The working directory: globs resolve against it and manifest paths are relative to it. Default `process.cwd()`. */
  readonly cwd?: string;
  /** Called after each source file is analysed (the CLI prints a progress line on a TTY). */
  readonly onProgress?: (progress: GenerateProgress) => void;
}

const VIRTUAL_FILE = '__toolwright_schema__.cts';

function definitionError(message: string, cause?: unknown): ToolkitError {
  return new ToolkitError('INVALID_DEFINITION', message, cause === undefined ? {} : { cause });
}

function locate(node: ts.Node, cwd: string): string {
  const sourceFile = node.getSourceFile();
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
  return `${displayPath(sourceFile.fileName, cwd)}:${line + 1}:${character + 1}`;
}

function resolveFiles(options: GenerateManifestOptions, cwd: string, projectFiles: readonly string[] | undefined): string[] {
  if (options.files !== undefined && options.files.length > 0) {
    try {
      return expandGlobs(options.files, cwd);
    } catch (error) {
      if (error instanceof NoMatchError) throw definitionError(error.message, error);
      throw error;
    }
  }
  if (projectFiles !== undefined) return projectFiles.filter(isTypeScriptSource);
  throw definitionError('no source files to scan. Fix: pass files or globs, or a tsconfig with `project`.');
}

function methodDescription(method: ts.MethodDeclaration): string | undefined {
  const docs = ts.getJSDocCommentsAndTags(method).filter(ts.isJSDoc);
  const last = docs[docs.length - 1];
  const text = last === undefined ? undefined : ts.getTextOfJSDocComment(last.comment)?.trim();
  return text === undefined || text === '' ? undefined : text;
}

function paramDescriptions(method: ts.MethodDeclaration): Map<string, string> {
  const result = new Map<string, string>();
  for (const tag of ts.getJSDocTags(method)) {
    if (!ts.isJSDocParameterTag(tag) || !ts.isIdentifier(tag.name)) continue;
    const text = ts.getTextOfJSDocComment(tag.comment)?.replace(/^\s*-\s*/, '').trim();
    if (text !== undefined && text !== '') result.set(tag.name.text, text);
  }
  return result;
}

const NOT_LITERAL: unique symbol = Symbol('not a literal');

/** The JSON value of a literal default (`= 7`, `= 'c'`, `= ['a']`, `= Priority.High`), or NOT_LITERAL. */
function literalValue(node: ts.Expression, checker: ts.TypeChecker): unknown {
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) return literalValue(node.expression, checker);
  if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
    const member = checker.getSymbolAtLocation(ts.isPropertyAccessExpression(node) ? node.name : node.argumentExpression)?.valueDeclaration;
    const value = member !== undefined && ts.isEnumMember(member) ? checker.getConstantValue(member) : undefined;
    return value === undefined ? NOT_LITERAL : value;
  }
  if (ts.isStringLiteralLike(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand)) {
    return -Number(node.operand.text);
  }
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (node.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isArrayLiteralExpression(node)) {
    const values = node.elements.map((element) => literalValue(element, checker));
    return values.includes(NOT_LITERAL) ? NOT_LITERAL : values;
  }
  if (ts.isObjectLiteralExpression(node)) {
    const out: Record<string, unknown> = {};
    for (const property of node.properties) {
      if (!ts.isPropertyAssignment(property) || !(ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))) return NOT_LITERAL;
      const value = literalValue(property.initializer, checker);
      if (value === NOT_LITERAL) return NOT_LITERAL;
      out[property.name.text] = value;
    }
    return out;
  }
  return NOT_LITERAL;
}

function isEmptyReturn(type: ts.Type): boolean {
  const empty = ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never | ts.TypeFlags.Null;
  if (type.flags & empty) return true;
  return type.isUnion() && type.types.every((t) => (t.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Null)) !== 0);
}

/** Everything one analysis run needs, shared by the per-class steps. */
interface Analysis {
  readonly cwd: string;
  readonly checker: ts.TypeChecker;
  readonly reader: SchemaReader;
}

/**
 * Adds what the `Parameters<…>` indirection loses: the JSDoc tags of a type alias of a
 * primitive (`/** @minimum 1 *\/ type Days = number`), and `integer` for an alias named so.
 * Keywords the schema already has win.
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
  return normalizeSchema(result);
}

function analyseParam(
  analysis: Analysis,
  cls: ScannedClass,
  method: ScannedMethod,
  param: ScannedParam,
  imports: ImportBindings,
  virtualName: string,
  descriptions: ReadonlyMap<string, string>,
): ManifestParam {
  const classification = classifyParam(param, analysis.checker, imports);
  const description = descriptions.get(param.name);
  const entry: ManifestParam = { name: param.name, index: param.index, optional: param.optional, kind: classification.kind };
  if (classification.kind === 'injected') {
    entry.injected = classification.injected;
    if (classification.typeName !== undefined) entry.typeName = classification.typeName;
  }
  if (description !== undefined) entry.description = description;
  if (classification.kind === 'model') {
    let schema: JsonSchema;
    try {
      schema = analysis.reader.schemaOf(virtualName) ?? {};
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
    entry.schema = normalizeSchema(schema);
  }
  return entry;
}

function analyseReturns(analysis: Analysis, virtualName: string): JsonSchema | undefined {
  const type = analysis.reader.typeOf(virtualName);
  if (type === undefined || isEmptyReturn(type)) return undefined;
  try {
    const schema = analysis.reader.schemaOf(virtualName);
    return schema === undefined || Object.keys(schema).length === 0 ? undefined : schema;
  } catch {
    return undefined; // a return type JSON Schema cannot express (functions, symbols…) is simply left out
  }
}

function analyseClass(analysis: Analysis, cls: ScannedClass, classIndex: number, imports: ImportBindings): ManifestClass {
  const methods: Record<string, ManifestMethod> = {};
  cls.methods.forEach((method, methodIndex) => {
    const descriptions = paramDescriptions(method.node);
    const params = method.params.map((param) =>
      analyseParam(analysis, cls, method, param, imports, virtualNames.param(classIndex, methodIndex, param.index), descriptions),
    );
    const description = methodDescription(method.node);
    const entry: ManifestMethod = description !== undefined ? { description, params } : { params };
    const returns = analyseReturns(analysis, virtualNames.returns(classIndex, methodIndex));
    if (returns !== undefined) entry.returns = returns;
    methods[method.name] = entry;
  });
  return { file: displayPath(cls.fileName, analysis.cwd), methods };
}

function checkDuplicates(classes: readonly ScannedClass[], cwd: string): ScanProblem[] {
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
 * Checks that every import of the virtual module reaches its class. (A full type check of the
 * virtual module would say the same, at the cost of a second pass over every signature.) An
 * unresolved import would otherwise turn every schema of the class into `{}` without a word.
 */
function checkImports(virtualSource: ts.SourceFile, classes: readonly ScannedClass[], checker: ts.TypeChecker, cwd: string): void {
  const problems: ScanProblem[] = [];
  let classIndex = 0;
  for (const statement of virtualSource.statements) {
    if (!ts.isImportDeclaration(statement) || statement.importClause === undefined) continue;
    const cls = classes[classIndex];
    classIndex += 1;
    if (cls === undefined) break;
    const clause = statement.importClause;
    const bindings = clause.namedBindings;
    const localName = clause.name ?? (bindings !== undefined && ts.isNamedImports(bindings) ? bindings.elements[0]?.name : undefined);
    const local = localName === undefined ? undefined : checker.getSymbolAtLocation(localName);
    const target = local === undefined ? undefined : checker.getAliasedSymbol(local);
    if (target !== undefined && (target.flags & ts.SymbolFlags.Class) !== 0) continue;
    const sf = cls.node.getSourceFile();
    const { line, character } = sf.getLineAndCharacterOfPosition(cls.node.getStart(sf));
    problems.push({
      fileName: displayPath(cls.fileName, cwd),
      line: line + 1,
      column: character + 1,
      message:
        `the compiler cannot import class ${cls.name} from its file, so its types are unknown. ` +
        'Fix: check that the file compiles and that the class is exported; pass the project\'s tsconfig with --project so imports resolve as in your build.',
    });
  }
  if (problems.length > 0) throw definitionError(`cannot read the types of the tool classes:\n${formatProblems(problems)}`);
}

/**
 * Generates the build-time tool manifest (SPEC §8) from TypeScript sources: every `@Tool`
 * method of every exported class, keyed by class and method name, with exact parameter
 * names, optionality, JSON Schemas, JSDoc descriptions and injected-parameter markers.
 * One TypeScript Program is built for all files.
 *
 * @example
 * const manifest = generateManifest({ files: ['src/services/*.ts'], project: 'tsconfig.json' });
 * const toolkit = new Toolkit({ manifest });
 * @throws ToolkitError `INVALID_DEFINITION` naming `file:line` and the fix, for: a destructured
 *   parameter without a name, a tool class that is not exported, two tool classes with the
 *   same name, a parameter type JSON Schema cannot express, an unreadable tsconfig, files that
 *   do not exist.
 */
export function generateManifest(options: GenerateManifestOptions): ToolManifest {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const project = options.project === undefined ? undefined : loadProject(options.project, cwd);
  const files = resolveFiles(options, cwd, project?.fileNames);
  const compilerOptions = generatorCompilerOptions(project?.options ?? DEFAULT_COMPILER_OPTIONS);
  const ambient = (project?.fileNames ?? []).filter((f) => !isTypeScriptSource(f) && /\.d\.[cm]?ts$/.test(f));

  // Syntactic scan first: it decides what the virtual module declares.
  const target = compilerOptions.target ?? ts.ScriptTarget.ES2022;
  const scanned: ScannedClass[] = [];
  const problems: ScanProblem[] = [];
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    if (!text.includes('Tool')) continue;
    const result = scanSourceFile(ts.createSourceFile(file, text, target, true), displayPath(file, cwd));
    scanned.push(...result.classes);
    problems.push(...result.problems);
  }
  problems.push(...checkDuplicates(scanned, cwd));
  if (problems.length > 0) {
    throw definitionError(
      `cannot generate the manifest (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${formatProblems(problems)}`,
    );
  }

  const virtualFileName = path.join(cwd, VIRTUAL_FILE);
  const virtualText = virtualSourceText(scanned, cwd);
  const program = createSchemaProgram({ rootNames: [...ambient, ...files], compilerOptions, virtualFileName, virtualText });
  const virtualSource = program.getSourceFile(virtualFileName);
  if (virtualSource === undefined) throw definitionError('internal error: the virtual module was not loaded');
  const syntaxErrors = program.getSyntacticDiagnostics(virtualSource);
  if (syntaxErrors.length > 0) {
    throw definitionError(`internal error: the generator wrote an invalid virtual module:\n${formatDiagnostics(syntaxErrors, cwd)}`);
  }
  const checker = program.getTypeChecker();
  checkImports(virtualSource, scanned, checker, cwd);
  const analysis: Analysis = { cwd, checker, reader: createSchemaReader(program, virtualSource) };

  // Analyse the Program's own nodes (the checker only knows those), in the prescan's order.
  const classes: Record<string, ManifestClass> = {};
  const classIndex = new Map(scanned.map((cls, i) => [`${cls.fileName}\0${cls.name}`, i]));
  const scannedFiles = [...new Set(scanned.map((cls) => cls.fileName))];
  files.forEach((file, fileIndex) => {
    let tools = 0;
    if (scannedFiles.includes(file)) {
      const sourceFile = program.getSourceFile(file);
      if (sourceFile === undefined) throw definitionError(`internal error: ${displayPath(file, cwd)} is not in the program`);
      const { classes: found, imports } = scanSourceFile(sourceFile, displayPath(file, cwd));
      for (const cls of found) {
        const index = classIndex.get(`${file}\0${cls.name}`);
        if (index === undefined) continue;
        classes[cls.name] = analyseClass(analysis, cls, index, imports);
        tools += cls.methods.length;
      }
    }
    options.onProgress?.({ file: displayPath(file, cwd), index: fileIndex + 1, total: files.length, tools });
  });

  return canonicalManifest({ version: 1, generator: 'toolwright-schema', classes });
}
