import { useState } from 'preact/hooks';
import { admin } from '../api/admin.js';
import type { Product, SearchHits } from '../api/types.js';
import { ErrorNote, formatDate, formatNumber, Loading, Title } from '../components/common.js';
import { useAction, useLoad } from '../hooks.js';
import { href } from '../router.js';
import { jsonProblem } from './FormsEditor.js';
import { Sources } from './Sources.js';

export function KnowledgeList() {
  const bases = useLoad(() => admin.knowledgeBases(), []);
  const [name, setName] = useState('');
  const create = useAction(admin.createKnowledgeBase);
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const kb = await create.run(name.trim());
    if (kb) location.hash = href('knowledge', kb.id);
  };
  return (
    <section>
      <Title title="Knowledge">Knowledge bases</Title>
      <ErrorNote error={bases.error} />
      {bases.loading && !bases.data && <Loading what="knowledge bases" />}
      {bases.data && (
        <ul class="cards">
          {bases.data.data.map((kb) => (
            <li key={kb.id}>
              <a href={href('knowledge', kb.id)}>{kb.name}</a>
              <span class="hint">Created {formatDate(kb.createdAt)}</span>
            </li>
          ))}
          {bases.data.data.length === 0 && <li class="hint">No knowledge bases yet.</li>}
        </ul>
      )}
      <form class="inline-form" onSubmit={submit}>
        <h2>New knowledge base</h2>
        <label>
          Name
          <input required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={create.busy}>
          Create knowledge base
        </button>
        <ErrorNote error={create.error} />
      </form>
    </section>
  );
}

function Import({ kbId, onImported }: { kbId: string; onImported(): void }) {
  const [result, setResult] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const action = useAction(admin.importKnowledge);
  const choose = async (event: Event): Promise<void> => {
    const file = (event.currentTarget as HTMLInputElement).files?.[0];
    setResult('');
    setProblem(null);
    if (!file) return;
    const text = await file.text();
    const invalid = jsonProblem(text);
    if (invalid) return setProblem(`${file.name}: ${invalid}`);
    const counts = await action.run(kbId, JSON.parse(text));
    if (counts) {
      setResult(`Imported ${file.name}: ${Object.entries(counts).map(([what, n]) => `${n} ${what}`).join(', ')}.`);
      onImported();
    }
  };
  return (
    <div class="stack">
      <h2>Import</h2>
      <label>
        A JSON file as `svc knowledge import` reads it (products and documents)
        <input type="file" accept="application/json,.json" onChange={choose} disabled={action.busy} />
      </label>
      {problem ? (
        <p class="error" role="alert">
          {problem}
        </p>
      ) : (
        <ErrorNote error={action.error} />
      )}
      <p role="status" class="hint">
        {action.busy ? 'Importing…' : result}
      </p>
    </div>
  );
}

function Search({ kbId }: { kbId: string }) {
  const [text, setText] = useState('');
  const [hits, setHits] = useState<SearchHits | null>(null);
  const action = useAction(admin.search);
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const found = await action.run(kbId, text.trim());
    if (found) setHits(found);
  };
  return (
    <div class="stack">
      <h2>Try a search</h2>
      <form class="row" onSubmit={submit} role="search">
        <label class="grow">
          What a visitor might ask
          <input type="search" required value={text} onInput={(e) => setText(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={action.busy}>
          Search
        </button>
      </form>
      <ErrorNote error={action.error} />
      {hits && (
        <div aria-live="polite">
          <h3>Passages ({hits.passages.length})</h3>
          <ol>
            {hits.passages.map((hit) => (
              <li key={`${hit.documentId}-${hit.rank}`}>
                <strong>{hit.title}</strong>: {hit.content}{' '}
                <span class="hint">
                  confidence {formatNumber(hit.confidence)} · found by {hit.retrievers.join(' and ')}
                </span>
              </li>
            ))}
          </ol>
          <h3>Products ({hits.products.length})</h3>
          <ol>
            {hits.products.map((product) => (
              <li key={product.id}>
                {product.name} · {formatNumber(product.price)} {product.currency ?? ''}
              </li>
            ))}
          </ol>
        </div>
      )}
    </div>
  );
}

function ProductTable({ kbId, round }: { kbId: string; round: number }) {
  const first = useLoad(() => admin.products(kbId), [kbId, round]);
  const [more, setMore] = useState<{ items: Product[]; cursor: string | null } | null>(null);
  const items = [...(first.data?.data ?? []), ...(more?.items ?? [])];
  const cursor = more ? more.cursor : first.data?.nextCursor ?? null;
  const next = async (): Promise<void> => {
    if (!cursor) return;
    const page = await admin.products(kbId, cursor);
    setMore({ items: [...(more?.items ?? []), ...page.data], cursor: page.nextCursor });
  };
  return (
    <div class="stack">
      <h2>Products</h2>
      <ErrorNote error={first.error} />
      <div class="table-scroll">
        <table>
          <caption class="sr-only">Products</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Price</th>
              <th scope="col">Id</th>
            </tr>
          </thead>
          <tbody>
            {items.map((product) => (
              <tr key={product.id}>
                <td>{product.name}</td>
                <td>
                  {formatNumber(product.price)} {product.currency ?? ''}
                </td>
                <td>
                  <code>{product.id}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {items.length === 0 && !first.loading && <p class="hint">No products.</p>}
      {cursor && (
        <button type="button" class="secondary" onClick={next}>
          More products
        </button>
      )}
    </div>
  );
}

export function KnowledgeBaseScreen({ kbId }: { kbId: string }) {
  const [round, setRound] = useState(0);
  const kb = useLoad(() => admin.knowledgeBase(kbId), [kbId, round]);
  const documents = useLoad(() => admin.documents(kbId), [kbId, round]);
  return (
    <section>
      <p>
        <a href={href('knowledge')}>← All knowledge bases</a>
      </p>
      <Title title="Knowledge base">{kb.data ? `Knowledge base: ${kb.data.name}` : 'Knowledge base'}</Title>
      <ErrorNote error={kb.error} />
      {kb.data && (
        <p class="hint">
          {kb.data.products ?? 0} products, {kb.data.documents ?? 0} documents · {kb.data.id}
        </p>
      )}
      {kb.data?.embeddings && (
        <p class="hint">
          <label>
            Embeddings ({kb.data.embeddings.model}): {kb.data.embeddings.embedded} of {kb.data.embeddings.passages} passages{' '}
            <progress max={Math.max(1, kb.data.embeddings.passages)} value={kb.data.embeddings.embedded} />
          </label>
        </p>
      )}
      <Sources kbId={kbId} round={round} onChanged={() => setRound((n) => n + 1)} />
      <div class="split">
        <Import kbId={kbId} onImported={() => setRound((n) => n + 1)} />
        <Search kbId={kbId} />
      </div>
      <ProductTable kbId={kbId} round={round} />
      <div class="stack">
        <h2>Documents</h2>
        <ErrorNote error={documents.error} />
        <ul>
          {documents.data?.data.map((doc) => (
            <li key={doc.id}>
              {doc.url ? (
                <a href={doc.url} target="_blank" rel="noopener noreferrer">
                  {doc.title}
                </a>
              ) : (
                doc.title
              )}{' '}
              <span class="hint">{formatDate(doc.createdAt)}</span>
            </li>
          ))}
        </ul>
        {documents.data?.data.length === 0 && <p class="hint">No documents.</p>}
      </div>
    </section>
  );
}
