/**
 * Hand-written SVG charts, one question each. Every chart is an image with a text summary for screen readers
 * (`role="img"` and a label) and its numbers in a table below it, so nothing is only in the picture.
 */
import { formatNumber } from './common.js';

export interface Row {
  label: string;
  value: number;
}

function DataTable({ caption, rows, unit }: { caption: string; rows: Row[]; unit: string }) {
  return (
    <details class="chart-table">
      <summary>{caption}: as a table</summary>
      <table>
        <caption class="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">{unit}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              <td>{formatNumber(row.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

const summary = (rows: Row[], unit: string): string =>
  rows.length === 0 ? 'No data.' : rows.map((row) => `${row.label}: ${formatNumber(row.value)} ${unit}`).join('; ');

/** Horizontal bars: a few categories compared. */
export function BarChart({ title, rows, unit }: { title: string; rows: Row[]; unit: string }) {
  const max = Math.max(1, ...rows.map((row) => row.value));
  const rowHeight = 28;
  const height = Math.max(rowHeight, rows.length * rowHeight);
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 320 ${height}`} role="img" aria-label={`${title}. ${summary(rows, unit)}`} preserveAspectRatio="xMinYMin meet">
        {rows.map((row, i) => {
          const width = (row.value / max) * 200;
          const y = i * rowHeight;
          return (
            <g key={row.label}>
              <text x="0" y={y + 18} class="axis">
                {row.label}
              </text>
              <rect x="100" y={y + 5} width={Math.max(row.value > 0 ? 2 : 0, width)} height="18" rx="3" class="bar" />
              <text x={104 + width} y={y + 18} class="value">
                {formatNumber(row.value)}
              </text>
            </g>
          );
        })}
      </svg>
      <DataTable caption={title} rows={rows} unit={unit} />
    </figure>
  );
}

/** Columns over time: one per day, the first and last day labelled. */
export function ColumnChart({ title, rows, unit }: { title: string; rows: Row[]; unit: string }) {
  const max = Math.max(1, ...rows.map((row) => row.value));
  const width = 320;
  const height = 140;
  const plot = height - 24;
  const step = rows.length > 0 ? width / rows.length : width;
  const total = rows.reduce((sum, row) => sum + row.value, 0);
  const peak = rows.reduce<Row | null>((best, row) => (!best || row.value > best.value ? row : best), null);
  const label = rows.length
    ? `${title}. ${formatNumber(total)} ${unit} over ${rows.length} days, from ${rows[0]!.label} to ${rows.at(-1)!.label}; most on ${peak!.label} (${formatNumber(peak!.value)}).`
    : `${title}. No data.`;
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} preserveAspectRatio="xMinYMin meet">
        <line x1="0" y1={plot} x2={width} y2={plot} class="baseline" />
        <text x={width} y="10" class="axis" text-anchor="end">
          max {formatNumber(max)}
        </text>
        {rows.map((row, i) => {
          const h = (row.value / max) * (plot - 16);
          return <rect key={row.label} x={i * step + step * 0.15} y={plot - h} width={Math.max(1, step * 0.7)} height={h} rx="2" class="bar" />;
        })}
        {rows.length > 0 && (
          <>
            <text x="0" y={height - 6} class="axis">
              {rows[0]!.label}
            </text>
            <text x={width} y={height - 6} class="axis" text-anchor="end">
              {rows.at(-1)!.label}
            </text>
          </>
        )}
      </svg>
      <DataTable caption={title} rows={rows} unit={unit} />
    </figure>
  );
}

/** A share (0..1) as a bar filled to it. */
export function ShareBar({ title, share }: { title: string; share: number }) {
  const percent = Math.round(Math.min(1, Math.max(0, share)) * 1000) / 10;
  return (
    <figure class="chart">
      <figcaption>
        {title}: <strong>{percent}%</strong>
      </figcaption>
      <svg viewBox="0 0 320 24" aria-hidden="true">
        <rect x="0" y="4" width="320" height="16" rx="8" class="track" />
        <rect x="0" y="4" width={(percent / 100) * 320} height="16" rx="8" class="bar" />
      </svg>
    </figure>
  );
}
