import { SvcError } from '@svc/core';
import { productSchema } from '@svc/core/schemas';
import { parse as parseCsv } from 'csv-parse/sync';
import { parseHTML } from 'linkedom';
import mammoth from 'mammoth';
import { blockText, extractHtml } from './html.js';
import { extractPdf } from './pdf.js';
import type { ExtractedFile } from '@svc/core';

/** The most a knowledge document holds (documentRequestSchema); longer files become several documents. */
export const MAX_DOCUMENT_CHARS = 60_000;

/** The bytes are none of the formats an upload may be (415 `unsupported_media_type`). */
export class UnsupportedFileError extends SvcError {
  constructor(message: string) {
    super('unsupported_media_type', message, { field: 'file' });
  }
}

const SUPPORTED = 'Upload a PDF, DOCX, HTML, Markdown or plain text file, or a CSV or JSON file of products.';

type Sniffed = 'pdf' | 'docx' | 'html' | 'markdown' | 'text' | 'csv' | 'json';

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot === -1 ? '' : name.slice(dot + 1).toLowerCase();
}

function baseName(name: string): string {
  const file = name.split(/[\\/]/).pop() ?? name;
  const dot = file.lastIndexOf('.');
  return (dot > 0 ? file.slice(0, dot) : file).trim() || 'Untitled';
}

function startsWith(bytes: Uint8Array, signature: number[]): boolean {
  return signature.every((byte, i) => bytes[i] === byte);
}

