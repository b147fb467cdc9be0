/**
 * The repository's own ESLint rules, loaded by `eslint.config.js` as the plugin `svc`:
 *
 * - `svc/max-params`: at most 3 parameters (options objects instead of positional flags), with a named list of the
 *   functions that already had more (`eslint.max-params-exceptions.json`). The list can only shrink: a listed
 *   function that now takes 3 or fewer, or is gone, is an error until its entry is removed.
 * - `svc/doc-citations`: comments (and test titles) cite only documents that are in the repository: a `*.md` path
 *   must exist, `DESIGN.md section N` must be a section of `docs/DESIGN.md`, `spec N.M` a section of
 *   `docs/specification.md`, and notes kept outside the repository (the `CONTRACTS` letters) are not cited at all.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PLUGIN_FILE = fileURLToPath(import.meta.url);
export const EXCEPTIONS_FILE = 'eslint.max-params-exceptions.json';

/** Path from the repository root with forward slashes, as the exception list and messages write it. */
function repoPath(file) {
  return relative(ROOT, file).split(sep).join('/');
}

// ---------------------------------------------------------------------------------------------------------------
// svc/max-params

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression', 'TSDeclareFunction']);

function keyName(key, computed, sourceCode) {
  if (key.type === 'Identifier' && !computed) return key.name;
  if (key.type === 'PrivateIdentifier') return `#${key.name}`;
  if (key.type === 'Literal') return String(key.value);
  return `[${sourceCode.getText(key)}]`;
}

function calleeName(node) {
  switch (node.type) {
    case 'Identifier':
      return node.name;
    case 'ThisExpression':
      return 'this';
    case 'MemberExpression':
      return `${calleeName(node.object)}.${node.computed ? '[]' : node.property.name}`;
    case 'CallExpression':
      return `${calleeName(node.callee)}()`;
    default:
      return '?';
  }
}

/** The name a function, class or object literal goes by where it is written, or null when it has none. */
function ownName(node, sourceCode) {
  if (node.id?.type === 'Identifier') return node.id.name;
  const parent = node.parent;
  if (!parent) return null;
  switch (parent.type) {
    case 'VariableDeclarator':
      return parent.id.type === 'Identifier' ? parent.id.name : null;
    case 'MethodDefinition':
    case 'PropertyDefinition':
    case 'Property':
      return parent.value === node ? keyName(parent.key, parent.computed, sourceCode) : null;
    case 'AssignmentExpression':
      return parent.right === node ? sourceCode.getText(parent.left) : null;
    case 'AssignmentPattern':
      return parent.right === node && parent.left.type === 'Identifier' ? parent.left.name : null;
    case 'ExportDefaultDeclaration':
      return 'default';
    case 'CallExpression':
    case 'NewExpression':
      return FUNCTION_TYPES.has(node.type) && parent.arguments.includes(node) ? `${calleeName(parent.callee)} callback` : null;
    default:
      return null;
  }
}

/**
 * `Outer.inner`: the function's name qualified by the named functions, classes and objects around it, so an entry of
 * the exception list survives lines moving. An anonymous callback is named for what it is passed to (`it.each() callback`).
 */
function qualifiedName(node, sourceCode) {
  const names = [ownName(node, sourceCode) ?? '<anonymous>'];
  for (let up = node.parent; up; up = up.parent) {
    if (FUNCTION_TYPES.has(up.type) || up.type === 'ClassDeclaration' || up.type === 'ClassExpression' || up.type === 'ObjectExpression') {
      const name = ownName(up, sourceCode);
      // An anonymous callback around it (`describe(…, () => …)`) adds nothing that names it better.
      if (name && !name.endsWith(' callback')) names.unshift(name);
    }
  }
  return names.join('.');
}

let exceptionsCache = null;

