import type { EngineContext } from '../context.js';
import { zeroCredits } from '../credits.js';
import type { KnowledgeDocument, KnowledgeSource, SourcePage } from '../domain.js';
import { charge } from '../engine/billing.js';
import { DEFAULT_MAX_PAGES } from '../schemas/sources.js';
import { sha256Hex } from '../signing.js';
import type { StoreOps } from '../store/store.js';
import type { PageRead, RobotsRules, SiteReader } from './site-reader.js';
import { sourceDocuments, zeroProgress } from './sources.js';
import { canonicalUrl, originOf, sourceScope } from './urls.js';

/**
 * The sync job of website sources (DESIGN.md section 11 "Sources"): a durable job with the claim and lease rules of
 * turn jobs. A round claims one source (queued, due by its schedule, or one whose lease ran out: a crashed worker's
 * sync is resumed from its pending pages, not restarted), reads a batch of its pending pages with at most 2 reads in
 * flight per host, and stores each outcome in its own transaction with the lease renewed and the read billed, so a
 * crash loses at most the reads in flight.
 *
 * A sync starts from the start URL; a start URL that is the site's root also takes the `Sitemap:` lines of its
 * robots.txt, and a sitemap (as the start URL or found so) lists the pages to read. Each page's links (in scope, allowed
 * by robots.txt, canonical) join the frontier up to `maxPages`. A page becomes documents (split in parts past the
 * document limit); a 304 keeps its documents (their passages and vectors) and replays its stored links; a page gone
 * (404/410), `noindex`, or a duplicate of another page's content loses its documents. A sync that reached the end
 * removes the pages (and documents) of earlier syncs it did not reach: no longer linked nor in the sitemap.
 */

export interface SourceRound {
  /** Page reads finished by this round. */
  pages: number;
  /** True when the round found work: call again at once. */
  busy: boolean;
}

export interface SourceWork {
  /** One round of the sync job; `{ pages: 0, busy: false }` at once without a site reader or a source to sync. */
  syncSources(options?: { signal?: AbortSignal }): Promise<SourceRound>;
}

export interface SourceJobOptions {
  /** This process's name on its leases. */
  owner: string;
  /** A claimed source is another worker's to resume after this long without a stored page. Default 60 s. */
  leaseMs?: number;
  /** Pending pages a round reads. Default 16. */
  batch?: number;
  /** Reads in flight per host. Default 2 (DESIGN.md section 11: polite). */
  perHost?: number;
  /** A sync running longer stops, `failed`. Default 2 hours. */
  deadlineMs?: number;
}

type JobContext = Pick<EngineContext, 'store' | 'clock' | 'ids' | 'pricing' | 'logger'> & {
  reader?: SiteReader | undefined;
  onWork?: ((kind: 'delivery' | 'embedding' | 'source') => void) | undefined;
};

const DAY_MS = 86_400_000;

/** An outcome as read, before the documents the page had are attached. */
type Computed = Omit<Outcome, 'previous'>;

/** Thrown inside a page's transaction when this worker no longer holds the source: the write is rolled back. */
class LeaseLost extends Error {}

/** The in-flight reads per host never exceed `limit`; each host's reads queue in arrival order. */
function perHostLimiter(limit: number): <T>(host: string, run: () => Promise<T>) => Promise<T> {
  const running = new Map<string, number>();
  const waiting = new Map<string, Array<() => void>>();
  return async (host, run) => {
    if ((running.get(host) ?? 0) >= limit) {
      await new Promise<void>((resolve) => {
        const queue = waiting.get(host) ?? [];
        queue.push(resolve);
        waiting.set(host, queue);
      });
    } else {
      running.set(host, (running.get(host) ?? 0) + 1);
    }
    try {
      return await run();
    } finally {
      const next = waiting.get(host)?.shift();
      // The slot passes to the next waiter as it is, or is given back.
      if (next) next();
      else running.set(host, (running.get(host) ?? 1) - 1);
    }
  };
}

const nextSyncAt = (source: KnowledgeSource, now: Date): Date | null =>
  source.schedule === 'daily' ? new Date(now.getTime() + DAY_MS) : source.schedule === 'weekly' ? new Date(now.getTime() + 7 * DAY_MS) : null;

