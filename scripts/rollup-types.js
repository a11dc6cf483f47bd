'use strict';
// `npm run build`, after tsc: rolls the declarations up into one .d.ts per entry point of package.json
// `exports` and deletes the per-module ones, so the package ships a file per public face. The root's
// declarations live in dist/index.d.ts only: a subpath's file imports what it shares with the root
// from 'toolwright' (the package resolving itself), never a copy — a class declared twice would be
// two unrelated types to a user's compiler. A subpath naming a module of the root that the root does
// not export fails the build, naming both.
const fs = require('node:fs');
const path = require('node:path');
const { rollup } = require('rollup');
const { dts } = require('rollup-plugin-dts');
const ts = require('typescript');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

/** The entry points' declaration files, the root first: [subpath, absolute path]. */
const entries = Object.entries(pkg.exports)
  .filter(([, target]) => typeof target === 'object' && target.types !== undefined)
  .map(([subpath, target]) => [subpath, path.join(root, target.types)]);

/** Every declaration file a file reaches through relative imports. */
function closure(file) {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    const info = ts.preProcessFile(fs.readFileSync(name, 'utf8'), true, true);
    for (const { fileName } of [...info.importedFiles, ...info.referencedFiles]) {
      if (!fileName.startsWith('.')) continue;
      const found = resolveFrom(name, fileName);
      if (fs.existsSync(found)) visit(found);
    }
  };
  visit(file);
  return seen;
}

/** The names the root entry point exports. */
function rootNames(file) {
  const program = ts.createProgram([file], { skipLibCheck: true, noEmit: true });
  const checker = program.getTypeChecker();
  return new Set(checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file))).map((symbol) => symbol.name));
}

/**
 * The names that some declaration file imports as a value (not `import type`), per module
 * specifier ('toolwright' for the root's own modules): the rolled-up file keeps the rest type-only,
 * as tsc wrote them.
 */
function valueImports(files, shared) {
  const values = new Map();
  for (const file of files) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      const clause = ts.isImportDeclaration(statement) ? statement.importClause : undefined;
      if (clause === undefined || clause.isTypeOnly || clause.namedBindings === undefined || !ts.isNamedImports(clause.namedBindings)) continue;
      const specifier = statement.moduleSpecifier.text;
      const from = specifier.startsWith('.') ? (shared.has(resolveFrom(file, specifier)) ? 'toolwright' : undefined) : specifier;
      if (from === undefined) continue;
      const names = values.get(from) ?? new Set();
      for (const element of clause.namedBindings.elements) if (!element.isTypeOnly) names.add((element.propertyName ?? element.name).text);
      values.set(from, names);
    }
  }
  return values;
}

/** Splits each `import { … } from 'x'` of a rolled-up file into its type-only and value parts. */
function keepTypeOnly(code, values) {
  return code.replace(/^import \{ ([^}]*) \} from '([^']+)';$/gm, (line, list, from) => {
    const names = list.split(', ');
    const value = names.filter((name) => values.get(from)?.has(name.split(' as ')[0]));
    const type = names.filter((name) => !value.includes(name));
    return [type.length > 0 ? `import type { ${type.join(', ')} } from '${from}';` : '', value.length > 0 ? `import { ${value.join(', ')} } from '${from}';` : '']
      .filter((part) => part !== '')
      .join('\n');
  });
}

/** The entry file's opening comment (its `@packageDocumentation`, which TypeDoc shows), if any. */
function openingComment(file) {
  const text = fs.readFileSync(file, 'utf8');
  const range = ts.getLeadingCommentRanges(text, 0)?.[0];
  return range === undefined ? '' : `${text.slice(range.pos, range.end)}\n`;
}

/** Named imports of 'toolwright' in a rolled-up subpath file that the root does not export. */
function unexported(code, exported) {
  const missing = [];
  for (const match of code.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'toolwright';/g)) {
    for (const part of match[1].split(',')) {
      const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0];
      if (name !== '' && !exported.has(name)) missing.push(name);
    }
  }
  return missing;
}

async function rollUp(file, shared) {
  const values = valueImports(closure(file), shared);
  const comment = openingComment(file);
  const toRoot = {
    name: 'toolwright-root',
    resolveId(id, importer) {
      if (importer === undefined || !id.startsWith('.')) return null;
      return shared.has(resolveFrom(importer, id)) ? { id: 'toolwright', external: true } : null;
    },
  };
  const bundle = await rollup({
    input: file,
    external: (id) => !id.startsWith('.') && !path.isAbsolute(id) && id !== 'toolwright',
    plugins: [toRoot, dts({ respectExternal: false })],
    onwarn(warning) {
      throw new Error(`rolling up ${path.relative(root, file)}: ${warning.message}`);
    },
  });
  const { output } = await bundle.generate({ format: 'es' });
  await bundle.close();
  return comment + keepTypeOnly(output[0].code, values);
}

/** The declaration file a relative import names. */
function resolveFrom(importer, id) {
  const base = path.resolve(path.dirname(importer), id).replace(/\.js$/, '');
  return [`${base}.d.ts`, path.join(base, 'index.d.ts')].find((candidate) => fs.existsSync(candidate)) ?? base;
}

async function main() {
  const [[, rootFile]] = entries;
  const core = closure(rootFile);
  const exported = rootNames(rootFile);
  const outputs = new Map([[rootFile, await rollUp(rootFile, new Set())]]);
  const problems = [];
  for (const [subpath, file] of entries.slice(1)) {
    const shared = new Set([...closure(file)].filter((name) => core.has(name)));
    const code = await rollUp(file, shared);
    for (const name of unexported(code, exported)) problems.push(`${subpath} uses ${name}, a name of the root's modules that 'toolwright' does not export`);
    outputs.set(file, code);
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
  for (const name of fs.readdirSync(dist, { recursive: true })) {
    const full = path.join(dist, name);
    if (/\.d\.[mc]?ts$/.test(name) && !outputs.has(full)) fs.rmSync(full);
  }
  for (const [file, code] of outputs) fs.writeFileSync(file, code);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
