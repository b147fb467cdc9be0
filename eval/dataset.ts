import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One FAQ entry: it becomes one document of the knowledge base (title = question, content = answer). */
export interface FaqEntry {
  id: string;
  question: string;
  answer: string;
}

/** A visitor's wording; `entryId` null when the FAQ does not answer it (the right reply is "I don't know"). */
export interface LabelledQuery {
  query: string;
  entryId: string | null;
}

export interface Dataset {
  /** The folder's name, e.g. `covid-qa-cdc`. */
  name: string;
  faq: FaqEntry[];
  queries: LabelledQuery[];
}

export const DEFAULT_DATASET_DIR = join(dirname(fileURLToPath(import.meta.url)), 'datasets', 'covid-qa-cdc');

/**
 * A dataset folder: `faq.json` (`[{ id, question, answer }]`) and `queries.json` (`[{ query, entryId }]`), checked
 * so that a mistake in either fails here rather than as odd figures: ids unique, every label an entry of the FAQ.
 */
export async function loadDataset(dir: string = DEFAULT_DATASET_DIR): Promise<Dataset> {
  const folder = resolve(dir);
  const faq = parseFaq(JSON.parse(await readFile(join(folder, 'faq.json'), 'utf8')));
  const queries = parseQueries(JSON.parse(await readFile(join(folder, 'queries.json'), 'utf8')), new Set(faq.map((entry) => entry.id)));
  return { name: basename(folder), faq, queries };
}

const text = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

function parseFaq(value: unknown): FaqEntry[] {
  if (!Array.isArray(value) || value.length === 0) throw new Error('faq.json: expected a non-empty array of { id, question, answer }.');
  const ids = new Set<string>();
  return value.map((item: Record<string, unknown>, index) => {
    if (!text(item?.id) || !text(item.question) || !text(item.answer)) throw new Error(`faq.json[${index}]: id, question and answer must be non-empty strings.`);
    if (ids.has(item.id)) throw new Error(`faq.json[${index}]: id ${item.id} appears twice.`);
    ids.add(item.id);
    return { id: item.id, question: item.question, answer: item.answer };
  });
}

function parseQueries(value: unknown, entryIds: ReadonlySet<string>): LabelledQuery[] {
  if (!Array.isArray(value) || value.length === 0) throw new Error('queries.json: expected a non-empty array of { query, entryId }.');
  return value.map((item: Record<string, unknown>, index) => {
    const entryId = item?.entryId;
    if (!text(item?.query)) throw new Error(`queries.json[${index}]: query must be a non-empty string.`);
    if (entryId !== null && !(typeof entryId === 'string' && entryIds.has(entryId))) {
      throw new Error(`queries.json[${index}]: entryId must be null or the id of an FAQ entry, not ${JSON.stringify(entryId)}.`);
    }
    return { query: item.query, entryId };
  });
}
