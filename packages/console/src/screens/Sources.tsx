import { useEffect, useRef, useState } from 'preact/hooks';
import { admin } from '../api/admin.js';
import type { Source, SourceDetail } from '../api/types.js';
import { ErrorNote, formatDate } from '../components/common.js';
import { useAction, useLoad } from '../hooks.js';

/** How often a source being synced is read again. */
const POLL_MS = 1000;

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

const active = (source: Source): boolean => source.status === 'queued' || source.status === 'syncing';

function sourceName(source: Source): string {
  if (source.type === 'website') return source.url ?? 'Website';
  if (source.type === 'file') return source.fileName ?? 'File';
  return 'Documents added by hand';
}

function AddWebsite({ kbId, onAdded }: { kbId: string; onAdded(): void }) {
  const [url, setUrl] = useState('');
  const [include, setInclude] = useState('');
  const [exclude, setExclude] = useState('');
  const [maxPages, setMaxPages] = useState('500');
  const [schedule, setSchedule] = useState<'off' | 'daily' | 'weekly'>('off');
  const [said, setSaid] = useState('');
  const action = useAction(admin.addWebsite);
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setSaid('');
    const source = await action.run(kbId, {
      type: 'website',
      url: url.trim(),
      ...(lines(include).length ? { include: lines(include) } : {}),
      ...(lines(exclude).length ? { exclude: lines(exclude) } : {}),
      maxPages: Number(maxPages),
      schedule,
    });
    if (source) {
      setSaid(`Added ${source.url}: its first sync is queued.`);
      setUrl('');
      onAdded();
    }
  };
  return (
    <form class="stack card" onSubmit={submit} aria-labelledby="add-website">
      <h3 id="add-website">Add a website</h3>
      <label>
        Start URL or sitemap
        <input type="url" required value={url} placeholder="https://help.example.com/" onInput={(e) => setUrl(e.currentTarget.value)} />
      </label>
      <label>
        Only pages under (one URL prefix or * pattern a line; empty: the start URL's folder)
        <textarea rows={2} value={include} onInput={(e) => setInclude(e.currentTarget.value)} />
      </label>
      <label>
        Never pages under (one a line)
        <textarea rows={2} value={exclude} onInput={(e) => setExclude(e.currentTarget.value)} />
      </label>
      <div class="row">
        <label>
          At most this many pages
          <input type="number" min={1} max={10000} required value={maxPages} onInput={(e) => setMaxPages(e.currentTarget.value)} />
        </label>
        <label>
          Sync again
          <select value={schedule} onChange={(e) => setSchedule(e.currentTarget.value as 'off' | 'daily' | 'weekly')}>
            <option value="off">Only when asked</option>
            <option value="daily">Daily</option>
            <option value="weekly">Weekly</option>
          </select>
        </label>
      </div>
      <div class="row">
        <button type="submit" disabled={action.busy}>
          Add website
        </button>
        <span role="status" class="hint">
          {said}
        </span>
      </div>
      <ErrorNote error={action.error} />
    </form>
  );
}

function UploadFiles({ kbId, onUploaded }: { kbId: string; onUploaded(): void }) {
  const [said, setSaid] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const send = async (files: File[]): Promise<void> => {
    if (files.length === 0) return;
    setBusy(true);
    const results: string[] = [];
    for (const file of files) {
      try {
        const source = await admin.uploadFile(kbId, file);
        results.push(source.status === 'failed' ? `${file.name}: could not be read: ${source.lastSync?.error ?? 'unknown error'}` : `${file.name}: added (${source.documents} documents).`);
      } catch (error) {
        results.push(`${file.name}: ${(error as Error).message}`);
      }
      setSaid([...results]);
    }
    setBusy(false);
    if (input.current) input.current.value = '';
    onUploaded();
  };
  return (
    <div
      class={`stack card drop-zone${over ? ' drop-over' : ''}`}
      role="group"
      aria-labelledby="upload-files"
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        void send([...(event.dataTransfer?.files ?? [])]);
      }}
    >
      <h3 id="upload-files">Upload files</h3>
      <label>
        PDF, Word (DOCX), HTML, Markdown or text documents; CSV or JSON products. At most 20 MB each; or drop them here.
        <input
          ref={input}
          type="file"
          multiple
          disabled={busy}
          accept=".pdf,.docx,.html,.htm,.md,.markdown,.txt,.csv,.json,application/pdf,text/*,application/json"
          onChange={(event) => void send([...(event.currentTarget.files ?? [])])}
        />
      </label>
      <div role="status" class="hint">
        {busy && said.length === 0 && <p>Uploading…</p>}
        {said.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
    </div>
  );
}

