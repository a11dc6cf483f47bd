'use strict';
// The reviewed public surface: an API Extractor report per entry point of package.json's
// `exports`, kept in api/<entry>.api.md. `npm run api` rewrites the reports after a deliberate
// change; `npm run test:package` (CI) fails when the built types no longer match them, or when a
// public signature uses a type that no entry point exports (ae-forgotten-export).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Extractor, ExtractorConfig } = require('@microsoft/api-extractor');
const ts = require('typescript');

const root = path.resolve(__dirname, '..');
const update = process.argv.includes('--update');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-api-'));

/** The names the root entry point exports: a subpath's signatures may use them (users import them from 'toolwright'). */
function rootExports() {
  const file = path.join(root, pkg.exports['.'].types);
  const program = ts.createProgram([file], { skipLibCheck: true });
  const checker = program.getTypeChecker();
  return new Set(checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file))).map((s) => s.name));
}
const shared = rootExports();
fs.mkdirSync(path.join(root, 'api'), { recursive: true });

/** `toolwright/mcp` → `mcp`, `.` → `toolwright`. */
const reportName = (subpath) => (subpath === '.' ? 'toolwright' : subpath.slice(2));

let failed = false;
for (const [subpath, target] of Object.entries(pkg.exports)) {
  if (typeof target !== 'object' || target.types === undefined) continue;
  const name = reportName(subpath);
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: path.join(root, target.types),
      // the built declarations, as a user's compiler sees them: 'toolwright' is the package
      // resolving itself (dist/), not tsconfig.json's `paths` alias to src/ for tests and examples
      compiler: { overrideTsconfig: { extends: './tsconfig.build.json', compilerOptions: { paths: {} } } },
      apiReport: { enabled: true, reportFileName: `${name}.api.md`, reportFolder: path.join(root, 'api'), reportTempFolder: temp },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        // the JSDoc here is written for editors, not for TSDoc's stricter grammar
        tsdocMessageReporting: { default: { logLevel: 'none' } },
        extractorMessageReporting: {
          default: { logLevel: 'warning' },
          'ae-missing-release-tag': { logLevel: 'none' },
          'ae-unresolved-link': { logLevel: 'none' },
          // members of public types (JSON Schema keywords, event fields) document themselves by name
          'ae-undocumented': { logLevel: 'none' },
          'ae-forgotten-export': { logLevel: 'error', addToApiReportFile: false },
        },
        compilerMessageReporting: { default: { logLevel: 'warning' } },
      },
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: path.join(root, 'package.json'),
  });
  const result = Extractor.invoke(config, {
    localBuild: update,
    messageCallback(message) {
      const symbol = /The symbol "([^"]+)"/.exec(message.text)?.[1];
      if (message.messageId === 'ae-forgotten-export' && subpath !== '.' && symbol !== undefined && shared.has(symbol)) message.logLevel = 'none';
      else if (message.messageId === 'console-compiler-version-notice' || message.messageId === 'console-preamble') message.logLevel = 'none';
    },
  });
  if (result.succeeded) {
    console.log(`api/${name}.api.md: ${update && result.apiReportChanged ? 'updated' : 'up to date'}`);
    continue;
  }
  failed = true;
  console.error(
    result.apiReportChanged
      ? `api/${name}.api.md: the public surface of '${subpath}' changed. Review the difference; if it is meant, run \`npm run api\` and commit the report.`
      : `api/${name}.api.md: API Extractor reported ${result.errorCount} error(s) for '${subpath}' (see above).`,
  );
}
fs.rmSync(temp, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
