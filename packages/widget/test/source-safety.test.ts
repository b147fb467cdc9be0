// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Regression guards for the rules the widget is built on (DESIGN.md 7): it runs inside other people's pages. */
describe('widget sources', () => {
  const files = sources(src).map((path) => ({ name: relative(src, path), text: readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '') }));

  it('never turn strings into markup or code', () => {
    for (const { name, text } of files) {
      expect(text, name).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|dangerouslySetInnerHTML|document\.write|\beval\(|new Function\(/);
    }
  });

  it('never use postMessage, so no message listener can be fooled', () => {
    for (const { name, text } of files) expect(text, name).not.toMatch(/postMessage|addEventListener\(\s*['"]message['"]/);
  });

  it('touch browser storage only in storage.ts, which holds no token', () => {
    for (const { name, text } of files) {
      if (name !== 'storage.ts') expect(text, name).not.toMatch(/localStorage|sessionStorage|document\.cookie/);
    }
    expect(files.find((file) => file.name === 'storage.ts')!.text).not.toMatch(/token/i);
  });

  it('have no TODOs or stubs', () => {
    for (const { name, text } of sources(src).map((path) => ({ name: relative(src, path), text: readFileSync(path, 'utf8') }))) {
      expect(text, name).not.toMatch(/TODO|FIXME|XXX|not implemented/i);
    }
  });
});