/** The listed functions by file: `path#name` entries of the exception list. */
function loadExceptions() {
  if (exceptionsCache) return exceptionsCache;
  const byFile = new Map();
  const file = join(ROOT, EXCEPTIONS_FILE);
  const entries = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).functions : [];
  for (const entry of entries) {
    const at = entry.indexOf('#');
    const path = entry.slice(0, at);
    if (!byFile.has(path)) byFile.set(path, new Set());
    byFile.get(path).add(entry.slice(at + 1));
  }
  exceptionsCache = { entries, byFile };
  return exceptionsCache;
}

const maxParams = {
  meta: {
    type: 'suggestion',
    docs: { description: `At most N parameters, except the functions named in ${EXCEPTIONS_FILE}, a list that only shrinks` },
    schema: [{ type: 'object', properties: { max: { type: 'integer', minimum: 0 } }, additionalProperties: false }],
    messages: {
      tooMany:
        "{{name}} takes {{count}} parameters (at most {{max}}): take an options object instead. Listing '{{entry}}' in " +
        `${EXCEPTIONS_FILE} is not the fix: that list only shrinks.`,
      stale: "'{{entry}}' is listed in " + `${EXCEPTIONS_FILE}` + ' but {{why}}: remove it from the list (the list only shrinks).',
    },
  },
  create(context) {
    const max = context.options[0]?.max ?? 3;
    const sourceCode = context.sourceCode;
    const path = repoPath(context.filename);
    const { entries, byFile } = loadExceptions();
    const listed = byFile.get(path) ?? new Set();
    const seen = new Map();
    const offending = new Set();

    function check(node) {
      const base = qualifiedName(node, sourceCode);
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      const name = n === 1 ? base : `${base}~${n}`;
      const count = node.params.filter((p) => !(p.type === 'Identifier' && p.name === 'this')).length;
      if (count <= max) return;
      offending.add(name);
      if (listed.has(name)) return;
      context.report({ node: node.id ?? node, messageId: 'tooMany', data: { name: `'${name}'`, count, max, entry: `${path}#${name}` } });
    }

    return {
      ArrowFunctionExpression: check,
      FunctionDeclaration: check,
      FunctionExpression: check,
      TSDeclareFunction: check,
      'Program:exit'(program) {
        for (const name of listed) {
          if (offending.has(name)) continue;
          const why = seen.has(name.replace(/~\d+$/, '')) ? `takes ${max} parameters or fewer now` : 'no longer exists under that name';
          context.report({ node: program, loc: { line: 1, column: 0 }, messageId: 'stale', data: { entry: `${path}#${name}`, why } });
        }
        // Entries of files that are gone can be reported by no file of theirs: this file reports them.
        if (context.filename === PLUGIN_FILE) {
          for (const entry of entries) {
            const file = entry.slice(0, entry.indexOf('#'));
            if (!existsSync(join(ROOT, file))) {
              context.report({ node: program, loc: { line: 1, column: 0 }, messageId: 'stale', data: { entry, why: `${file} does not exist` } });
            }
          }
        }
      },
    };
  },
};

// ---------------------------------------------------------------------------------------------------------------
// svc/doc-citations

/** Section numbers of a Markdown document: `## 3a. Title` → `3a`, `### 5.1 Title` → `5.1`, and numbered items in them. */
function sectionsOf(file) {
  const sections = new Set();
  if (!existsSync(file)) return sections;
  let current = null;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const heading = /^#{2,4}\s+(\d+[a-z]?(?:\.\d+)*)\.?\s/.exec(line);
    if (heading) {
      current = heading[1];
      sections.add(current);
      continue;
    }
    const item = /^(\d+)\.\s/.exec(line);
    if (item && current) sections.add(`${current}.${item[1]}`);
  }
  return sections;
}

const DESIGN = 'docs/DESIGN.md';
const SPEC = 'docs/specification.md';
let docsCache = null;
function docs() {
  docsCache ??= { design: sectionsOf(join(ROOT, DESIGN)), spec: sectionsOf(join(ROOT, SPEC)) };
  return docsCache;
}

