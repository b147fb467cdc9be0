import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseSync, type Plugin } from 'vite';

const SCHEMAS = '@svc/core/schemas';
const SERVED = '\0svc-stream-event-names';
/** Core's stream protocol: the event names (plain constants), then a zod schema for every event. */
const STREAM_EVENTS = fileURLToPath(new URL('../core/src/schemas/stream-events.ts', import.meta.url));

type Node = { type: string; [key: string]: any };

/** Every `export const NAME = { key: 'text', … }` (`as const` or not) of a TypeScript module, as plain data. */
export function plainConstants(file: string): Record<string, Record<string, string>> {
  const { program, errors } = parseSync(file, readFileSync(file, 'utf8'), { lang: 'ts' });
  if (errors.length) throw new Error(`${file}: ${errors[0]!.message}`);
  const constants: Record<string, Record<string, string>> = {};
  for (const statement of program.body as Node[]) {
    if (statement.type !== 'ExportNamedDeclaration' || statement.declaration?.kind !== 'const') continue;
    for (const { id, init } of statement.declaration.declarations as Node[]) {
      const object: Node | undefined = init?.type === 'TSAsExpression' ? init.expression : init;
      const entries = object?.type === 'ObjectExpression' ? (object.properties as Node[]) : [];
      const plain = entries.every((entry) => entry.type === 'Property' && !entry.computed && typeof entry.value.value === 'string');
      if (entries.length && plain) constants[id.name] = Object.fromEntries(entries.map((entry) => [entry.key.name ?? entry.key.value, entry.value.value]));
    }
  }
  return constants;
}

/** The module the widget's builds get for `@svc/core/schemas`. */
export function servedModule(): string {
  return Object.entries(plainConstants(STREAM_EVENTS))
    .map(([name, value]) => `export const ${name} = ${JSON.stringify(value)};`)
    .join('\n');
}

/** Where each read of a constant's member (`TURN_EVENT.delta`) is in a module: its range and its value. */
function memberReads(program: Node, constants: Record<string, Record<string, string>>): [number, number, string][] {
  const found: [number, number, string][] = [];
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    const { type, object, property, computed } = node as Node;
    const value = type === 'MemberExpression' && !computed && object.type === 'Identifier' ? constants[object.name]?.[property.name] : undefined;
    if (value === undefined) Object.values(node).forEach(visit);
    else found.push([(node as Node).start, (node as Node).end, JSON.stringify(value)]);
  };
  visit(program);
  return found;
}

/**
 * The widget imports the stream event names (`TURN_EVENT`, `SESSION_EVENT`) from `@svc/core/schemas`, where they
 * sit beside the zod schemas of the same events. A bundler cannot tell that building a zod schema has no side
 * effects, so it would keep every schema and zod itself: 28 KB gzipped, more than the widget's whole budget. In the
 * widget's builds, `@svc/core/schemas` is the event names alone, read from core's source: a schema imported by
 * mistake fails the build (no such export) instead of growing it. Types come from the real module (tsc, tsup).
 * Each `TURN_EVENT.delta` is written as the name it stands for, as rolldown's `inlineConst` does for a plain
 * constant: no object of names ships (68 bytes gzipped of the 25 KB budget).
 */
export function streamEventNames(): Plugin {
  let constants: Record<string, Record<string, string>> | undefined;
  return {
    name: 'svc-stream-event-names',
    enforce: 'pre',
    resolveId: (id) => (id === SCHEMAS ? SERVED : null),
    load(id) {
      if (id !== SERVED) return null;
      this.addWatchFile(STREAM_EVENTS);
      return { code: servedModule(), moduleSideEffects: false };
    },
    transform(code, id) {
      if (!/\.tsx?$/.test(id) || !code.includes(SCHEMAS)) return null;
      const lang = id.endsWith('x') ? 'tsx' : 'ts';
      constants ??= plainConstants(STREAM_EVENTS);
      const reads = memberReads(parseSync(id, code, { lang }).program as Node, constants);
      // From the end, so the ranges still to replace keep their offsets.
      for (const [start, end, value] of reads.reverse()) code = code.slice(0, start) + value + code.slice(end);
      return { code, moduleType: lang };
    },
  };
}
