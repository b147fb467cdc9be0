import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeAccount, makeDocument } from '@svc/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, LOCK_FILE_NAME } from './data-dir-lock.js';
import { createPgliteStore, migrate } from './index.js';

let dataDir = '';

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'svc-pglite-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('createPgliteStore on a data directory', () => {
  // One test, because every PGlite start costs seconds.
  it('migrates on open, locks the directory while open, and keeps data across close and reopen', async () => {
    const account = makeAccount({ balance: 12.5 });
    const document = makeDocument({ knowledgeBaseId: 'kb_1', content: '# Shipping\n\nWe ship to Canada.' });

    const first = await createPgliteStore({ dataDir });
    try {
      expect(await migrate(first)).toEqual(['1_initial', '2_callbacks_and_identity', '3_turn_pipeline']);
      expect(await migrate(first)).toEqual([]);
      expect(await readFile(join(dataDir, LOCK_FILE_NAME), 'utf8')).toBe(`${process.pid}\n`);

      const second = createPgliteStore({ dataDir });
      await expect(second).rejects.toBeInstanceOf(DataDirInUseError);
      await expect(second).rejects.toThrow(`in use by process ${process.pid}`);

      await first.insertAccount(account);
      await first.insertDocument(document);
    } finally {
      await first.close();
    }
    await expect(readFile(join(dataDir, LOCK_FILE_NAME))).rejects.toThrow(/ENOENT/);

    const reopened = await createPgliteStore({ dataDir });
    try {
      expect(await migrate(reopened)).toEqual([]);
      expect(await reopened.getAccount(account.id)).toEqual(account);
      const hits = await reopened.searchKnowledge({ knowledgeBaseIds: ['kb_1'], text: 'shipping to Canada', limit: 3 });
      expect(hits.passages.map((hit) => hit.documentId)).toEqual([document.id]);
    } finally {
      await reopened.close();
    }
  });
});