/** UTF-8 (or UTF-16 with a byte order mark) text, or null for anything that is not text. */
function decodeText(bytes: Uint8Array): string | null {
  let text: string;
  try {
    if (startsWith(bytes, [0xff, 0xfe])) text = new TextDecoder('utf-16le', { fatal: true }).decode(bytes.subarray(2));
    else if (startsWith(bytes, [0xfe, 0xff])) text = new TextDecoder('utf-16be', { fatal: true }).decode(bytes.subarray(2));
    else text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
  // Control characters other than tab, line feed, form feed and carriage return mean a binary format.
  if (/[\u0000-\u0008\u000e-\u001f\u007f]/.test(text.slice(0, 65_536))) return null;
  return text.replace(/^\uFEFF/, '');
}

const PRODUCT_COLUMNS = ['id', 'name', 'price'];

/** The first record's cells, as a CSV parser would split them (quotes respected), when the line has at least two. */
function csvHeader(text: string): string[] | null {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  for (const delimiter of [',', ';', '\t']) {
    if (!firstLine.includes(delimiter)) continue;
    try {
      const [cells] = parseCsv(firstLine, { delimiter, relax_quotes: true }) as string[][];
      if (cells && cells.length >= 2) return cells.map((cell) => cell.trim().toLowerCase());
    } catch {
      return null;
    }
  }
  return null;
}

function looksLikeHtml(text: string): boolean {
  const head = text.slice(0, 2048).trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') || /<(html|head|body)[\s>]/.test(head);
}

/** The format of an upload, from its bytes; the name only breaks ties (Markdown or text, CSV or text). */
function sniff(bytes: Uint8Array, name: string): { format: Sniffed; text: string | null } {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (head.includes('%PDF-')) return { format: 'pdf', text: null };
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    // An Office Open XML word-processing document is a zip holding word/document.xml (names are stored as is).
    if (Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes('word/document.xml')) return { format: 'docx', text: null };
    throw new UnsupportedFileError(`This zip archive is not a Word document (.docx). ${SUPPORTED}`);
  }
  const text = decodeText(bytes);
  if (text === null) throw new UnsupportedFileError(`The file is neither text (UTF-8) nor a PDF or a Word document. ${SUPPORTED}`);
  const extension = extensionOf(name);
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let json = true;
    try {
      JSON.parse(text);
    } catch {
      json = false;
    }
    if (json || extension === 'json') return { format: 'json', text };
  }
  if (looksLikeHtml(text) || ((extension === 'html' || extension === 'htm') && /<[a-z][\s\S]*>/i.test(text))) return { format: 'html', text };
  const header = csvHeader(text);
  if (header && (extension === 'csv' || (extension !== 'txt' && extension !== 'md' && PRODUCT_COLUMNS.every((c) => header.includes(c))))) {
    return { format: 'csv', text };
  }
  if (extension === 'md' || extension === 'markdown' || (extension !== 'txt' && /^#{1,6}[ \t]+\S/m.test(text))) return { format: 'markdown', text };
  return { format: 'text', text };
}

const ATX = /^\s{0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;

/** Splits `content` at its headings into pieces of at most MAX_DOCUMENT_CHARS, each titled by where it starts. */
export function splitDocument(title: string, content: string): { title: string; content: string }[] {
  if (content.length <= MAX_DOCUMENT_CHARS) return [{ title, content }];
  // Sections: each starts at a heading line (the first may have none).
  const sections: { heading: string | null; text: string }[] = [];
  let current: { heading: string | null; lines: string[] } = { heading: null, lines: [] };
  let fenced = false;
  for (const line of content.split('\n')) {
    if (/^\s{0,3}(`{3,}|~{3,})/.test(line)) fenced = !fenced;
    const match = fenced ? null : ATX.exec(line);
    if (match && match[1]!.length <= 3 && current.lines.some((l) => l.trim() !== '')) {
      sections.push({ heading: current.heading, text: current.lines.join('\n').trim() });
      current = { heading: match[2]!, lines: [] };
    } else if (match && current.heading === null && current.lines.every((l) => l.trim() === '')) {
      current.heading = match[2]!;
    }
    current.lines.push(line);
  }
  sections.push({ heading: current.heading, text: current.lines.join('\n').trim() });
  // A section longer than a document on its own is cut between paragraphs, then anywhere.
  const pieces = sections.flatMap((section) => {
    if (section.text.length <= MAX_DOCUMENT_CHARS) return [section];
    const parts: { heading: string | null; text: string }[] = [];
    let part = '';
    for (const paragraph of section.text.split(/\n{2,}/)) {
      for (let start = 0; start < paragraph.length; start += MAX_DOCUMENT_CHARS) {
        const block = paragraph.slice(start, start + MAX_DOCUMENT_CHARS);
        if (part !== '' && part.length + 2 + block.length > MAX_DOCUMENT_CHARS) {
          parts.push({ heading: section.heading, text: part });
          part = '';
        }
        part = part === '' ? block : `${part}\n\n${block}`;
      }
    }
    if (part !== '') parts.push({ heading: section.heading, text: part });
    return parts;
  });
  // Consecutive pieces share a document while they fit.
  const documents: { heading: string | null; text: string }[] = [];
  for (const piece of pieces) {
    const last = documents[documents.length - 1];
    if (last && last.text.length + 2 + piece.text.length <= MAX_DOCUMENT_CHARS) last.text = `${last.text}\n\n${piece.text}`;
    else documents.push({ ...piece });
  }
  const used = new Map<string, number>();
  return documents
    .filter((document) => document.text.trim() !== '')
    .map((document, i) => {
      const name = document.heading && document.heading !== title ? `${title}: ${document.heading}` : i === 0 ? title : `${title} (part ${i + 1})`;
      const seen = used.get(name) ?? 0;
      used.set(name, seen + 1);
      return { title: (seen === 0 ? name : `${name} (${seen + 1})`).slice(0, 300), content: document.text.trim() };
    });
}

type DocumentFormat = 'pdf' | 'docx' | 'html' | 'markdown' | 'text';

function documents(format: DocumentFormat, title: string, content: string): ExtractedFile {
  const text = content.replace(/\r\n?/g, '\n').trim();
  if (text === '') return { kind: 'failed', format, error: 'the file has no text to add' };
  return { kind: 'documents', format, documents: splitDocument(title.slice(0, 300), text) };
}

function firstHeading(markdown: string): string | null {
  for (const line of markdown.split('\n')) {
    const match = ATX.exec(line);
    if (match && match[1]!.length === 1) return match[2]!.trim() || null;
  }
  return null;
}

/** A zod issue as `row 3, price: price must be a number` (the row numbered as a spreadsheet shows it). */
function productProblem(where: string, product: unknown): string | null {
  const parsed = productSchema.safeParse(product);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join('.');
  return `${where}${field ? `, ${field}` : ''}: ${issue.message}`;
}

function csvProducts(text: string): ExtractedFile {
  const header = csvHeader(text) ?? [];
  const delimiter = [',', ';', '\t'].find((d) => (text.split(/\r?\n/, 1)[0] ?? '').includes(d)) ?? ',';
  const missing = PRODUCT_COLUMNS.filter((column) => !header.includes(column));
  if (missing.length > 0) {
    return {
      kind: 'failed',
      format: 'csv',
      error: `the header row must name the product columns id, name and price (missing: ${missing.join(', ')}); optional: currency, description, url, imageUrl`,
    };
  }
  let rows: Record<string, string>[];
  try {
    rows = parseCsv(text, {
      columns: (cells: string[]) => cells.map((cell) => cell.trim()),
      delimiter,
      bom: true,
      skip_empty_lines: true,
      trim: true,
    }) as Record<string, string>[];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    return { kind: 'failed', format: 'csv', error: `not valid CSV${line ? ` at line ${line}` : ''}: ${(error as Error).message}` };
  }
  if (rows.length === 0) return { kind: 'failed', format: 'csv', error: 'the CSV file has a header row but no products' };
  const known = new Set(Object.keys(productSchema.shape));
  const products: Record<string, unknown>[] = [];
  for (const [index, row] of rows.entries()) {
    const product: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(row)) {
      const field = [...known].find((name) => name.toLowerCase() === column.toLowerCase());
      if (!field || value === '') continue;
      product[field] = field === 'price' ? (/^-?\d+(\.\d+)?$/.test(value.replace(',', '.')) ? Number(value.replace(',', '.')) : value) : value;
    }
    const problem = productProblem(`row ${index + 2}`, product);
    if (problem) return { kind: 'failed', format: 'csv', error: problem };
    products.push(product);
  }
  return { kind: 'products', format: 'csv', products };
}

function jsonProducts(text: string): ExtractedFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'failed', format: 'json', error: `not valid JSON: ${(error as Error).message}` };
  }
  const list = Array.isArray(value) ? value : (value as { products?: unknown } | null)?.products;
  const path = Array.isArray(value) ? '' : 'products';
  if (!Array.isArray(list)) {
    return { kind: 'failed', format: 'json', error: 'a JSON upload must be an array of products or { "products": [...] }' };
  }
  if (list.length === 0) return { kind: 'failed', format: 'json', error: `${path || 'the array'} has no products` };
  for (const [index, product] of list.entries()) {
    const problem = productProblem(`${path}[${index}]`, product);
    if (problem) return { kind: 'failed', format: 'json', error: problem };
  }
  return { kind: 'products', format: 'json', products: list };
}

async function docxDocuments(bytes: Uint8Array, title: string): Promise<ExtractedFile> {
  try {
    const { value } = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      // Images are not text: they are left out rather than inlined as data URLs.
      { convertImage: mammoth.images.imgElement(async () => ({ src: '' })), externalFileAccess: false },
    );
    const { document } = parseHTML(`<!doctype html><html><head></head><body>${value}</body></html>`) as unknown as { document: Document };
    const text = blockText(document.body);
    return documents('docx', firstHeading(text) ?? title, text);
  } catch (error) {
    return { kind: 'failed', format: 'docx', error: `unreadable Word document: ${(error as Error).message}` };
  }
}

async function pdfDocuments(bytes: Uint8Array, title: string): Promise<ExtractedFile> {
  let pdf;
  try {
    pdf = await extractPdf(bytes);
  } catch (error) {
    return { kind: 'failed', format: 'pdf', error: `unreadable PDF: ${(error as Error).message}` };
  }
  const text = pdf.pages.filter(Boolean).join('\n\n');
  if (text.trim() === '') return { kind: 'failed', format: 'pdf', error: 'the PDF has no text (scanned pages are not read)' };
  return documents('pdf', pdf.title || title, text);
}

/**
 * Extracts an uploaded file (issue 22, DESIGN.md section 11): documents from PDF (pdf.js through unpdf), DOCX
 * (mammoth), HTML (the site reader's Readability path), Markdown and plain text; products from CSV and JSON. The type
 * is sniffed from the bytes. Throws UnsupportedFileError for any other bytes; an extraction error is a `failed`
 * result, never a throw.
 */
export async function extractFile(bytes: Uint8Array, name: string): Promise<ExtractedFile> {
  const title = baseName(name);
  const { format, text } = sniff(bytes, name);
  switch (format) {
    case 'pdf':
      return pdfDocuments(bytes, title);
    case 'docx':
      return docxDocuments(bytes, title);
    case 'json':
      return jsonProducts(text!);
    case 'csv':
      return csvProducts(text!);
    case 'html': {
      const page = extractHtml(text!, 'https://upload.invalid/');
      return documents('html', page.title || title, page.text);
    }
    case 'markdown':
      return documents('markdown', firstHeading(text!) ?? title, text!);
    case 'text':
      return documents('text', title, text!);
  }
}
