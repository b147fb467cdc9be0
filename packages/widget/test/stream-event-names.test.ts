// @vitest-environment node
import { SESSION_EVENT, TURN_EVENT } from '@svc/core/schemas';
import { expect, it } from 'vitest';
import { servedModule, streamEventNames } from '../stream-event-names.plugin.js';

/** What the widget's builds do to a module of the widget (the plugin's transform hook). */
function built(code: string, id = '/widget/src/reader.ts'): string {
  const { transform } = streamEventNames() as { transform: (code: string, id: string) => { code: string } | null };
  return transform(code, id)?.code ?? code;
}

it("the builds' @svc/core/schemas holds core's stream event names and nothing else (no zod schema)", async () => {
  const served: Record<string, unknown> = await import(`data:text/javascript,${encodeURIComponent(servedModule())}`);
  expect({ ...served }).toEqual({ SESSION_EVENT, TURN_EVENT });
});

it('writes each read of an event name as the name itself, wherever it is in the module', () => {
  const code = [
    "import { SESSION_EVENT, TURN_EVENT } from '@svc/core/schemas';",
    '// Text before it that is not ASCII (…, é) keeps the offsets right.',
    'if (event === TURN_EVENT.delta) show(data);',
    "const names: string[] = [SESSION_EVENT.messageCreated, 'TURN_EVENT.start'];",
  ].join('\n');
  expect(built(code)).toBe(
    [
      "import { SESSION_EVENT, TURN_EVENT } from '@svc/core/schemas';",
      '// Text before it that is not ASCII (…, é) keeps the offsets right.',
      `if (event === "${TURN_EVENT.delta}") show(data);`,
      `const names: string[] = ["${SESSION_EVENT.messageCreated}", 'TURN_EVENT.start'];`,
    ].join('\n'),
  );
});

it('leaves modules that do not import @svc/core/schemas as they are', () => {
  const code = 'const TURN_EVENT = { delta: "x" };\nexport const name = TURN_EVENT.delta;';
  expect(built(code)).toBe(code);
});
