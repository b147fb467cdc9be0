import { useState } from 'preact/hooks';
import { admin } from '../api/admin.js';
import { BarChart, ColumnChart, ShareBar } from '../components/charts.js';
import { ErrorNote, formatNumber, Loading, Title } from '../components/common.js';
import { useLoad } from '../hooks.js';

/** A share as a percentage, or a dash when there is nothing to share. */
const percent = (share: number | null): string => (share === null ? '—' : `${Math.round(share * 100)}%`);
const day = (date: Date): string => date.toISOString().slice(0, 10);
/** The day after `date` (YYYY-MM-DD), at 00:00 UTC: the API's `to` is exclusive, the form's last day inclusive. */
const dayAfter = (date: string): string => new Date(Date.parse(`${date}T00:00:00.000Z`) + 86_400_000).toISOString();

/** What visitors and operators did over a period: one chart per question (Plausible's way). */
export function Analytics() {
  const [from, setFrom] = useState(() => day(new Date(Date.now() - 29 * 86_400_000)));
  const [to, setTo] = useState(() => day(new Date()));
  const [widgetId, setWidgetId] = useState('');
  const widgets = useLoad(() => admin.widgets().then((page) => page.data), []);
  const stats = useLoad(
    () => admin.analytics({ from: `${from}T00:00:00.000Z`, to: dayAfter(to), widgetId: widgetId || undefined }),
    [from, to, widgetId],
  );
  const data = stats.data;
  return (
    <section>
      <Title title="Analytics">Usage and analytics</Title>
      <form class="filters" aria-label="Period and widget" onSubmit={(e) => e.preventDefault()}>
        <label>
          From
          <input type="date" value={from} max={to} onChange={(e) => e.currentTarget.value && setFrom(e.currentTarget.value)} />
        </label>
        <label>
          To
          <input type="date" value={to} min={from} onChange={(e) => e.currentTarget.value && setTo(e.currentTarget.value)} />
        </label>
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
      </form>
      <ErrorNote error={stats.error} />
      {!data && stats.loading && <Loading what="analytics" />}
      {data && (
        <>
          <dl class="totals">
            <div>
              <dt>Conversations</dt>
              <dd>{formatNumber(data.totals.conversations)}</dd>
            </div>
            <div>
              <dt>Messages</dt>
              <dd>{formatNumber(data.totals.messages)}</dd>
            </div>
            <div>
              <dt>Credits</dt>
              <dd>{formatNumber(data.totals.credits)}</dd>
            </div>
            <div>
              <dt>Resolution rate</dt>
              <dd>{percent(data.turns.resolutionRate)}</dd>
            </div>
            <div>
              <dt>Unanswered</dt>
              <dd>{percent(data.turns.unansweredRate)}</dd>
            </div>
          </dl>
          <div class="charts">
            <ColumnChart title="Conversations per day" unit="conversations" rows={data.conversationsPerDay.map((d) => ({ label: d.date, value: d.count }))} />
            <BarChart
              title="How conversations ended"
              unit="conversations"
              rows={[
                { label: 'Assistant', value: data.resolutions.agent },
                { label: 'Visitor', value: data.resolutions.ended },
                { label: 'Operator', value: data.resolutions.operator },
                { label: 'Expired', value: data.resolutions.expired },
              ]}
            />
            <BarChart title="Ratings" unit="ratings" rows={Object.entries(data.ratings).map(([label, value]) => ({ label, value }))} />
            <ShareBar title="Handed to a person" share={data.handoffRate} />
            <ColumnChart title="Answers resolved per day" unit="answers" rows={data.turnsPerDay.map((d) => ({ label: d.date, value: Math.max(0, d.answered - d.feedbackDown) }))} />
            <ColumnChart title="Unanswered questions per day" unit="questions" rows={data.turnsPerDay.map((d) => ({ label: d.date, value: d.unanswered }))} />
            <BarChart
              title="Feedback on answers"
              unit="ratings"
              rows={[
                { label: 'Helpful', value: data.turns.feedbackUp },
                { label: 'Not helpful', value: data.turns.feedbackDown },
              ]}
            />
            <BarChart title="Credits by bucket" unit="credits" rows={data.creditsByBucket.map((b) => ({ label: b.bucket, value: b.credits }))} />
          </div>
        </>
      )}
    </section>
  );
}
