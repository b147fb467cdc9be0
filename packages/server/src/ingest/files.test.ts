import { deflateSync } from 'node:zlib';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { tinyPdf } from '../testing/help-centre-site.js';
import { extractFile, MAX_DOCUMENT_CHARS, splitDocument, UnsupportedFileError } from './files.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

async function pdfFile(pages: string[][], title?: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  if (title) pdf.setTitle(title);
  for (const lines of pages) {
    const page = pdf.addPage();
    lines.forEach((line, i) => page.drawText(line, { x: 50, y: 740 - i * 18, size: 12, font }));
  }
  return pdf.save();
}

async function docxFile(): Promise<Uint8Array> {
  const document = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Warranty handbook', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ text: 'Every tent carries a two-year warranty against manufacturing faults.' }),
          new Paragraph({ text: 'Claims', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: 'Send a photo of the fault and your order number to support.' }),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}

/** A real zip archive (one deflated file) that is not a Word document. */
function zipFile(): Uint8Array {
  const name = Buffer.from('photos/readme.txt');
  const data = deflateSync(Buffer.from('Holiday photos.'));
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(15, 22);
  local.writeUInt16LE(name.length, 26);
  return new Uint8Array(Buffer.concat([local, name, data]));
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);

describe('extractFile: documents (issue 22, files)', () => {
  it('reads the text of a real PDF, titled by its metadata', async () => {
    const bytes = await pdfFile([['Returns are accepted within 30 days.', 'Refunds take five working days.'], ['Exchanges are free of charge.']], 'Returns policy');
    const extracted = await extractFile(bytes, 'returns.pdf');
    expect(extracted).toEqual({
      kind: 'documents',
      format: 'pdf',
      documents: [{ title: 'Returns policy', content: 'Returns are accepted within 30 days.\nRefunds take five working days.\n\nExchanges are free of charge.' }],
    });
    // Without a Title the file's name is the title; the type comes from the bytes, whatever the name says.
    const untitled = await extractFile(await pdfFile([['Care instructions for down jackets.']]), 'care-guide.txt');
    expect(untitled).toMatchObject({ kind: 'documents', format: 'pdf', documents: [{ title: 'care-guide' }] });
    expect(await extractFile(tinyPdf({ title: 'Trail guide', lines: ['Pack water.'] }), 'guide.pdf')).toMatchObject({ documents: [{ title: 'Trail guide', content: 'Pack water.' }] });
  });

  it('reports a corrupt PDF as failed, not as an error', async () => {
    const corrupt = Buffer.from(await pdfFile([['Text that will be cut off.']])).subarray(0, 300);
    expect(await extractFile(corrupt, 'broken.pdf')).toMatchObject({ kind: 'failed', format: 'pdf', error: expect.stringMatching(/^unreadable PDF|no text/) });
    expect(await extractFile(utf8('%PDF-1.7\nnot a pdf at all'), 'fake.pdf')).toMatchObject({ kind: 'failed', format: 'pdf' });
  });

  it('reads a real DOCX with its headings as Markdown headings', async () => {
    expect(await extractFile(await docxFile(), 'handbook.docx')).toEqual({
      kind: 'documents',
      format: 'docx',
      documents: [
        {
          title: 'Warranty handbook',
          content: '# Warranty handbook\n\nEvery tent carries a two-year warranty against manufacturing faults.\n\n## Claims\n\nSend a photo of the fault and your order number to support.',
        },
      ],
    });
  });

  it('keeps the main content of an HTML page, without its chrome', async () => {
    const html = `<!doctype html><html><head><title>Sizing | Shop</title></head><body>
      <header>SITE-HEADER</header><nav><a href="/">Home</a> SITE-NAV</nav>
      <div id="cookie-notice">We use cookies. COOKIE-BANNER</div>
      <main><h1>Boot sizing</h1><p>Our boots run half a size small.</p><h2>Wide feet</h2><p>Choose the wide fit.</p></main>
      <aside>SIDEBAR</aside><footer>SITE-FOOTER</footer></body></html>`;
    expect(await extractFile(utf8(html), 'sizing.html')).toEqual({
      kind: 'documents',
      format: 'html',
      documents: [{ title: 'Boot sizing', content: '# Boot sizing\n\nOur boots run half a size small.\n\n## Wide feet\n\nChoose the wide fit.' }],
    });
  });

  it('keeps Markdown and plain text as they are; the name tells Markdown from text', async () => {
    const markdown = '# Stoves\n\nUse gas stoves outdoors only.\n\n## Fuel\n\nCanisters are sold separately.\n';
    expect(await extractFile(utf8(markdown), 'stoves.md')).toEqual({
      kind: 'documents',
      format: 'markdown',
      documents: [{ title: 'Stoves', content: markdown.trim() }],
    });
    expect(await extractFile(utf8('Opening hours: 9 to 5, Monday to Friday.\n'), 'hours.txt')).toEqual({
      kind: 'documents',
      format: 'text',
      documents: [{ title: 'hours', content: 'Opening hours: 9 to 5, Monday to Friday.' }],
    });
    expect(await extractFile(utf8('# not a heading in a .txt\nplain'), 'notes.txt')).toMatchObject({ format: 'text' });
    expect(await extractFile(utf8('\uFEFF# Café\n\nCrème brûlée.'), 'menu')).toMatchObject({ format: 'markdown', documents: [{ title: 'Café' }] });
    expect(await extractFile(utf8('   \n\n  '), 'empty.txt')).toEqual({ kind: 'failed', format: 'text', error: 'the file has no text to add' });
  });

  it('splits a long document at its headings into documents of at most 60,000 characters', async () => {
    const section = (n: number): string => `## Chapter ${n}\n\n${`Chapter ${n} explains one part of the trail guide in detail. `.repeat(400).trim()}`;
    const long = `# Trail guide\n\n${Array.from({ length: 6 }, (_, i) => section(i + 1)).join('\n\n')}`;
    expect(long.length).toBeGreaterThan(MAX_DOCUMENT_CHARS * 2);
    const extracted = await extractFile(utf8(long), 'trail-guide.md');
    if (extracted.kind !== 'documents') throw new Error('expected documents');
    expect(extracted.documents.length).toBeGreaterThanOrEqual(3);
    for (const document of extracted.documents) expect(document.content.length).toBeLessThanOrEqual(MAX_DOCUMENT_CHARS);
    expect(extracted.documents.map((d) => d.content).join('\n\n')).toBe(long);
    expect(extracted.documents[0]!.title).toBe('Trail guide');
    expect(extracted.documents[1]!.title).toMatch(/^Trail guide: Chapter \d$/);
    expect(extracted.documents[1]!.content.startsWith('## Chapter')).toBe(true);
    // One paragraph longer than a document is cut.
    const wall = splitDocument('Wall', 'x'.repeat(MAX_DOCUMENT_CHARS * 2 + 10));
    expect(wall.map((d) => d.content.length)).toEqual([MAX_DOCUMENT_CHARS, MAX_DOCUMENT_CHARS, 10]);
    expect(wall.map((d) => d.title)).toEqual(['Wall', 'Wall (part 2)', 'Wall (part 3)']);
  });
});

