import { connect } from 'node:net';
import { Document, Packer, Paragraph } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../node-server.js';
import { createHarness, type Harness } from '../testing/harness.js';

/**
 * `POST /knowledge-bases/{kbId}/files` (DESIGN.md section 11 "Sources") over a real socket: real PDF, DOCX,
 * Markdown and CSV files become `file` sources the AI answers from; the wrong types, sizes and bodies are refused
 * with the status and field a client can act on.
 */

let h: Harness;
let server: RunningServer;
let writeKey: string;
let kbId: string;

beforeAll(async () => {
  h = await createHarness();
  server = await listen(h.runtime, { port: 0, host: '127.0.0.1' });
  writeKey = await h.newKey(['knowledge:write']);
  kbId = (await h.post('/knowledge-bases', { name: 'Uploads' }, { key: writeKey })).body.data.id;
});
afterAll(async () => {
  await server.close();
});

async function pdf(lines: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 20, size: 12, font }));
  doc.setTitle('Returns policy');
  return doc.save();
}

async function docx(paragraphs: string[]): Promise<Uint8Array> {
  const doc = new Document({ sections: [{ children: paragraphs.map((text) => new Paragraph({ text })) }] });
  return new Uint8Array(await Packer.toBuffer(doc));
}

interface Sent {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the envelope's fields
  body: any;
}

async function upload(file: { bytes: Uint8Array | string; name: string; field?: string }, options: { key?: string; kb?: string; headers?: Record<string, string> } = {}): Promise<Sent> {
  const form = new FormData();
  form.append(file.field ?? 'file', new Blob([typeof file.bytes === 'string' ? file.bytes : new Uint8Array(file.bytes)]), file.name);
  return send(`/knowledge-bases/${options.kb ?? kbId}/files`, { method: 'POST', body: form, headers: { 'X-API-Key': options.key ?? writeKey, ...options.headers } });
}

