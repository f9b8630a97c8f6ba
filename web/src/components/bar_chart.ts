// A stacked bar chart (one bar per category, one colour per series) drawn with uPlot,
// with the same numbers as a table for those who cannot see the chart.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { h } from '../dom';
import { formatAmount, formatTick } from '../format';

export interface BarSeries {
  label: string;
  values: number[];
  color: string;
}

export interface BarChartSpec {
  /** Accessible name of the chart and caption of its table. */
  title: string;
  categories: string[];
  series: BarSeries[];
  /** The unit of the values, for the axis and the table ("core-hours", "jobs"). */
  unit: string;
  digits?: number;
}

/** Returns the chart's element and a function that removes it (stops resizing). */
export function barChart(spec: BarChartSpec): { el: HTMLElement; destroy: () => void } {
  const digits = spec.digits ?? 2;
  const n = spec.categories.length;
  const xs = spec.categories.map((_c, i) => i);
  // Stacked by drawing each series' running total, tallest first, so each shows its own part.
  const totals: number[][] = [];
  spec.series.forEach((sr, k) => {
    totals.push(sr.values.map((v, i) => v + (k > 0 ? totals[k - 1][i] : 0)));
  });
  const order = spec.series.map((_s, k) => k).reverse();
  const top = Math.max(0, ...(totals[totals.length - 1] ?? [0]));

  const chartBox = h('div', { class: 'chart-canvas', role: 'img', 'aria-label': `${spec.title} (bar chart; the numbers are in the table below)` });
  const table = dataTable(spec, digits);
  const el = h('div', { class: 'chart' },
    chartBox,
    h('details', { class: 'chart-table' }, h('summary', {}, 'Show the numbers'), table),
  );

  let plot: uPlot | null = null;
  let observer: ResizeObserver | null = null;
  const bars = uPlot.paths.bars!({ size: [0.6, 56], align: 0 });

  const make = (width: number) => {
    const opts: uPlot.Options = {
      width,
      height: 240,
      legend: { show: true, live: true },
      cursor: { points: { show: false }, drag: { x: false, y: false } },
      scales: {
        x: { time: false, range: [-0.5, n - 0.5] },
        y: { range: [0, top > 0 ? top * 1.12 : 1] },
      },
      axes: [
        {
          splits: () => xs,
          // Narrow bars: the label's last word (the year) goes on a second line.
          values: (u, splits) => {
            const narrow = u.width / Math.max(1, n) < 80;
            return splits.map((i) => {
              const c = spec.categories[i] ?? '';
              return narrow ? c.replace(/ (\S+)$/, '\n$1') : c;
            });
          },
          size: 48,
          grid: { show: false },
          stroke: '#3d4451',
          ticks: { show: false },
        },
        {
          label: spec.unit,
          stroke: '#3d4451',
          // Wide enough for the longest value, so the axis name never covers them.
          size: (_u, values) => 18 + 7 * Math.max(1, ...(values ?? []).map((v) => String(v).length)),
          values: (_u, splits) => splits.map((v) => formatTick(v)),
          grid: { stroke: '#e3e7ec', width: 1 },
          ticks: { show: false },
        },
      ],
      series: [
        { label: 'Month', value: (_u, v) => (v === null || v === undefined ? 'all' : (spec.categories[v] ?? '')) },
        ...order.map((k) => ({
          label: spec.series[k].label,
          fill: spec.series[k].color,
          stroke: spec.series[k].color,
          width: 0,
          paths: bars,
          points: { show: false },
          // Under the pointer: that month's value; elsewhere: the total of all months.
          value: (_u: uPlot, _v: number, _si: number, idx: number | null) =>
            formatAmount(idx === null ? spec.series[k].values.reduce((a, b) => a + b, 0) : (spec.series[k].values[idx] ?? 0), digits),
        })),
      ],
    };
    const data = [xs, ...order.map((k) => totals[k])] as uPlot.AlignedData;
    return new uPlot(opts, data, chartBox);
  };

  // Drawn once the element is in the page and has a width; redrawn to fit when that changes.
  observer = new ResizeObserver(() => {
    const width = Math.floor(chartBox.clientWidth);
    if (width <= 0) return;
    if (!plot) plot = make(width);
    else if (Math.abs(plot.width - width) > 1) plot.setSize({ width, height: 240 });
  });
  observer.observe(chartBox);

  return {
    el,
    destroy: () => {
      observer?.disconnect();
      plot?.destroy();
    },
  };
}

function dataTable(spec: BarChartSpec, digits: number): HTMLTableElement {
  return h('table', { class: 'data-table' },
    h('caption', {}, `${spec.title} (${spec.unit})`),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, 'Month'),
      spec.series.map((sr) => h('th', { scope: 'col', class: 'num' }, sr.label)),
      h('th', { scope: 'col', class: 'num' }, 'Total'))),
    h('tbody', {}, spec.categories.map((c, i) => h('tr', {},
      h('th', { scope: 'row' }, c),
      spec.series.map((sr) => h('td', { class: 'num' }, formatAmount(sr.values[i] ?? 0, digits))),
      h('td', { class: 'num' }, formatAmount(spec.series.reduce((a, sr) => a + (sr.values[i] ?? 0), 0), digits))))),
  );
}
