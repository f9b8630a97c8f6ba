// A workflow's steps as a graph: a simple layered layout (each step one layer below
// the deepest step it needs), drawn in SVG, each step coloured and labelled by state.
import { s } from '../dom';
import { stateSymbol, stateTone, stateWord } from '../format';
import type { Step } from '../types';

const W = 168; // node width
const H = 54; // node height
const GAP_X = 24;
const GAP_Y = 44;
const PAD = 12;

interface Placed {
  step: Step;
  layer: number;
  x: number;
  y: number;
}

/** Layers: a step's layer is 1 + the deepest layer of the steps it needs (0 without needs). */
export function layers(steps: Step[]): Step[][] {
  const byName = new Map(steps.map((st) => [st.name, st]));
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const depthOf = (st: Step): number => {
    const known = depth.get(st.name);
    if (known !== undefined) return known;
    if (visiting.has(st.name)) return 0; // a cycle: break it here
    visiting.add(st.name);
    let d = 0;
    for (const n of st.needs ?? []) {
      const parent = byName.get(n);
      if (parent) d = Math.max(d, depthOf(parent) + 1);
    }
    visiting.delete(st.name);
    depth.set(st.name, d);
    return d;
  };
  const out: Step[][] = [];
  for (const st of steps) {
    const d = depthOf(st);
    (out[d] ??= []).push(st);
  }
  // Fewer crossings: order each layer by the mean position of the steps it needs.
  for (let i = 1; i < out.length; i++) {
    const pos = new Map((out[i - 1] ?? []).map((st, k) => [st.name, k]));
    const key = (st: Step, k: number) => {
      const ps = (st.needs ?? []).map((n) => pos.get(n)).filter((p): p is number => p !== undefined);
      return ps.length ? ps.reduce((a, b) => a + b, 0) / ps.length : k;
    };
    const layer = out[i] ?? [];
    out[i] = layer.map((st, k) => ({ st, k: key(st, k) })).sort((a, b) => a.k - b.k).map((e) => e.st);
  }
  return out.filter((l) => l && l.length);
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Draws the graph; call again with new steps to redraw (cheap: a few nodes). */
export function workflowGraph(steps: Step[]): SVGSVGElement {
  const ls = layers(steps);
  const widest = Math.max(1, ...ls.map((l) => l.length));
  const width = PAD * 2 + widest * W + (widest - 1) * GAP_X;
  const height = PAD * 2 + ls.length * H + Math.max(0, ls.length - 1) * GAP_Y;
  const placed = new Map<string, Placed>();
  ls.forEach((layer, li) => {
    const rowWidth = layer.length * W + (layer.length - 1) * GAP_X;
    const x0 = (width - rowWidth) / 2;
    layer.forEach((step, k) => {
      placed.set(step.name, { step, layer: li, x: x0 + k * (W + GAP_X), y: PAD + li * (H + GAP_Y) });
    });
  });

  // Shrinks to fit a narrow screen, down to 60 % (then the box scrolls sideways).
  const svg = s('svg', {
    class: 'wf-graph', width, height, viewBox: `0 0 ${width} ${height}`, role: 'list',
    style: `min-width:${Math.round(width * 0.6)}px`,
    'aria-label': `Workflow steps (${steps.length})`, 'data-testid': 'workflow-graph',
  });
  svg.append(
    s('defs', {},
      s('marker', { id: 'wf-arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
        s('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'wf-arrowhead' }))),
  );
  const edges = s('g', { class: 'wf-edges', 'aria-hidden': 'true' });
  for (const p of placed.values()) {
    for (const need of p.step.needs ?? []) {
      const from = placed.get(need);
      if (!from) continue;
      const x1 = from.x + W / 2;
      const y1 = from.y + H;
      const x2 = p.x + W / 2;
      const y2 = p.y - 2;
      const my = (y1 + y2) / 2;
      edges.append(s('path', { d: `M ${x1} ${y1} C ${x1} ${my}, ${x2} ${my}, ${x2} ${y2}`, class: 'wf-edge', 'marker-end': 'url(#wf-arrow)' }));
    }
  }
  svg.append(edges);
  for (const p of placed.values()) {
    const { step } = p;
    const needs = step.needs?.length ? `, after ${step.needs.join(', ')}` : '';
    svg.append(
      s('g', {
        class: `wf-node tone-${stateTone(step.state)}`, transform: `translate(${p.x},${p.y})`, role: 'listitem',
        'aria-label': `Step ${step.name}: ${stateWord(step.state)}${needs}`,
        'data-testid': `step-${step.name}`, 'data-state': step.state,
      },
        s('title', {}, `${step.name}: ${stateWord(step.state)}`),
        s('rect', { width: W, height: H, rx: 8, ry: 8, class: 'wf-box' }),
        s('text', { x: 12, y: 22, class: 'wf-name' }, clip(step.name, 20)),
        s('text', { x: 12, y: 42, class: 'wf-state' }, `${stateSymbol(step.state)} ${stateWord(step.state)}`),
      ),
    );
  }
  return svg;
}
