import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, createRuntime, listen, operatorAdmin, type RunningServer } from '@svc/server';
import { createMemoryStore } from '@svc/core';
import { ROOT, run, runAsync } from './support.js';

/** The packages users install from the registry, packed by plain npm (which runs their `prepack` build). */
const PUBLISHED = ['core', 'callbacks', 'client', 'agents', 'store-postgres', 'server', 'widget'];
const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);

describe('npm-packed packages', () => {
  const work = mkdtempSync(join(tmpdir(), 'svc-npm-'));
  const tarballs = new Map<string, string>();

  beforeAll(() => {
    for (const name of PUBLISHED) {
      const dir = join(ROOT, 'packages', name);
      // From a clean tree, as in a fresh clone: prepack must build dist/ itself (regression: tarballs had no dist).
      rmSync(join(dir, 'dist'), { recursive: true, force: true });
      run('npm', ['pack', '--pack-destination', work], { cwd: dir });
      const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
      tarballs.set(name, join(work, `svc-${name}-${version}.tgz`));
    }
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('hold dist, LICENSE, README and a package.json npm can install (no workspace: ranges)', () => {
    for (const [name, tarball] of tarballs) {
      const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
      expect(files, name).toEqual(expect.arrayContaining(['package/LICENSE', 'package/README.md', 'package/package.json', 'package/dist/index.js', 'package/dist/index.cjs']));
      expect(files.some((f) => f.startsWith('package/src/')), name).toBe(false);
      const manifest = execFileSync('tar', ['xzf', tarball, '-O', 'package/package.json'], { encoding: 'utf8' });
      const pkg = JSON.parse(manifest) as Record<string, unknown>;
      // What npm installs for a user (devDependencies are not): real ranges, never pnpm's workspace: protocol.
      for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
        expect(JSON.stringify(pkg[field] ?? {}), `${name} ${field}`).not.toContain('workspace:');
      }
      expect(pkg, name).toMatchObject({ license: 'MIT', repository: expect.any(Object), homepage: expect.stringMatching(/^https:\/\//), bugs: expect.any(Object) });
      // Relative links break on the registry's page.
      const readme = execFileSync('tar', ['xzf', tarball, '-O', 'package/README.md'], { encoding: 'utf8' });
      expect(readme.match(/\]\((?!https?:|#)[^)]+\)/g) ?? [], name).toEqual([]);
    }
    const server = JSON.parse(execFileSync('tar', ['xzf', tarballs.get('server')!, '-O', 'package/package.json'], { encoding: 'utf8' }));
    expect(server.bin).toEqual({ svc: './dist/cli.js' });
    expect(execFileSync('tar', ['xzf', tarballs.get('server')!, '-O', 'package/dist/cli.js'], { encoding: 'utf8' })).toMatch(/^#!\/usr\/bin\/env node\n/);
    // The client uses @svc/core for types and one schema, bundled: no runtime dependency on it.
    const client = JSON.parse(execFileSync('tar', ['xzf', tarballs.get('client')!, '-O', 'package/package.json'], { encoding: 'utf8' }));
    expect(Object.keys(client.dependencies)).not.toContain('@svc/core');
  });

  it('ship the console (the server depends on it) as its built pages and hashed assets only, with nothing to install', () => {
    const dir = join(ROOT, 'packages/console');
    rmSync(join(dir, 'dist'), { recursive: true, force: true });
    run('npm', ['pack', '--pack-destination', work], { cwd: dir });
    const tarball = join(work, 'svc-console-0.1.0.tgz');
    const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(files).toEqual(expect.arrayContaining(['package/LICENSE', 'package/README.md', 'package/dist/index.html', 'package/dist/preview.html']));
    expect(files.some((f) => f.startsWith('package/src/'))).toBe(false);
    // The page names its assets; each is in the tarball.
    const page = execFileSync('tar', ['xzf', tarball, '-O', 'package/dist/index.html'], { encoding: 'utf8' });
    const assets = [...page.matchAll(/"\/console\/(assets\/[^"]+)"/g)].map((match) => `package/dist/${match[1]}`);
    expect(assets.length).toBeGreaterThan(0);
    expect(files).toEqual(expect.arrayContaining(assets));
    const pkg = JSON.parse(execFileSync('tar', ['xzf', tarball, '-O', 'package/package.json'], { encoding: 'utf8' }));
    expect(pkg.dependencies ?? {}).toEqual({});
    const server = JSON.parse(execFileSync('tar', ['xzf', tarballs.get('server')!, '-O', 'package/package.json'], { encoding: 'utf8' }));
    expect(server.dependencies['@svc/console']).toBe(`^${pkg.version}`);
  });

  it('ship the widget script with the panel chunk it names, and declarations for the module (regression: exports pointed at src/)', () => {
    const tarball = tarballs.get('widget')!;
    const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(files).toEqual(expect.arrayContaining(['package/dist/widget.js', 'package/dist/index.d.ts', 'package/dist/index.d.cts']));
    // The loader imports the panel by the content-hashed name written into it, from widget-assets/ next to itself
    // (where the server, and anyone serving the package's files, finds it).
    const loader = execFileSync('tar', ['xzf', tarball, '-O', 'package/dist/widget.js'], { encoding: 'utf8' });
    const panel = /panel\.[\w-]+\.js/.exec(loader)?.[0];
    expect(panel).toBeDefined();
    expect(files).toContain(`package/dist/widget-assets/${panel}`);
    const pkg = JSON.parse(execFileSync('tar', ['xzf', tarball, '-O', 'package/package.json'], { encoding: 'utf8' }));
    expect(pkg.exports['./widget.js']).toBe('./dist/widget.js');
    expect(Object.keys(pkg.dependencies)).toEqual(['preact']);
  });

  it('pass publint and Are The Types Wrong (node16 and bundler resolution, ESM and CommonJS)', () => {
    for (const [name, tarball] of tarballs) {
      const lint = run(bin('publint'), ['run', tarball, '--strict']);
      expect(lint, name).toContain('All good!');
      // The node16 profile: Node 20's resolution from ESM and CommonJS, and bundlers (not node10, which predates `exports`).
      // The widget's module is ESM and CommonJS with types like the others; its `./widget.js` is the classic script
      // (an IIFE defining the global `Svc`) that pages load with a script tag, never a module to import, so it has
      // no declarations of its own (its `SvcApi` type comes from the module) and is left out of the check.
      const skip = name === 'widget' ? ['--exclude-entrypoints', './widget.js'] : [];
      run(bin('attw'), [tarball, '--profile', 'node16', '--format', 'ascii', ...skip]);
    }
  });

  describe('the widget module, installed from its tarball into a fresh project', () => {
    const app = join(work, 'widget-app');
    const commands = ['bubble', 'chatbox', 'consent', 'identify', 'reset', 'setIdentityTokenProvider'];

    beforeAll(() => {
      mkdirSync(app, { recursive: true });
      writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'widget-consumer', private: true, version: '1.0.0' }));
      // preact comes from the registry, as for any user.
      run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarballs.get('widget')!], { cwd: app });
    });

    it('loads from ESM and CommonJS, each with the panel chunk its entry imports on the first open', async () => {
      const dist = join(app, 'node_modules/@svc/widget/dist');
      const check = (load: string, panelPath: string) => `${load}
  .then(async (widget) => {
    const panel = await ${panelPath};
    console.log(JSON.stringify({ commands: Object.keys(widget).sort(), panel: typeof panel.createInstance }));
  })
  .catch((error) => { console.error(error); process.exit(1); });
`;
      // The panel chunk as each entry names it (the user's bundler follows the same import).
      const esmPanel = /import\("(\.\/module\/panel\.[\w-]+\.js)"\)/.exec(readFileSync(join(dist, 'index.js'), 'utf8'))?.[1];
      const cjsPanel = /require\("(\.\/module\/panel\.[\w-]+\.cjs)"\)/.exec(readFileSync(join(dist, 'index.cjs'), 'utf8'))?.[1];
      expect(esmPanel).toBeDefined();
      expect(cjsPanel).toBeDefined();
      writeFileSync(join(app, 'esm.mjs'), check("import('@svc/widget')", `import(${JSON.stringify(join(dist, esmPanel!))})`));
      writeFileSync(join(app, 'cjs.cjs'), check("Promise.resolve(require('@svc/widget'))", `require(${JSON.stringify(join(dist, cjsPanel!))})`));
      for (const file of ['esm.mjs', 'cjs.cjs']) {
        const out = JSON.parse(await runAsync(process.execPath, [file], { cwd: app }));
        expect(out, file).toEqual({ commands, panel: 'function' });
      }
    });

    it('typechecks with TypeScript (bundler, node16 ESM, node16 CommonJS)', () => {
      const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
      const source = `import { bubble, identify, type BubbleConfig, type BubbleInstance } from '@svc/widget';
const config: BubbleConfig = { apiKey: 'pk_live_example', apiBase: 'https://chat.example.com', position: 'bottom-left' };
identify({ name: 'Ada' });
export const instance: BubbleInstance = bubble(config);
// @ts-expect-error: the position is one of two corners.
export const wrong: BubbleConfig = { position: 'top-left' };
`;
      for (const v of [
        { dir: 'ts-bundler', type: 'module', module: 'preserve', resolution: 'bundler' },
        { dir: 'ts-node16-esm', type: 'module', module: 'node16', resolution: 'node16' },
        { dir: 'ts-node16-cjs', type: 'commonjs', module: 'node16', resolution: 'node16' },
      ]) {
        const dir = join(app, v.dir);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: v.type }));
        writeFileSync(join(dir, 'index.ts'), source);
        writeFileSync(
          join(dir, 'tsconfig.json'),
          JSON.stringify({
            compilerOptions: { module: v.module, moduleResolution: v.resolution, target: 'es2022', strict: true, types: [], lib: ['es2022', 'dom'], noEmit: true, skipLibCheck: false },
            files: ['index.ts'],
          }),
        );
        run(process.execPath, [tsc, '-p', dir], { cwd: dir });
      }
    });
  });

  describe('the client, installed from its tarball into a fresh project', () => {
    let server: RunningServer;
    let env: Record<string, string>;
    const app = join(work, 'app');

    beforeAll(async () => {
      const store = createMemoryStore();
      const runtime = await createRuntime({
        config: { cursorSecret: 'packaging-test-cursor-secret-0123', syncTimeoutMs: 25_000, agentTimeoutMs: 60_000 },
        store,
        logger: createLogger('silent'),
      });
      server = await listen(runtime, { port: 0, host: '127.0.0.1' });
      const admin = operatorAdmin(store);
      const account = await admin.createAccount({ name: 'Npm', credits: 100 });
      const widget = await admin.createWidget({ accountId: account.id, name: 'Npm Assistant', knowledgeBaseIds: [] });
      const { key } = await admin.createApiKey({ accountId: account.id, scopes: ['conversations:chat'] });
      env = { SVC_URL: server.url, SVC_KEY: key, SVC_WIDGET: widget.id };

      mkdirSync(app, { recursive: true });
      writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, version: '1.0.0' }));
      run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarballs.get('client')!], { cwd: app });
    });
    afterAll(() => server?.close());

    const conversation = (importLine: string) => `${importLine}
const svc = createClient({ baseUrl: process.env.SVC_URL, apiKey: process.env.SVC_KEY });
async function main() {
  const { data: session } = await svc.sessions.create(process.env.SVC_WIDGET, { visitorId: 'npm-visitor' });
  const res = await svc.messages.send(process.env.SVC_WIDGET, session.sessionId, { content: 'Hello' });
  console.log(JSON.stringify({ sessionId: session.sessionId, reply: res.status === 200 && res.data.content.length > 0 }));
}
main().catch((error) => { console.error(error); process.exit(1); });
`;

    it('runs a conversation from ESM and from CommonJS', async () => {
      writeFileSync(join(app, 'esm.mjs'), conversation("import { createClient } from '@svc/client';"));
      writeFileSync(join(app, 'cjs.cjs'), conversation("const { createClient } = require('@svc/client');"));
      for (const file of ['esm.mjs', 'cjs.cjs']) {
        const out = JSON.parse(await runAsync(process.execPath, [file], { cwd: app, env }));
        expect(out, file).toEqual({ sessionId: expect.stringMatching(/^sess_/), reply: true });
      }
    });

    it('typechecks with TypeScript (bundler, node16 ESM, node16 CommonJS) and the compiled code runs', async () => {
      const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
      const source = `${conversation("import { createClient, type Session } from '@svc/client';")}
export const typed: (s: Session) => string = (s) => s.sessionId;
`;
      const variants = [
        { dir: 'ts-bundler', type: 'module', module: 'preserve', resolution: 'bundler', run: false },
        { dir: 'ts-node16-esm', type: 'module', module: 'node16', resolution: 'node16', run: true },
        { dir: 'ts-node16-cjs', type: 'commonjs', module: 'node16', resolution: 'node16', run: true },
      ];
      for (const v of variants) {
        const dir = join(app, v.dir);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: v.type }));
        writeFileSync(join(dir, 'index.ts'), source.replace(/process\.env\.(\w+)/g, 'process.env.$1!'));
        writeFileSync(
          join(dir, 'tsconfig.json'),
          JSON.stringify({
            compilerOptions: { module: v.module, moduleResolution: v.resolution, target: 'es2022', strict: true, types: [], lib: ['es2022', 'dom'], outDir: 'out', skipLibCheck: false, noEmit: !v.run },
            files: ['index.ts', 'env.d.ts'],
          }),
        );
        writeFileSync(join(dir, 'env.d.ts'), 'declare const process: { env: Record<string, string | undefined>; exit(code: number): never };\n');
        run(process.execPath, [tsc, '-p', dir], { cwd: dir });
        if (v.run) {
          const out = JSON.parse(await runAsync(process.execPath, [join(dir, 'out/index.js')], { cwd: dir, env }));
          expect(out, v.dir).toEqual({ sessionId: expect.stringMatching(/^sess_/), reply: true });
        }
      }
      expect(readFileSync(join(app, 'ts-node16-cjs/out/index.js'), 'utf8')).toContain('require("@svc/client")');
    });
  });
});