describe('extractFile: products', () => {
  it('reads a CSV of products with quoted fields', async () => {
    const csv = 'id,name,price,currency,description\ntent-2p,"Tent, two person",249.5,EUR,"Light ""trail"" tent"\nmat,Sleeping mat,39,EUR,\n';
    expect(await extractFile(utf8(csv), 'catalogue.csv')).toEqual({
      kind: 'products',
      format: 'csv',
      products: [
        { id: 'tent-2p', name: 'Tent, two person', price: 249.5, currency: 'EUR', description: 'Light "trail" tent' },
        { id: 'mat', name: 'Sleeping mat', price: 39, currency: 'EUR' },
      ],
    });
    expect(await extractFile(utf8('id;name;price\nstove;Camp stove;"24,90"\n'), 'export.csv')).toEqual({
      kind: 'products',
      format: 'csv',
      products: [{ id: 'stove', name: 'Camp stove', price: 24.9 }],
    });
  });

  it('names the row and field of a CSV that is not products', async () => {
    expect(await extractFile(utf8('id,name,price\ntent,Tent,free\n'), 'catalogue.csv')).toEqual({ kind: 'failed', format: 'csv', error: 'row 2, price: price must be a number' });
    expect(await extractFile(utf8('id,name,price\ntent,Tent,10\n,Mat,5\n'), 'catalogue.csv')).toEqual({ kind: 'failed', format: 'csv', error: 'row 3, id: id must be a string' });
    expect(await extractFile(utf8('date,visits\n2026-01-01,30\n'), 'stats.csv')).toMatchObject({ kind: 'failed', format: 'csv', error: expect.stringMatching(/missing: id, name, price/) });
    expect(await extractFile(utf8('id,name,price\n"tent,Tent,10\n'), 'broken.csv')).toMatchObject({ kind: 'failed', format: 'csv', error: expect.stringMatching(/^not valid CSV/) });
  });

  it('reads JSON products as an array or { products }, and names what is wrong otherwise', async () => {
    const products = [{ id: 'boot', name: 'Hiking boot', price: 129, url: 'https://shop.example/boot' }];
    expect(await extractFile(utf8(JSON.stringify(products)), 'p.json')).toEqual({ kind: 'products', format: 'json', products });
    expect(await extractFile(utf8(JSON.stringify({ products })), 'p.json')).toEqual({ kind: 'products', format: 'json', products });
    expect(await extractFile(utf8(JSON.stringify({ products: [...products, { id: 'x', name: 'X', price: -1 }] })), 'p.json')).toEqual({
      kind: 'failed',
      format: 'json',
      error: 'products[1], price: price must not be negative',
    });
    expect(await extractFile(utf8('{"title": "not products"}'), 'doc.json')).toMatchObject({ kind: 'failed', format: 'json', error: expect.stringMatching(/array of products/) });
    expect(await extractFile(utf8('{"products": [}'), 'p.json')).toMatchObject({ kind: 'failed', format: 'json', error: expect.stringMatching(/^not valid JSON/) });
  });
});

describe('extractFile refuses what it cannot read', () => {
  it.each([
    ['a PNG image', PNG, 'photo.png'],
    ['a PNG named like a text file', PNG, 'notes.txt'],
    ['a zip that is not a Word document', zipFile(), 'photos.zip'],
    ['a zip named .docx', zipFile(), 'report.docx'],
    ['invalid UTF-8', new Uint8Array([0x48, 0x69, 0xc3, 0x28, 0x0a]), 'latin.txt'],
  ])('%s', async (_what, bytes, name) => {
    const refusal = await extractFile(bytes, name).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(UnsupportedFileError);
    expect(refusal).toMatchObject({ code: 'unsupported_media_type', status: 415, field: 'file' });
  });
});