async function send(path: string, init: RequestInit): Promise<Sent> {
  const res = await fetch(`${server.url}${path}`, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

const search = async (query: string) =>
  (await h.post(`/knowledge-bases/${kbId}/search`, { query }, { key: writeKey })).body.data.passages as Array<{ title: string; content: string; documentId: string }>;

describe('uploading files', () => {
  it('a PDF becomes a ready file source (201, Location) whose text the search finds', async () => {
    const res = await upload({ bytes: await pdf(['Returns are free within 60 days of delivery.', 'Bring the receipt to any Northwind store.']), name: 'returns.pdf' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ type: 'file', fileName: 'returns.pdf', status: 'ready', url: null, knowledgeBaseId: kbId });
    expect(res.body.data.documents).toBeGreaterThanOrEqual(1);
    expect(res.body.meta).toEqual({ creditsConsumed: 0 });
    expect(res.headers.get('location')).toBe(`files/${res.body.data.id}`);
    const hits = await search('free returns within 60 days');
    expect(hits.some((hit) => hit.content.includes('60 days'))).toBe(true);
    const documents = (await h.get(`/knowledge-bases/${kbId}/documents`, { key: writeKey })).body.data as Array<{ sourceId: string | null }>;
    expect(documents.some((doc) => doc.sourceId === res.body.data.id)).toBe(true);
  });

  it('a DOCX, a Markdown file and a CSV of products are read too', async () => {
    const word = await upload({ bytes: await docx(['Warranty', 'Every Northwind kayak carries a five year warranty on its hull.']), name: 'warranty.docx' });
    expect(word.status).toBe(201);
    expect(word.body.data).toMatchObject({ status: 'ready', fileName: 'warranty.docx' });
    expect((await search('kayak hull warranty')).some((hit) => hit.content.includes('five year warranty'))).toBe(true);

    const markdown = await upload({ bytes: '# Gift wrapping\n\nWe gift wrap any order for 3 euros.\n', name: 'gifts.md' });
    expect(markdown.status).toBe(201);
    expect(markdown.body.data.status).toBe('ready');

    const csv = await upload({ bytes: 'id,name,price,currency,description\nstove-1,Camp Stove,59,EUR,A compact gas stove\n', name: 'products.csv' });
    expect(csv.status).toBe(201);
    expect(csv.body.data.status).toBe('ready');
    const products = (await h.get(`/knowledge-bases/${kbId}/products`, { key: writeKey })).body.data as Array<{ id: string }>;
    expect(products.map((p) => p.id)).toContain('stove-1');
  });

  it('a damaged PDF is a failed source saying why, never a 500', async () => {
    const res = await upload({ bytes: '%PDF-1.7\n1 0 obj <<< this is not a pdf at all', name: 'broken.pdf' });
    expect(res.status).toBe(201);
    expect(res.body.data.status).toBe('failed');
    expect(res.body.data.lastSync.error).toEqual(expect.any(String));
    expect(res.body.data.documents).toBe(0);
  });

  it('refuses bytes of no supported type (415), a body that is not multipart (415) and a form without `file` (400 naming it)', async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 1, 2, 3, 0xff, 0xfe, 0, 0]);
    const binary = await upload({ bytes: png, name: 'notes.txt' });
    expect(binary.status).toBe(415);
    expect(binary.body.error.code).toBe('unsupported_media_type');

    const json = await send(`/knowledge-bases/${kbId}/files`, {
      method: 'POST',
      headers: { 'X-API-Key': writeKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ file: 'hello' }),
    });
    expect(json.status).toBe(415);
    expect(json.body.error.code).toBe('unsupported_media_type');

    const wrongField = await upload({ bytes: 'hello', name: 'a.txt', field: 'document' });
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.error).toMatchObject({ code: 'validation_failed', field: 'file' });

    const text = new FormData();
    text.append('file', 'just a string, not a file');
    const notAFile = await send(`/knowledge-bases/${kbId}/files`, { method: 'POST', body: text, headers: { 'X-API-Key': writeKey } });
    expect(notAFile.status).toBe(400);
    expect(notAFile.body.error.field).toBe('file');
  });

  it('another account never reaches the knowledge base (404); a read-only key may not upload (403)', async () => {
    const other = await h.admin.createAccount({ name: 'Other', credits: 100 });
    const otherKey = await h.newKey(['knowledge:write'], other.id);
    const foreign = await upload({ bytes: 'hello', name: 'a.txt' }, { key: otherKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('knowledge_base_not_found');

    const readOnly = await upload({ bytes: 'hello', name: 'a.txt' }, { key: await h.newKey(['knowledge:read']) });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error.code).toBe('insufficient_scope');
  });

  it('an Idempotency-Key replays the first upload, though the retry has a new multipart boundary', async () => {
    const file = { bytes: '# Opening hours\n\nOpen 9 to 18 every day.\n', name: 'hours.md' };
    const first = await upload(file, { headers: { 'Idempotency-Key': 'upload-hours-1' } });
    const again = await upload(file, { headers: { 'Idempotency-Key': 'upload-hours-1' } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    const other = await upload({ ...file, bytes: `${file.bytes}Closed on holidays.\n` }, { headers: { 'Idempotency-Key': 'upload-hours-1' } });
    expect(other.status).toBe(422);
  });
});

describe('the admin API upload (the console)', () => {
  it('adds a file to the account\'s own knowledge base (201) and refuses another account\'s (404, whatever the body)', async () => {
    const adminKey = await h.newKey(['admin']);
    const form = () => {
      const body = new FormData();
      body.append('file', new Blob(['# Repairs\n\nWe repair tents for free in the first year.\n']), 'repairs.md');
      return body;
    };
    const own = await send(`/admin/v1/knowledge-bases/${kbId}/files`, { method: 'POST', body: form(), headers: { 'X-API-Key': adminKey } });
    expect(own.status).toBe(201);
    expect(own.body.data).toMatchObject({ type: 'file', fileName: 'repairs.md', status: 'ready', documents: 1 });
    const listed = await send(`/admin/v1/knowledge-bases/${kbId}/sources`, { headers: { 'X-API-Key': adminKey } });
    expect(listed.body.data.map((source: { id: string }) => source.id)).toContain(own.body.data.id);

    const other = await h.admin.createAccount({ name: 'Elsewhere', credits: 10 });
    const otherAdmin = await h.newKey(['admin'], other.id);
    for (const init of [{ body: form() }, { body: 'not multipart', headers: { 'Content-Type': 'text/plain' } }]) {
      const res = await send(`/admin/v1/knowledge-bases/${kbId}/files`, { method: 'POST', ...init, headers: { ...init.headers, 'X-API-Key': otherAdmin } });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('knowledge_base_not_found');
    }
  });
});

describe('a file over 20 MB', () => {
  it('is refused with 413 before its body is read whole', async () => {
    const socket = connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const boundary = 'svc-test-boundary';
    const size = 21 * 1024 * 1024;
    socket.write(
      [
        `POST /knowledge-bases/${kbId}/files HTTP/1.1`,
        'Host: 127.0.0.1',
        `X-API-Key: ${writeKey}`,
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        `Content-Length: ${size}`,
        '',
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
      ].join('\r\n'),
    );
    // One megabyte of the twenty-one, then nothing: the answer must come without the rest.
    socket.write('x'.repeat(1024 * 1024));
    const answer = await new Promise<string>((resolve, reject) => {
      let seen = '';
      socket.on('data', (chunk: Buffer) => {
        seen += chunk.toString('utf8');
        if (seen.includes('\r\n\r\n') && seen.includes('}')) resolve(seen);
      });
      socket.once('error', reject);
      setTimeout(() => reject(new Error(`no answer; got ${JSON.stringify(seen)}`)), 5_000);
    });
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"payload_too_large"');
  });

  it('is refused (413) when the file alone is one byte over, though the body with its framing fits the cap', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(20 * 1024 * 1024 + 1).fill(0x61)]), 'big.txt');
    const res = await send(`/knowledge-bases/${kbId}/files`, { method: 'POST', body: form, headers: { 'X-API-Key': writeKey } });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
  });
});
