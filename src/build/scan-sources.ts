import * as path from 'node:path';
import type * as TS from 'typescript';
import { ts } from './compiler';

/** The decorator names the generator recognises, by their exported name. */
export type DecoratorName = 'Tool' | 'ToolParam' | 'InjectContext';

/** What a file imports, as far as decorator and injected-type detection needs it. */
export interface ImportBindings {
  /** Local name → imported name, for `import { Imported as Local } from '…'`. */
  readonly named: ReadonlyMap<string, string>;
  /** Local names bound by default or namespace imports. */
  readonly other: ReadonlySet<string>;
}

/** One parameter of a `@Tool` method, as the syntax shows it. */
export interface ScannedParam {
  /** Its position in the call (a `this` parameter is not counted). */
  readonly index: number;
  /** The source name (or the `@ToolParam({ name })` literal for a destructured parameter). */
  readonly name: string;
  readonly node: TS.ParameterDeclaration;
  /** True when the parameter carries `@ToolParam`. */
  readonly hasToolParam: boolean;
  /** True for `@ToolParam({ preset: true })`: a hidden parameter a preset fills. */
  readonly preset: boolean;
  /**
   * True when `@ToolParam` says the type itself, which wins at run time: a `type` thunk, or a
   * `schema` that names a `type` (or is not written in place). A fragment that only adds keywords
   * (`{ description }`, `{ minimum: 1 }`) does not.
   */
  readonly explicitType: boolean;
  /** True when the parameter carries `@InjectContext(key)`. */
  readonly injectContext: boolean;
  /** True for `?` parameters and parameters with a default value. */
  readonly optional: boolean;
}

/** One `@Tool` method. */
export interface ScannedMethod {
  readonly name: string;
  readonly node: TS.MethodDeclaration;
  readonly params: readonly ScannedParam[];
}

/** One class with at least one `@Tool` method. */
export interface ScannedClass {
  /** The declared class name: the manifest key, and what `constructor.name` gives at run time. */
  readonly name: string;
  readonly fileName: string;
  readonly node: TS.ClassDeclaration;
  readonly methods: readonly ScannedMethod[];
}

/** A definition the generator cannot handle, with where it is and how to fix it. */
export interface ScanProblem {
  readonly fileName: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** The outcome of scanning one file. */
export interface ScanResult {
  readonly classes: ScannedClass[];
  readonly problems: ScanProblem[];
  readonly imports: ImportBindings;
}

/** Collects the import bindings of a source file. */
function collectImports(sourceFile: TS.SourceFile): ImportBindings {
  const named = new Map<string, string>();
  const other = new Set<string>();
  for (const statement of sourceFile.statements) {
    if (!ts.isImportDeclaration(statement) || statement.importClause === undefined) continue;
    const clause = statement.importClause;
    if (clause.name !== undefined) other.add(clause.name.text);
    const bindings = clause.namedBindings;
    if (bindings === undefined) continue;
    if (ts.isNamespaceImport(bindings)) {
      other.add(bindings.name.text);
    } else {
      for (const element of bindings.elements) {
        named.set(element.name.text, (element.propertyName ?? element.name).text);
      }
    }
  }
  return { named, other };
}

/**
 * The name an identifier refers to, seen through the file's imports: `T` from
 * `import { Tool as T }` is `Tool`; a name bound by a default or namespace import is unknown.
 */
export function resolveImportedName(localName: string, imports: ImportBindings): string | undefined {
  const imported = imports.named.get(localName);
  if (imported !== undefined) return imported;
  if (imports.other.has(localName)) return undefined;
  return localName;
}

/**
 * True when `decorator` is `@Tool`/`@ToolParam`/`@InjectContext` (called or bare), also through an aliased
 * named import (`import { Tool as T }`) or a namespace import (`@tw.Tool()`).
 */
function isDecorator(decorator: TS.Decorator, name: DecoratorName, imports: ImportBindings): boolean {
  let expression = decorator.expression;
  if (ts.isCallExpression(expression)) expression = expression.expression;
  if (ts.isIdentifier(expression)) return resolveImportedName(expression.text, imports) === name;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text === name;
  return false;
}

function decoratorsOf(node: TS.Node): readonly TS.Decorator[] {
  return ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : [];
}

function hasModifier(node: TS.Node, kind: TS.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);
}

