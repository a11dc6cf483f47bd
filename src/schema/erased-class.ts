/**
 * @internal What to add to a message about a parameter reflection could not type when it saw
 * `Object` or `Function` (or nothing): the class may have been imported with `import type` — the
 * autofix of typescript-eslint's `consistent-type-imports` rule does so when a class is used only
 * as a parameter type — which erases it from the emitted code, so its metadata names `Function` (tsc) or `Object`.
 * `typeName` is the class the manifest names, when it does; `named` says how to name it in the
 * decorator instead. Empty when reflection saw a class (nothing was erased).
 */
export function erasedClassHint(designType: unknown, typeName: string | undefined, named: (type: string) => string): string {
  if (designType !== undefined && designType !== Object && designType !== Function) return '';
  const type = typeName ?? 'TheClass';
  return (
    ` If its type is a class, it was most likely imported with \`import type\` (the autofix of typescript-eslint's ` +
    `consistent-type-imports rule), which erases the class from the compiled code, so reflection cannot see it: ` +
    `import it as a value (\`import { ${type} } from '…'\`) or name it in the decorator: ${named(type)}.`
  );
}
