import { extractText, getDocumentProxy } from 'unpdf';

export interface PdfExtract {
  /** The document's Title metadata, or '' when it has none. */
  title: string;
  /** Text of each page, whitespace tidied. */
  pages: string[];
}

/** Unicode spaces and the odd control character pdf.js leaves between glyph runs. */
function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[\s\u0000]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Text of a PDF with pdf.js (through unpdf). Throws when the bytes are not a readable PDF. */
export async function extractPdf(bytes: Uint8Array): Promise<PdfExtract> {
  // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false });
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    const { info } = await pdf.getMetadata();
    const rawTitle = (info as { Title?: unknown }).Title;
    return { title: typeof rawTitle === 'string' ? rawTitle.trim() : '', pages: text.map(tidy) };
  } finally {
    await pdf.destroy();
  }
}