const NUMBER_LIST = String.raw`(\d+[a-z]?(?:\.\d+)*(?:(?:\s*,\s*|\s+and\s+|\s*-\s*|\s*\/\s*)\d+[a-z]?(?:\.\d+)*(?![\w]))*)`;
const DESIGN_REF = new RegExp(String.raw`\bDESIGN\.md(?:\s+sections?)?\s+` + NUMBER_LIST, 'g');
const SPEC_REF = new RegExp(String.raw`\b[Ss]pec(?:ification)?(?:'s)?(?:\s+sections?)?\s+` + NUMBER_LIST, 'g');
const MD_PATH = /(?<![\w./-])((?:\.{1,2}\/)*(?:[\w.-]+\/)*[\w.-]+\.md)\b/g;
const SPEC_PATH = /(?<![\w./-])spec\/[\w./-]*/g;
const OUTSIDE_NOTES = /\bCONTRACTS\s+[A-Z]\b/g;

function numbers(list) {
  return list.split(/\s*(?:,|\band\b|-|\/)\s*/).filter(Boolean);
}

/** Whether a cited `*.md` path is a file of the repository, read from the citing file's folder, the root or docs/. */
function mdExists(path, file) {
  const candidates = [resolve(dirname(file), path), resolve(ROOT, path)];
  if (!path.includes('/')) candidates.push(resolve(ROOT, 'docs', path));
  return candidates.some((candidate) => candidate.startsWith(ROOT + sep) && existsSync(candidate));
}

/** Problems with the citations in one text (a comment or a test title). */
export function citationProblems(text, file) {
  const problems = [];
  const { design, spec } = docs();
  for (const match of text.matchAll(MD_PATH)) {
    if (!mdExists(match[1], file)) problems.push(`cites ${match[1]}, which is not a file of this repository`);
  }
  for (const match of text.matchAll(SPEC_PATH)) {
    if (/\.md\b/.test(match[0])) continue; // said above
    if (!mdExists(match[0].replace(/[.]$/, ''), file)) problems.push(`cites ${match[0]}, which is not in this repository (the specification is ${SPEC})`);
  }
  for (const match of text.matchAll(DESIGN_REF)) {
    for (const n of numbers(match[1])) {
      if (!design.has(n)) problems.push(`cites DESIGN.md section ${n}, which ${DESIGN} does not have`);
    }
  }
  for (const match of text.matchAll(SPEC_REF)) {
    for (const n of numbers(match[1])) {
      if (!spec.has(n)) problems.push(`cites spec ${n}, which ${SPEC} does not have`);
    }
  }
  for (const match of text.matchAll(OUTSIDE_NOTES)) {
    problems.push(`cites ${match[0]}, notes kept outside this repository: cite a file of the repository or say the reason here`);
  }
  return problems;
}

const TEST_TITLE_CALLEES = /^(describe|it|test|bench)(\.\w+)*(\(\))?$/;

const docCitations = {
  meta: {
    type: 'problem',
    docs: { description: 'Comments and test titles cite only documents (and sections of them) that are in the repository' },
    schema: [],
    messages: { dangling: '{{problem}}.' },
  },
  create(context) {
    const file = context.filename;
    function checkText(text, loc) {
      for (const problem of citationProblems(text, file)) context.report({ loc, messageId: 'dangling', data: { problem } });
    }
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) checkText(comment.value, comment.loc);
      },
      CallExpression(node) {
        const title = node.arguments[0];
        if (!title || !TEST_TITLE_CALLEES.test(calleeName(node.callee))) return;
        if (title.type === 'Literal' && typeof title.value === 'string') checkText(title.value, title.loc);
        if (title.type === 'TemplateLiteral') for (const quasi of title.quasis) checkText(quasi.value.cooked ?? '', quasi.loc);
      },
    };
  },
};

export default {
  meta: { name: 'svc' },
  rules: { 'max-params': maxParams, 'doc-citations': docCitations },
};
