#!/usr/bin/env node
// The figures docs/DESIGN.md section 3b is held to, measured on the tree as it is: names each package's front door
// exports, the fields a route handler receives, the largest source files, and the functions taking more than three
// positional parameters (the lint's named exceptions). `node scripts/architecture-figures.mjs [--json]`.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

// `--root DIR`: measure another checkout (an earlier commit's worktree) with this script.
const rootFlag = process.argv.indexOf('--root');
const root = rootFlag > 0 ? process.argv[rootFlag + 1] : new URL('..', import.meta.url).pathname;
const entries = {
  '@svc/core': 'packages/core/src/index.ts',
  '@svc/core/schemas': 'packages/core/src/schemas/index.ts',
  '@svc/core/event-stream': 'packages/core/src/event-stream.ts',
  '@svc/core/store-kit': 'packages/core/src/store/kit.ts',
  '@svc/core/testing': 'packages/core/src/testing/index.ts',
};

const program = ts.createProgram(
  Object.values(entries).map((file) => join(root, file)).concat(join(root, 'packages/server/src/http/routes.ts')),
  { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, noEmit: true, customConditions: ['@svc/source'], jsx: ts.JsxEmit.ReactJSX, jsxImportSource: 'preact', skipLibCheck: true },
);
const checker = program.getTypeChecker();
const exportsOf = (file) => {
  const source = program.getSourceFile(join(root, file));
  const symbol = source && checker.getSymbolAtLocation(source);
  return symbol ? checker.getExportsOfModule(symbol).length : null;
};
const frontDoors = Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, exportsOf(file)]));

const routes = program.getSourceFile(join(root, 'packages/server/src/http/routes.ts'));
const routeCall = routes?.statements.find((node) => ts.isInterfaceDeclaration(node) && node.name.text === 'RouteCall');
const routeCallFields = routeCall ? routeCall.members.map((member) => member.name?.getText(routes)) : [];

const exportStar = [];
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$|\.d\.ts$/.test(name)) {
      const text = readFileSync(path, 'utf8');
      const file = relative(root, path);
      files.push({ file, lines: text.split('\n').length });
      if (/\/src\/index\.ts$/.test(file) && /^export \*/m.test(text)) exportStar.push(file);
    }
  }
})(join(root, 'packages'));
files.sort((a, b) => b.lines - a.lines);

let exceptions = null;
try {
  exceptions = JSON.parse(readFileSync(join(root, 'eslint.max-params-exceptions.json'), 'utf8')).functions.length;
} catch {
  // A checkout from before the lint has no list.
}
const figures = { frontDoors, exportStarInIndex: exportStar, routeCallFields, largestSourceFiles: files.slice(0, 5), maxParamsExceptions: exceptions };
if (process.argv.includes('--json')) console.log(JSON.stringify(figures, null, 2));
else {
  for (const [name, count] of Object.entries(frontDoors)) console.log(`${name.padEnd(24)} ${count} names`);
  console.log(`export * in a src/index.ts: ${exportStar.length ? exportStar.join(', ') : 'none'}`);
  console.log(`RouteCall: ${routeCallFields.length} fields (${routeCallFields.join(', ')})`);
  console.log('largest source files:');
  for (const { file, lines } of figures.largestSourceFiles) console.log(`  ${String(lines).padStart(5)}  ${file}`);
  console.log(`functions with more than 3 parameters (named lint exceptions): ${exceptions}`);
}