/** The initializer of option `key` in a `@ToolParam({ … })` call, when the options are written literally. */
function toolParamOption(decorator: TS.Decorator, key: string): TS.Expression | undefined {
  const call = decorator.expression;
  if (!ts.isCallExpression(call)) return undefined;
  const options = call.arguments[0];
  if (options === undefined || !ts.isObjectLiteralExpression(options)) return undefined;
  for (const property of options.properties) {
    if (
      ts.isPropertyAssignment(property) &&
      (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) &&
      property.name.text === key
    ) {
      return property.initializer;
    }
  }
  return undefined;
}

/** The `name: '…'` string literal of a `@ToolParam({ name })` call, when written literally. */
function toolParamLiteralName(decorator: TS.Decorator): string | undefined {
  const initializer = toolParamOption(decorator, 'name');
  return initializer !== undefined && ts.isStringLiteralLike(initializer) ? initializer.text : undefined;
}

/** `@ToolParam({ type: … })`, `@ToolParam({ schema: { type: … } })` or `@ToolParam({ schema: aSchema })`: see {@link ScannedParam.explicitType}. */
function saysType(decorator: TS.Decorator): boolean {
  if (toolParamOption(decorator, 'type') !== undefined) return true;
  const schema = toolParamOption(decorator, 'schema');
  if (schema === undefined) return false;
  if (!ts.isObjectLiteralExpression(schema)) return true;
  return schema.properties.some((p) => p.name !== undefined && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === 'type');
}

function memberName(name: TS.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  if (ts.isComputedPropertyName(name) && ts.isStringLiteralLike(name.expression)) return name.expression.text;
  return undefined;
}

/** Local names exported by a separate statement (`export { X as Y }`, `export default X`). */
function exportedLocalNames(sourceFile: TS.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of sourceFile.statements) {
    if (ts.isExportDeclaration(statement) && statement.moduleSpecifier === undefined && !statement.isTypeOnly) {
      const clause = statement.exportClause;
      if (clause !== undefined && ts.isNamedExports(clause)) {
        for (const element of clause.elements) names.add((element.propertyName ?? element.name).text);
      }
    } else if (ts.isExportAssignment(statement) && !statement.isExportEquals && ts.isIdentifier(statement.expression)) {
      names.add(statement.expression.text);
    }
  }
  return names;
}

function position(sourceFile: TS.SourceFile, node: TS.Node): { line: number; column: number } {
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
  return { line: line + 1, column: character + 1 };
}

/**
 * Finds every class with `@Tool` methods in a parsed source file, without a type checker.
 * Never throws: what it cannot handle comes back as `problems` naming the fix.
 */
