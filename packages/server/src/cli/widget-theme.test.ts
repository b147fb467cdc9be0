import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createHarness } from '../testing/harness.js';
import { runAdmin, type Values } from './commands.js';
import { operatorAdmin } from './operator-admin.js';
import { ANY_ACCOUNT } from '@svc/core';

const THEME = {
  primaryColor: '#0f766e',
  title: 'Northwind help',
  subtitle: 'Replies in a minute',
  avatarUrl: 'https://cdn.example/avatar.png',
  darkMode: 'auto',
  position: 'bottom-left',
  launcherIcon: 'https://cdn.example/chat.svg',
};

describe('svc widgets set-theme (issue 12)', () => {
  it('stores the theme from a JSON file and /widget/config returns it to the widget', async () => {
    const { runtime, store, widget } = await createHarness();
    const dir = await mkdtemp(join(tmpdir(), 'svc-theme-'));
    try {
      const file = join(dir, 'theme.json');
      await writeFile(file, JSON.stringify(THEME));
      const out = await runAdmin('widgets set-theme', { widget: widget.id, file } as Values, store, loadConfig({}));
      expect(out.json).toEqual({ id: widget.id, theme: THEME });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const { key } = await operatorAdmin(store).createPublicKey(ANY_ACCOUNT, { widgetId: widget.id, origins: ['https://shop.example'] });
    const res = await runtime.app.request('/widget/config', { headers: { 'X-API-Key': key, Origin: 'https://shop.example' } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { theme: unknown } }).data.theme).toEqual(THEME);
  });

  it('refuses a bad theme with a 4xx-style error naming the field, and changes nothing', async () => {
    const { store, widget } = await createHarness();
    const cases: [unknown, string][] = [
      [{ primaryColor: 'teal' }, 'theme.primaryColor'],
      [{ darkMode: 'night' }, 'theme.darkMode'],
      [{ avatarUrl: 'javascript:alert(1)' }, 'theme.avatarUrl'],
      [{ launcherIcon: 'ftp://cdn.example/x.png' }, 'theme.launcherIcon'],
      [{ title: 'x'.repeat(81) }, 'theme.title'],
      [{ colour: '#000000' }, 'theme.colour'],
      ['dark', 'theme'],
    ];
    for (const [theme, field] of cases) {
      await expect(operatorAdmin(store).setWidgetTheme(ANY_ACCOUNT, widget.id, theme), JSON.stringify(theme)).rejects.toMatchObject({ code: 'validation_failed', field });
    }
    expect((await store.getWidget(widget.id))!.theme).toEqual({});
    await expect(operatorAdmin(store).setWidgetTheme(ANY_ACCOUNT, 'wgt_nope', {})).rejects.toMatchObject({ code: 'validation_failed', field: 'widget' });
  });
});
