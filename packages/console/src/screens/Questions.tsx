import { useState } from 'preact/hooks';
import { admin } from '../api/admin.js';
import type { QuestionGroup } from '../api/types.js';
import { ErrorNote, formatDate, formatNumber, Loading, Title } from '../components/common.js';
import { useAction, useLoad } from '../hooks.js';
import { href } from '../router.js';

const KINDS: Record<QuestionGroup['kind'], string> = { unanswered: 'Unanswered', thumbs_down: 'Rated down' };
/** Sample conversations shown per group. */
const SAMPLES = 5;

/** The last 14 days as small bars: an image with its numbers in words. */
function Trend({ trend }: { trend: QuestionGroup['trend'] }) {
  const max = Math.max(1, ...trend.map((day) => day.count));
  const total = trend.reduce((sum, day) => sum + day.count, 0);
  return (
    <svg class="trend" viewBox={`0 0 ${trend.length * 8} 24`} role="img" aria-label={`Last ${trend.length} days: ${formatNumber(total)} times, ${trend.map((day) => `${day.date}: ${day.count}`).join(', ')}`}>
      {trend.map((day, i) => {
        const height = day.count === 0 ? 1 : Math.max(3, (day.count / max) * 24);
        return <rect key={day.date} x={i * 8} y={24 - height} width="6" height={height} class="bar" />;
      })}
    </svg>
  );
}

/** "Write the answer": a knowledge document the next turn answers from; the group is then resolved. */
function AnswerForm({ group, onAnswered }: { group: QuestionGroup; onAnswered(title: string): void }) {
  const [title, setTitle] = useState(group.sample);
  const [content, setContent] = useState('');
  const [knowledgeBaseId, setKnowledgeBaseId] = useState('');
  const bases = useLoad(() => admin.knowledgeBases().then((page) => page.data), []);
  const answer = useAction(() => admin.answerQuestion(group.id, { title, content, ...(knowledgeBaseId ? { knowledgeBaseId } : {}) }));
  return (
    <form
      class="stack inline-form"
      aria-label={`Answer: ${group.sample}`}
      onSubmit={async (event) => {
        event.preventDefault();
        const written = await answer.run();
        if (written) onAnswered(written.title);
      }}
    >
      <label>
        Title
        <input value={title} maxLength={300} required onInput={(e) => setTitle(e.currentTarget.value)} />
      </label>
      <label>
        Answer
        <textarea rows={5} value={content} required onInput={(e) => setContent(e.currentTarget.value)} />
      </label>
      <label>
        Knowledge base
        <select value={knowledgeBaseId} onChange={(e) => setKnowledgeBaseId(e.currentTarget.value)}>
          <option value="">The widget's first</option>
          {bases.data?.map((kb) => (
            <option key={kb.id} value={kb.id}>
              {kb.name}
            </option>
          ))}
        </select>
      </label>
      <ErrorNote error={answer.error} />
      <div class="row">
        <button type="submit" disabled={answer.busy}>
          Add to the knowledge base
        </button>
      </div>
    </form>
  );
}

function GroupCard({ group, onChanged }: { group: QuestionGroup; onChanged(note: string): void }) {
  const [writing, setWriting] = useState(false);
  const dismiss = useAction(() => admin.dismissQuestion(group.id));
  return (
    <li class="stack card" data-testid="question-group">
      <h2 class="question">{group.sample}</h2>
      <p class="hint">
        {KINDS[group.kind]} · asked {formatNumber(group.count)} {group.count === 1 ? 'time' : 'times'} · first {formatDate(group.firstAskedAt)} · last{' '}
        {formatDate(group.lastAskedAt)}
      </p>
      <Trend trend={group.trend} />
      <ul class="row samples" aria-label="Conversations that asked">
        {group.sessions
          .slice(-SAMPLES)
          .reverse()
          .map((sessionId) => (
            <li key={sessionId}>
              <a href={href('conversations', group.widgetId, sessionId)}>{sessionId}</a>
            </li>
          ))}
      </ul>
      {group.status === 'open' && (
        <div class="row">
          <button type="button" aria-expanded={writing} onClick={() => setWriting(!writing)}>
            Write the answer
          </button>
          <button
            type="button"
            class="secondary"
            disabled={dismiss.busy}
            onClick={async () => {
              if (await dismiss.run()) onChanged(`Dismissed “${group.sample}”.`);
            }}
          >
            Dismiss
          </button>
        </div>
      )}
      <ErrorNote error={dismiss.error} />
      {writing && group.status === 'open' && <AnswerForm group={group} onAnswered={(title) => onChanged(`Added “${title}” to the knowledge base.`)} />}
    </li>
  );
}

/** What the assistant could not answer, grouped by similarity: answer a group once, every later visitor benefits. */
export function Questions() {
  const [widgetId, setWidgetId] = useState('');
  const [status, setStatus] = useState<QuestionGroup['status']>('open');
  const [note, setNote] = useState('');
  const widgets = useLoad(() => admin.widgets().then((page) => page.data), []);
  const groups = useLoad(() => admin.questions({ widgetId: widgetId || undefined, status }), [widgetId, status]);
  const changed = (text: string): void => {
    setNote(text);
    groups.reload();
  };
  return (
    <section>
      <Title title="Questions">Questions</Title>
      <p class="hint">Questions the assistant could not answer, and questions whose reply a visitor rated down, grouped by similarity.</p>
      <form class="filters" aria-label="Widget and status" onSubmit={(e) => e.preventDefault()}>
        <label>
          Widget
          <select value={widgetId} onChange={(e) => setWidgetId(e.currentTarget.value)}>
            <option value="">All widgets</option>
            {widgets.data?.map((widget) => (
              <option key={widget.id} value={widget.id}>
                {widget.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select value={status} onChange={(e) => setStatus(e.currentTarget.value as QuestionGroup['status'])}>
            <option value="open">Open</option>
            <option value="resolved">Answered</option>
            <option value="dismissed">Dismissed</option>
          </select>
        </label>
      </form>
      <p role="status" class="hint">
        {note}
      </p>
      <ErrorNote error={groups.error} />
      {!groups.data && groups.loading && <Loading what="questions" />}
      {groups.data && groups.data.data.length === 0 && <p class="hint">No questions here.</p>}
      <ul class="cards">
        {groups.data?.data.map((group) => (
          <GroupCard key={group.id} group={group} onChanged={changed} />
        ))}
      </ul>
    </section>
  );
}
