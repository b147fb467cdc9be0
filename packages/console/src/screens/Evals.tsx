import { useEffect, useState } from 'preact/hooks';
import { admin } from '../api/admin.js';
import type { EvalRun, EvalSuite } from '../api/types.js';
import { ErrorNote, formatDate, Loading, Title } from '../components/common.js';
import { useAction, useLoad } from '../hooks.js';
import { href } from '../router.js';

const running = (run: EvalRun): boolean => run.status === 'queued' || run.status === 'running';

/** A run's cases: pass or fail, what failed, what the assistant said and cited. */
function RunDetail({ run }: { run: EvalRun }) {
  const regressed = new Set(run.regressions);
  return (
    <section aria-labelledby={`run-${run.id}`} class="eval-run">
      <h3 id={`run-${run.id}`}>
        Run of “{run.suite}”: {run.status} ({run.passed} of {run.total} passed)
      </h3>
      {run.regressions.length > 0 && <p class="error">Regressions since the previous run: {run.regressions.join(', ')}</p>}
      {run.error && <p class="error">{run.error}</p>}
      {running(run) && <Loading what="the remaining cases" />}
      <table>
        <caption class="hint">Each case ran as a conversation; evaluation sessions are never billed nor counted in analytics.</caption>
        <thead>
          <tr>
            <th scope="col">Case</th>
            <th scope="col">Result</th>
            <th scope="col">Failures</th>
            <th scope="col">Reply</th>
          </tr>
        </thead>
        <tbody>
          {run.cases.map((c) => (
            <tr key={c.name}>
              <th scope="row">{c.sessionId ? <a href={href('conversations', run.widgetId, c.sessionId)}>{c.name}</a> : c.name}</th>
              <td>{c.passed ? 'Passed' : regressed.has(c.name) ? 'Failed (regression)' : 'Failed'}</td>
              <td>{c.failures.length ? <ul>{c.failures.map((failure) => <li key={failure}>{failure}</li>)}</ul> : '—'}</td>
              <td>
                {c.reply}
                {c.sources.length > 0 && <span class="hint"> (sources: {c.sources.map((s) => s.title).join(', ')})</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** A widget's eval suites with a Run button each, its runs with pass/fail per case (DESIGN.md section 12). */
export function EvalsScreen({ widgetId }: { widgetId: string }) {
  const suites = useLoad<EvalSuite[]>(() => admin.evalSuites(widgetId), [widgetId]);
  const runs = useLoad(() => admin.evalRuns(widgetId).then((page) => page.data), [widgetId]);
  const [shown, setShown] = useState<string | null>(null);
  const start = useAction((suite: EvalSuite) => admin.startEvalRun(widgetId, { name: suite.name, cases: suite.cases }));
  const selected = runs.data?.find((run) => run.id === shown) ?? runs.data?.[0];

  // While a run is under way its page is read again every second.
  useEffect(() => {
    if (!runs.data?.some(running)) return;
    const timer = setTimeout(runs.reload, 1_000);
    return () => clearTimeout(timer);
  }, [runs.data]);

  const run = async (suite: EvalSuite): Promise<void> => {
    const queued = await start.run(suite);
    if (queued) {
      setShown(queued.id);
      runs.reload();
    }
  };

  return (
    <section>
      <p>
        <a href={href('widgets', widgetId)}>← The widget</a>
      </p>
      <Title title="Evals">Evals</Title>
      <p class="hint">
        A suite's cases run as real conversations through this widget's assistant. Add cases from a conversation's page, or store suites with
        the admin API or <code>svc eval run</code>.
      </p>
      <h2>Suites</h2>
      <ErrorNote error={suites.error ?? start.error} />
      {!suites.data && suites.loading && <Loading what="the suites" />}
      {suites.data?.length === 0 && <p>No suite yet.</p>}
      {suites.data && suites.data.length > 0 && (
        <ul class="eval-suites">
          {suites.data.map((suite) => (
            <li key={suite.name} class="row">
              <strong>{suite.name}</strong>
              <span class="hint">
                {suite.cases.length} case{suite.cases.length === 1 ? '' : 's'}
              </span>
              <button type="button" disabled={start.busy} onClick={() => run(suite)} aria-label={`Run ${suite.name}`}>
                Run
              </button>
            </li>
          ))}
        </ul>
      )}
      <h2>Runs</h2>
      <ErrorNote error={runs.error} />
      {runs.data?.length === 0 && <p>No run yet.</p>}
      {runs.data && runs.data.length > 0 && (
        <ul class="eval-runs">
          {runs.data.map((r) => (
            <li key={r.id}>
              <button type="button" class="secondary" aria-pressed={r.id === selected?.id} onClick={() => setShown(r.id)}>
                {r.suite}: {r.status}, {r.passed}/{r.total} passed
                {r.regressions.length > 0 ? `, ${r.regressions.length} regression${r.regressions.length === 1 ? '' : 's'}` : ''} ·{' '}
                {formatDate(r.createdAt)}
              </button>
            </li>
          ))}
        </ul>
      )}
      {selected && <RunDetail run={selected} />}
    </section>
  );
}