export function scanSourceFile(sourceFile: TS.SourceFile, displayName: string): ScanResult {
  const imports = collectImports(sourceFile);
  const classes: ScannedClass[] = [];
  const problems: ScanProblem[] = [];
  const exportedNames = exportedLocalNames(sourceFile);
  const problem = (node: TS.Node, message: string): void => {
    problems.push({ fileName: displayName, ...position(sourceFile, node), message });
  };

  const visit = (node: TS.Node): void => {
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) scanClass(node);
    ts.forEachChild(node, visit);
  };

  const scanClass = (node: TS.ClassDeclaration | TS.ClassExpression): void => {
    const toolMethods = node.members.filter(
      (member): member is TS.MethodDeclaration =>
        ts.isMethodDeclaration(member) && decoratorsOf(member).some((d) => isDecorator(d, 'Tool', imports)),
    );
    if (toolMethods.length === 0) return;
    const className = node.name?.text;
    if (className === undefined) {
      problem(node, 'a class with @Tool methods has no name. Fix: give it a name (`export class MyTools { … }`); the manifest is keyed by class name.');
      return;
    }
    const topLevel = ts.isClassDeclaration(node) && node.parent === sourceFile;
    const exported = topLevel && (hasModifier(node, ts.SyntaxKind.ExportKeyword) || exportedNames.has(className));
    if (!exported || !ts.isClassDeclaration(node)) {
      problem(
        node.name ?? node,
        `class ${className} has @Tool methods but is not exported${topLevel ? '' : ' from the top level of its module'}. ` +
          `Fix: add \`export\`${topLevel ? '' : ' and declare it at the top level'} (\`export class ${className}\`), also in a file that ` +
          'registers it itself: the manifest describes exported classes only, and the toolkit finds each tool class in it by name.',
      );
      return;
    }
    const methods: ScannedMethod[] = [];
    for (const method of toolMethods) {
      const scanned = scanMethod(className, method);
      if (scanned !== undefined) methods.push(scanned);
    }
    classes.push({ name: className, fileName: sourceFile.fileName, node, methods });
  };

  const scanMethod = (className: string, method: TS.MethodDeclaration): ScannedMethod | undefined => {
    const name = memberName(method.name);
    if (name === undefined) {
      problem(method.name, `a @Tool method of ${className} has a computed name. Fix: give the method a plain name (\`async getWeather(…)\`).`);
      return undefined;
    }
    const params: ScannedParam[] = [];
    let index = 0;
    let ok = true;
    for (const param of method.parameters) {
      if (ts.isIdentifier(param.name) && param.name.text === 'this') continue;
      const where = `${className}.${name}`;
      const toolParam = decoratorsOf(param).find((d) => isDecorator(d, 'ToolParam', imports));
      if (param.dotDotDotToken !== undefined) {
        problem(param, `${where}: rest parameter ${param.name.getText(sourceFile)} cannot be a tool parameter. Fix: take an array instead (\`items: Item[]\`).`);
        ok = false;
        index += 1;
        continue;
      }
      let paramName: string | undefined;
      if (ts.isIdentifier(param.name)) {
        paramName = param.name.text;
      } else if (toolParam !== undefined) {
        paramName = toolParamLiteralName(toolParam);
      }
      if (paramName === undefined) {
        problem(
          param,
          `${where}: parameter ${index} is destructured and has no name. ` +
            `Fix: name it (\`options: Options\`) and destructure inside the method, or name it with @ToolParam({ name: 'options' }).`,
        );
        ok = false;
        index += 1;
        continue;
      }
      params.push({
        index,
        name: paramName,
        node: param,
        hasToolParam: toolParam !== undefined,
        preset: toolParam !== undefined && toolParamOption(toolParam, 'preset')?.kind === ts.SyntaxKind.TrueKeyword,
        explicitType: toolParam !== undefined && saysType(toolParam),
        injectContext: decoratorsOf(param).some((d) => isDecorator(d, 'InjectContext', imports)),
        optional: param.questionToken !== undefined || param.initializer !== undefined,
      });
      index += 1;
    }
    if (!ok) return undefined;
    return { name, node: method, params };
  };

  visit(sourceFile);
  return { classes, problems, imports };
}

/** Formats problems as `file:line:column: message` lines. */
export function formatProblems(problems: readonly ScanProblem[]): string {
  return problems.map((p) => `${p.fileName}:${p.line}:${p.column}: ${p.message}`).join('\n');
}

/** A path relative to `cwd`, with forward slashes (stable across platforms). */
export function displayPath(fileName: string, cwd: string): string {
  const relative = path.relative(cwd, fileName);
  return (relative === '' ? fileName : relative).split(path.sep).join('/');
}