function Progress({ source }: { source: Source }) {
  const { found, fetched, unchanged, failed, skipped } = source.progress;
  const done = fetched + unchanged + failed + skipped;
  const label = `${sourceName(source)}: ${done} of ${found} pages read`;
  return (
    <label class="grow">
      {source.status === 'queued' ? 'Waiting to start' : `${done} of ${found} pages read`} ({fetched} fetched, {unchanged} unchanged, {failed} failed)
      {/* Indeterminate while nothing is known yet. */}
      {found > 0 ? <progress aria-label={label} max={found} value={Math.min(done, found)} /> : <progress aria-label={label} />}
    </label>
  );
}

function FailedPages({ detail }: { detail: SourceDetail }) {
  if (detail.failedPages.length === 0) return null;
  return (
    <details>
      <summary>
        {detail.failedPages.length} page{detail.failedPages.length === 1 ? '' : 's'} could not be read
      </summary>
      <ul aria-label={`Pages of ${sourceName(detail)} that could not be read`}>
        {detail.failedPages.map((page) => (
          <li key={page.url}>
            <code>{page.url}</code>: {page.status ? `${page.status} · ` : ''}
            {page.reason}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** One source: polled while it syncs; its failed pages; re-sync and delete. */
function SourceItem({ kbId, initial, onChanged }: { kbId: string; initial: Source; onChanged(): void }) {
  const [source, setSource] = useState<Source>(initial);
  const [detail, setDetail] = useState<SourceDetail | null>(null);
  const change = useAction(async (work: () => Promise<unknown>) => work());
  useEffect(() => setSource(initial), [initial]);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async (): Promise<void> => {
      try {
        const next = await admin.source(kbId, source.id);
        if (stopped) return;
        setDetail(next);
        if (next.status !== source.status || next.documents !== source.documents) setSource(next);
        if (active(next)) timer = setTimeout(read, POLL_MS);
        else if (active(source)) onChanged();
      } catch {
        if (!stopped) timer = setTimeout(read, POLL_MS * 5);
      }
    };
    // Settled sources are read once (for their failed pages), syncing ones until they settle.
    if (active(source) || source.progress.failed > 0 || source.status === 'failed') void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [kbId, source.id, source.status]);
  const shown = detail && detail.id === source.id ? { ...source, progress: detail.progress } : source;
  const name = sourceName(source);
  return (
    <li class="source" aria-label={name}>
      <div class="row">
        <strong class="grow">{name}</strong>
        <span class={`badge status-${shown.status}`}>{shown.status}</span>
      </div>
      <p class="hint">
        {source.type === 'website' ? 'Website' : source.type === 'file' ? 'File' : 'Manual'} · {source.documents} document{source.documents === 1 ? '' : 's'}
        {source.lastSync ? ` · last sync ${formatDate(source.lastSync.finishedAt ?? source.lastSync.startedAt)}` : ''}
        {source.schedule !== 'off' ? ` · syncs ${source.schedule}` : ''}
      </p>
      {active(shown) && <Progress source={shown} />}
      {shown.lastSync?.error && (
        <p class="error" role="alert">
          {shown.lastSync.error}
        </p>
      )}
      {detail && <FailedPages detail={detail} />}
      <div class="row">
        {source.type === 'website' && (
          <button
            type="button"
            class="secondary"
            disabled={change.busy || active(shown)}
            onClick={async () => {
              const queued = await change.run(() => admin.syncSource(kbId, source.id));
              if (queued) setSource(queued as Source);
            }}
          >
            Sync {name} now
          </button>
        )}
        {source.type !== 'manual' && (
          <button
            type="button"
            class="danger"
            disabled={change.busy}
            onClick={async () => {
              if (!confirm(`Delete ${name} and its ${source.documents} documents? The assistant stops answering from them.`)) return;
              if (await change.run(() => admin.deleteSource(kbId, source.id))) onChanged();
            }}
          >
            Delete {name}
          </button>
        )}
      </div>
      <ErrorNote error={change.error} />
    </li>
  );
}

/** The knowledge base's sources (DESIGN.md section 11): add a website, upload files, watch them sync. */
export function Sources({ kbId, round, onChanged }: { kbId: string; round: number; onChanged(): void }) {
  const sources = useLoad(() => admin.sources(kbId), [kbId, round]);
  return (
    <section class="stack" aria-labelledby="sources-heading">
      <h2 id="sources-heading">Sources</h2>
      <div class="split">
        <AddWebsite kbId={kbId} onAdded={onChanged} />
        <UploadFiles kbId={kbId} onUploaded={onChanged} />
      </div>
      <ErrorNote error={sources.error} />
      <ul class="cards sources" aria-label="Sources">
        {sources.data?.data.map((source) => <SourceItem key={source.id} kbId={kbId} initial={source} onChanged={onChanged} />)}
      </ul>
      {sources.data?.data.length === 0 && <p class="hint">No sources yet: add a website or upload files.</p>}
    </section>
  );
}
