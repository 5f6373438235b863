/** A small line plot on a 2D canvas: shared time axis, autoscaled y, legend, vertical markers. */

export interface Series {
  label: string;
  color: string;
  /** x values (seconds). */
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  width?: number;
  dash?: number[];
  /** Draw dots at the samples instead of (or as well as) a line. */
  dots?: boolean;
  /** Radius of the dots, pixels (default 2). */
  dotRadius?: number;
  line?: boolean;
  alpha?: number;
  /** Draw as steps (hold each value until the next x). */
  steps?: boolean;
}

/** A shaded x range (a foot's contact): faint over the plot, and a bar in its lane along the bottom. */
export interface Band {
  from: number;
  to: number;
  color: string;
  /** Which bar row along the bottom, 0 the top one (see `PlotOptions.lanes`). */
  lane: number;
}

export interface PlotOptions {
  title: string;
  yLabel?: string;
  /** Vertical markers at these x values (e.g. the switch and the end of the transition). */
  markers?: { x: number; label: string }[];
  xRange?: [number, number];
  message?: string;
  /** Shaded x ranges, drawn under the series. */
  bands?: readonly Band[];
  /** Bar rows along the bottom for `bands` (each 5 px; the plot area shrinks to make room). */
  lanes?: number;
}

export function drawPlot(canvas: HTMLCanvasElement, series: readonly Series[], options: PlotOptions): void {
  const ratio = 1;
  const width = Math.max(50, Math.round(canvas.clientWidth * ratio)), height = Math.max(50, Math.round(canvas.clientHeight * ratio));
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  const g = canvas.getContext('2d')!;
  g.clearRect(0, 0, width, height);
  g.font = '10px ui-monospace, monospace';
  const lanes = options.lanes ?? 0;
  const left = 44, right = 6, top = 16, bottom = 16 + lanes * 6;
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (const s of series) {
    for (let i = 0; i < s.x.length; i++) {
      const x = s.x[i]!, y = s.y[i]!;
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      x0 = Math.min(x0, x); x1 = Math.max(x1, x);
      y0 = Math.min(y0, y); y1 = Math.max(y1, y);
    }
  }
  if (options.xRange) [x0, x1] = options.xRange;
  g.fillStyle = '#c9d2de';
  g.fillText(options.title, left, 11);
  if (!Number.isFinite(x0) || !Number.isFinite(y0)) {
    g.fillStyle = '#8a94a3';
    g.fillText(options.message ?? 'no data', left, height / 2);
    return;
  }
  if (y1 - y0 < 1e-9) { y0 -= 0.5; y1 += 0.5; }
  const pad = (y1 - y0) * 0.08;
  y0 -= pad; y1 += pad;
  if (x1 - x0 < 1e-9) x1 = x0 + 1;
  const px = (x: number): number => left + ((x - x0) / (x1 - x0)) * (width - left - right);
  const py = (y: number): number => top + (1 - (y - y0) / (y1 - y0)) * (height - top - bottom);
  // Axes and ticks.
  g.strokeStyle = '#2f3744';
  g.lineWidth = 1;
  g.beginPath();
  for (const y of niceTicks(y0, y1, 4)) {
    g.moveTo(left, py(y)); g.lineTo(width - right, py(y));
    g.fillStyle = '#7d8796';
    g.fillText(formatTick(y), 2, py(y) + 3);
  }
  for (const x of niceTicks(x0, x1, 6)) {
    g.moveTo(px(x), top); g.lineTo(px(x), height - bottom);
    g.fillStyle = '#7d8796';
    g.fillText(`${formatTick(x)}s`, px(x) - 8, height - 4);
  }
  g.stroke();
  for (const band of options.bands ?? []) {
    const a = px(band.from), b = Math.max(px(band.to), a + 1);
    g.fillStyle = band.color;
    g.globalAlpha = 0.08;
    g.fillRect(a, top, b - a, height - bottom - top);
    g.globalAlpha = 0.9;
    g.fillRect(a, height - bottom + 3 + band.lane * 6, b - a, 4);
  }
  g.globalAlpha = 1;
  for (const marker of options.markers ?? []) {
    g.strokeStyle = '#56606e';
    g.setLineDash([3, 3]);
    g.beginPath();
    g.moveTo(px(marker.x), top); g.lineTo(px(marker.x), height - bottom);
    g.stroke();
    g.setLineDash([]);
    g.fillStyle = '#8a94a3';
    g.fillText(marker.label, px(marker.x) + 3, top + 9);
  }
  for (const s of series) {
    g.globalAlpha = s.alpha ?? 1;
    g.strokeStyle = s.color;
    g.fillStyle = s.color;
    g.lineWidth = s.width ?? 1.5;
    g.setLineDash(s.dash ?? []);
    if (s.line !== false) {
      g.beginPath();
      let started = false;
      for (let i = 0; i < s.x.length; i++) {
        const x = px(s.x[i]!), y = py(s.y[i]!);
        if (!Number.isFinite(y)) continue;
        if (!started) { g.moveTo(x, y); started = true; }
        else if (s.steps) { g.lineTo(x, py(s.y[i - 1]!)); g.lineTo(x, y); }
        else g.lineTo(x, y);
      }
      g.stroke();
    }
    if (s.dots) {
      for (let i = 0; i < s.x.length; i++) {
        g.beginPath();
        g.arc(px(s.x[i]!), py(s.y[i]!), s.dotRadius ?? 2, 0, Math.PI * 2);
        g.fill();
      }
    }
  }
  g.globalAlpha = 1;
  g.setLineDash([]);
  if (options.yLabel) {
    g.fillStyle = '#7d8796';
    g.fillText(options.yLabel, width - right - g.measureText(options.yLabel).width, 11);
  }
}

function niceTicks(a: number, b: number, count: number): number[] {
  const span = b - a;
  const step0 = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(step0));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= step0) ?? step0;
  const ticks: number[] = [];
  for (let t = Math.ceil(a / step) * step; t <= b + 1e-12; t += step) ticks.push(Math.abs(t) < step * 1e-9 ? 0 : t);
  return ticks;
}

function formatTick(v: number): string {
  const a = Math.abs(v);
  return a >= 100 ? v.toFixed(0) : a >= 1 ? v.toFixed(1).replace(/\.0$/, '') : v.toPrecision(2).replace(/0+$/, '').replace(/\.$/, '');
}

/** A legend row under a plot. */
export function legend(host: HTMLElement, items: readonly { label: string; color: string; dash?: boolean }[]): void {
  host.className = 'legend';
  host.replaceChildren(
    ...items.flatMap((item) => {
      const swatch = document.createElement('i');
      swatch.style.background = item.dash ? `repeating-linear-gradient(90deg, ${item.color} 0 4px, transparent 4px 7px)` : item.color;
      return [swatch, document.createTextNode(item.label)];
    }),
  );
}