/** What a stored page outcome changes, computed before its transaction (hashing and robots checks are async). */
interface Outcome {
  page: SourcePage;
  /** Documents to store for the page (replacing `page.documentIds` of before); null keeps them as they are. */
  documents: KnowledgeDocument[] | null;
  /** Drop the page's documents (gone, noindex, a duplicate…). */
  dropDocuments: boolean;
  /** Canonical, in scope, allowed: the URLs that join the frontier. */
  links: string[];
  counter: 'fetched' | 'unchanged' | 'failed' | 'skipped';
  charged: boolean;
  /** A page whose content another page of this sync holds already is checked inside the transaction. */
  hash: string | null;
  /** The documents the page had before this read. */
  previous: string[];
}

export function createSourceWork(ctx: JobContext, options: SourceJobOptions): SourceWork {
  const leaseMs = options.leaseMs ?? 60_000;
  const batch = Math.max(1, options.batch ?? 16);
  const perHost = Math.max(1, options.perHost ?? 2);
  const deadlineMs = options.deadlineMs ?? 2 * 3_600_000;
  const owner = options.owner;
  // robots.txt per origin, for the sync running here (source id and generation): read once per sync.
  let robotsFor = '';
  let robotsCache = new Map<string, Promise<RobotsRules>>();

  const lease = () => ({ owner, expiresAt: new Date(ctx.clock.now().getTime() + leaseMs) });

  function robotsOf(reader: SiteReader, run: { source: KnowledgeSource; signal?: AbortSignal | undefined }, url: string): Promise<RobotsRules> {
    const key = `${run.source.id}#${run.source.generation}`;
    if (key !== robotsFor) {
      robotsFor = key;
      robotsCache = new Map();
    }
    const origin = originOf(url);
    let rules = robotsCache.get(origin);
    if (!rules) {
      rules = reader.robots(origin, run.signal ? { signal: run.signal } : {});
      robotsCache.set(origin, rules);
      // An aborted read is not the site's answer: the next round asks again.
      void rules.catch(() => robotsCache.delete(origin));
    }
    return rules;
  }

  /** The canonical URLs of `raw` that may join the frontier: in scope and allowed by their site's robots.txt. */
  async function admissible(reader: SiteReader, run: Run, raw: readonly string[]): Promise<string[]> {
    const inScope = sourceScope({ url: run.source.url!, include: run.source.include, exclude: run.source.exclude });
    const urls = [...new Set(raw.map((url) => canonicalUrl(url)).filter((url): url is string => url !== null && inScope(url)))];
    const allowed = await Promise.all(urls.map(async (url) => (await robotsOf(reader, run, url)).isAllowed(url)));
    return urls.filter((_, index) => allowed[index]);
  }

  interface Run {
    source: KnowledgeSource;
    signal?: AbortSignal | undefined;
    stop: null | 'credits' | 'lost';
  }

  /** Stores `patch` on the source if this worker still holds it, renewing the lease; throws {@link LeaseLost} if not. */
  async function keep(tx: StoreOps, run: Run, patch: Partial<KnowledgeSource>): Promise<KnowledgeSource> {
    const updated = await tx.updateSource({ id: run.source.id, owner, patch: { ...patch, lease: lease() } });
    if (!updated) throw new LeaseLost();
    return updated;
  }

  async function start(reader: SiteReader, run: Run): Promise<void> {
    const source = run.source;
    const generation = source.generation + 1;
    const now = ctx.clock.now();
    const next: KnowledgeSource = { ...source, generation };
    const startUrl = canonicalUrl(source.url!) ?? source.url!;
    const seeds = [startUrl];
    if (new URL(startUrl).pathname === '/') {
      // The site's root: its robots.txt may name sitemaps, which list pages no link may lead to.
      seeds.push(...(await robotsOf(reader, { ...run, source: next }, startUrl)).sitemaps);
    }
    const urls = await admissible(reader, { ...run, source: next }, seeds);
    run.source = await ctx.store.transaction(async (tx) => {
      const added = await tx.addSourcePages({ sourceId: source.id, urls, generation, max: source.maxPages ?? DEFAULT_MAX_PAGES, now });
      return keep(tx, run, {
        status: 'syncing',
        generation,
        progress: { ...zeroProgress(), found: added.length },
        lastSync: { startedAt: now, finishedAt: null, error: null },
      });
    });
  }

  async function outcomeOf(reader: SiteReader, run: Run, input: { page: SourcePage; read: PageRead }): Promise<Computed> {
    const { page, read } = input;
    const now = ctx.clock.now();
    const base: SourcePage = { ...page, status: null, error: null, generation: run.source.generation, updatedAt: now };
    const charged = read.downloaded;
    const skipped = (reason: string, links: string[] = []): Computed => ({
      page: { ...base, state: 'skipped', error: reason, documentIds: [], contentHash: null, links },
      documents: null,
      dropDocuments: true,
      links,
      counter: 'skipped',
      charged,
      hash: null,
    });
    switch (read.kind) {
      case 'not_modified':
        // Free, and the page's documents stay as they are; its links still lead the crawl on.
        return { page: { ...base, state: 'unchanged' }, documents: null, dropDocuments: false, links: await admissible(reader, run, page.links), counter: 'unchanged', charged, hash: null };
      case 'gone':
        return { ...skipped(`gone (${read.status})`), page: { ...base, state: 'gone', status: read.status, error: `gone (${read.status})`, documentIds: [], contentHash: null, links: [] } };
      case 'skipped':
        return skipped(read.reason);
      case 'failed': {
        // A passing failure (a timeout, a 5xx) keeps what the last sync stored, and what it linked to.
        const links = await admissible(reader, run, page.links);
        return { page: { ...base, state: 'failed', status: read.status, error: read.reason }, documents: null, dropDocuments: false, links, counter: 'failed', charged, hash: null };
      }
      case 'sitemap': {
        const links = await admissible(reader, run, read.urls);
        const validators = { etag: read.validators.etag, lastModified: read.validators.lastModified };
        return { page: { ...base, state: 'fetched', ...validators, links, documentIds: [], contentHash: null }, documents: null, dropDocuments: true, links, counter: 'fetched', charged, hash: null };
      }
      case 'page':
        return pageOutcome(reader, run, { page, base, read });
    }
  }

  async function pageOutcome(
    reader: SiteReader,
    run: Run,
    input: { page: SourcePage; base: SourcePage; read: Extract<PageRead, { kind: 'page' }> },
  ): Promise<Computed> {
    const { page, base, read } = input;
    const inScope = sourceScope({ url: run.source.url!, include: run.source.include, exclude: run.source.exclude });
    const finalUrl = canonicalUrl(read.url) ?? page.url;
    const links = read.nofollow ? [] : await admissible(reader, run, read.links);
    const skip = (reason: string, follow: string[]): Computed => ({
      page: { ...base, state: 'skipped', error: reason, documentIds: [], contentHash: null, links: follow },
      documents: null,
      dropDocuments: true,
      links: follow,
      counter: 'skipped',
      charged: true,
      hash: null,
    });
    if (finalUrl !== page.url && !inScope(finalUrl)) return skip(`redirected out of scope to ${finalUrl}`, []);
    const canonical = read.canonical === null ? null : canonicalUrl(read.canonical, read.url);
    if (canonical !== null && canonical !== page.url && canonical !== finalUrl && inScope(canonical)) {
      // `rel=canonical` names the page this one copies: that one is read (and kept) instead.
      const follow = await admissible(reader, run, [canonical]);
      return skip(`canonical is ${canonical}`, follow);
    }
    if (read.noindex) {
      // Kept out of the index but remembered with its validators: the next sync revalidates it (a free 304), and an
      // unchanged page's links are still followed.
      const skipped = skip('noindex', links);
      return { ...skipped, page: { ...skipped.page, etag: read.validators.etag, lastModified: read.validators.lastModified } };
    }
    const text = read.text.trim();
    if (text === '') return skip('no text content', links);
    const title = read.title.trim() || new URL(finalUrl).pathname;
    const hash = await sha256Hex(`${title}\n\n${text}`);
    const validators = { etag: read.validators.etag, lastModified: read.validators.lastModified };
    const unchanged = hash === page.contentHash && page.documentIds.length > 0;
    return {
      page: { ...base, state: 'fetched', ...validators, contentHash: hash, links },
      // The same text as stored: its documents (passages, vectors) stay; otherwise the page is stored anew, in parts.
      documents: unchanged ? null : sourceDocuments(ctx, { source: run.source, title, text, url: finalUrl, ids: page.documentIds }),
      dropDocuments: false,
      links,
      counter: 'fetched',
      charged: true,
      hash,
    };
  }

  /** Stores one page's outcome with its documents, its links on the frontier, the progress and the charge. */
  async function save(run: Run, outcome: Outcome): Promise<void> {
    const source = run.source;
    const now = ctx.clock.now();
    let embed = false;
    run.source = await ctx.store.transaction(async (tx) => {
      let { page, documents, dropDocuments, counter } = outcome;
      if (outcome.hash !== null) {
        const twins = await tx.listSourcePages({ sourceId: source.id, contentHash: outcome.hash, generation: source.generation, limit: 5 });
        const twin = twins.find((other) => other.url !== page.url && (other.state === 'fetched' || other.state === 'unchanged'));
        if (twin) {
          page = { ...page, state: 'skipped', error: `duplicate of ${twin.url}`, documentIds: [], contentHash: null };
          documents = null;
          dropDocuments = true;
          counter = 'skipped';
        }
      }
      const previous = outcome.previous;
      if (dropDocuments || documents !== null) await tx.deleteDocuments(source.knowledgeBaseId, previous);
      if (documents !== null) {
        for (const document of documents) await tx.insertDocument(document);
        page = { ...page, documentIds: documents.map((document) => document.id) };
        embed = documents.length > 0;
      }
      await tx.putSourcePage(page);
      const added = outcome.links.length > 0 ? await tx.addSourcePages({ sourceId: source.id, urls: outcome.links, generation: source.generation, max: source.maxPages ?? DEFAULT_MAX_PAGES, now }) : [];
      if (outcome.charged) {
        await charge(ctx, tx, { accountId: source.accountId, operation: 'knowledge.crawl', credits: { ...zeroCredits(), crawler: ctx.pricing.crawlerPage } });
      }
      const progress = { ...source.progress, found: source.progress.found + added.length, [counter]: source.progress[counter] + 1 };
      return keep(tx, run, { progress });
    });
    if (embed) ctx.onWork?.('embedding');
  }

  async function hasCredits(source: KnowledgeSource): Promise<boolean> {
    const account = await ctx.store.getAccount(source.accountId);
    return account !== null && account.status === 'active' && account.balance > 0;
  }

  async function readPage(reader: SiteReader, run: Run, page: SourcePage): Promise<boolean> {
    if (run.stop !== null || run.signal?.aborted) return false;
    if (!(await hasCredits(run.source))) {
      run.stop ??= 'credits';
      return false;
    }
    const validators = page.etag !== null || page.lastModified !== null ? { etag: page.etag, lastModified: page.lastModified } : undefined;
    let read: PageRead;
    try {
      read = await reader.read(page.url, { ...(validators ? { validators } : {}), ...(run.signal ? { signal: run.signal } : {}) });
    } catch (error) {
      if (run.signal?.aborted) return false;
      read = { kind: 'failed', reason: error instanceof Error ? error.message : String(error), status: null, downloaded: false };
    }
    if (run.stop === 'lost') return false;
    return storeRead(reader, run, { page, read });
  }

  // Outcomes are stored one at a time (the reads run side by side): the progress counters are this worker's to keep.
  let saving: Promise<unknown> = Promise.resolve();

  async function storeRead(reader: SiteReader, run: Run, input: { page: SourcePage; read: PageRead }): Promise<boolean> {
    const outcome: Outcome = { ...(await outcomeOf(reader, run, input)), previous: input.page.documentIds };
    const stored = saving.then(async () => {
      if (run.stop === 'lost') return false;
      try {
        await save(run, outcome);
        return true;
      } catch (error) {
        if (error instanceof LeaseLost) {
          run.stop = 'lost';
          return false;
        }
        throw error;
      }
    });
    saving = stored.catch(() => undefined);
    return stored;
  }

  /** Ends the sync: removes what it no longer reached (when it ran to its end) and sets the status. */
  async function finish(run: Run, failure: string | null): Promise<void> {
    const source = run.source;
    const progress = source.progress;
    let error = failure;
    if (error === null && progress.fetched + progress.unchanged === 0) {
      const [why] = await ctx.store.listSourcePages({ sourceId: source.id, state: 'failed', generation: source.generation, limit: 1 });
      const [skipped] = why ? [] : await ctx.store.listSourcePages({ sourceId: source.id, state: 'skipped', generation: source.generation, limit: 1 });
      const page = why ?? skipped;
      error = page ? `No page could be read: ${page.url}: ${page.error ?? 'unreadable'}.` : 'No page could be read: robots.txt or the scope leaves nothing to read.';
    }
    if (error === null) {
      // Pages of earlier syncs this one did not reach, and pages gone from the site, go with their documents.
      for (const query of [{ beforeGeneration: source.generation }, { state: 'gone' as const }]) {
        for (;;) {
          const stale = await ctx.store.listSourcePages({ sourceId: source.id, ...query, limit: 100 });
          if (stale.length === 0) break;
          run.source = await ctx.store.transaction(async (tx) => {
            await tx.deleteDocuments(source.knowledgeBaseId, stale.flatMap((page) => page.documentIds));
            for (const page of stale) await tx.deleteSourcePage(source.id, page.url);
            return keep(tx, run, {});
          });
        }
      }
    }
    const now = ctx.clock.now();
    const finished = await ctx.store.updateSource({
      id: source.id,
      owner,
      patch: {
        status: error === null ? 'ready' : 'failed',
        lastSync: { startedAt: source.lastSync?.startedAt ?? now, finishedAt: now, error },
        nextSyncAt: nextSyncAt(source, now),
        lease: null,
      },
    });
    if (finished) run.source = finished;
  }

  async function syncSources(call: { signal?: AbortSignal } = {}): Promise<SourceRound> {
    const reader = ctx.reader;
    if (!reader || call.signal?.aborted) return { pages: 0, busy: false };
    const claimed = await ctx.store.claimSource({ owner, now: ctx.clock.now(), leaseMs });
    if (!claimed) return { pages: 0, busy: false };
    const run: Run = { source: claimed, signal: call.signal, stop: null };
    try {
      if (claimed.status !== 'syncing') await start(reader, run);
      const startedAt = run.source.lastSync?.startedAt.getTime() ?? ctx.clock.now().getTime();
      if (ctx.clock.now().getTime() - startedAt > deadlineMs) {
        await finish(run, `The sync passed its deadline of ${Math.round(deadlineMs / 60_000)} minutes; pages read so far are kept.`);
        return { pages: 0, busy: true };
      }
      const pending = await ctx.store.listSourcePages({ sourceId: run.source.id, state: 'pending', generation: run.source.generation, limit: batch });
      if (pending.length === 0) {
        await finish(run, null);
        return { pages: 0, busy: true };
      }
      const limit = perHostLimiter(perHost);
      const done = await Promise.all(pending.map((page) => limit(new URL(page.url).host, () => readPage(reader, run, page))));
      const pages = done.filter(Boolean).length;
      if (run.stop === 'credits') {
        await finish(run, 'Credits ran out: the sync stopped; pages read so far are kept. Add credits and sync again.');
      } else if (call.signal?.aborted && run.stop === null) {
        // Shutting down: the lease is handed back so another worker resumes at once.
        await ctx.store.updateSource({ id: run.source.id, owner, patch: { lease: null } });
        return { pages, busy: false };
      }
      return { pages, busy: true };
    } catch (error) {
      if (error instanceof LeaseLost) return { pages: 0, busy: true };
      if (call.signal?.aborted) {
        await ctx.store.updateSource({ id: run.source.id, owner, patch: { lease: null } });
        return { pages: 0, busy: false };
      }
      throw error;
    }
  }

  return { syncSources };
}
