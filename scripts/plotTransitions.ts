/**
 * `npm run plot:transitions`: draws one joint's rotation angle over time for the same clip
 * switch done four ways (cross-fade with a linear and a minimum-jerk curve, quintic and spring
 * inertialization) and writes it as a hand-written SVG, `docs/transitions.svg`; prints a table
 * of the velocity jump at the switch and the settling time of each mode.
 *
 * The motion. A two-joint skeleton (hips → arm); only the arm moves, about Z:
 * - source clip: a swing θ(t) = sin(2π t) rad (1 rad amplitude, 1 Hz), keyed at 120 fps;
 * - target clip: a still pose, θ = −0.6 rad.
 * At t = 0.5 s the source passes through 0 at its fastest (−2π rad/s) heading toward the
 * target, so the modes differ where it shows: a linear fade bends the velocity at once,
 * inertialization carries the source's velocity on and lets it decay.
 *
 * Everything goes through the public API: one world, one character per mode plus one per
 * reference clip, `play`, `transition(…, { duration: 0.5 })` after frame 30 (t = 0.5 s), then
 * `step(world, 1/60)` and `getLocalPose` every frame up to 2 s. The angle is read back from the
 * arm's local quaternion as 2·atan2(q_z, q_w).
 *
 * Usage: `node .bench-build/scripts/plotTransitions.js [out.svg]` (default: docs/transitions.svg
 * of the repository, found from this file's location, so the working directory does not matter).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createAnimationWorld,
  createClip,
  createSkeleton,
  findJoint,
  getLocalPose,
  play,
  spawnCharacter,
  step,
  transition,
  type Clip,
  type Skeleton,
  type TransitionOptions,
} from '../src/index.js';
import { POSE_STRIDE } from '../src/kernels.js';

/** Frame rate of the simulation, Hz. */
const RATE = 60;
/** Simulated seconds. */
const SECONDS = 2;
/** Frames after which `transition` is called (t = 0.5 s). */
const SWITCH_FRAME = 30;
/** Transition duration, seconds. */
const DURATION = 0.5;
/** Source swing: amplitude (rad) and frequency (Hz). */
const SWING_AMPLITUDE = 1;
const SWING_HZ = 1;
/** Target pose angle, rad. */
const TARGET_ANGLE = -0.6;
/** "At the target" tolerance of the settling time, rad. */
const SETTLE_TOLERANCE = 1e-3;

/** One switch to compare: how it is drawn and the `transition` options that make it. */
interface Variant {
  readonly label: string;
  readonly colour: string;
  readonly options: TransitionOptions;
}

const VARIANTS: readonly Variant[] = [
  { label: 'cross-fade, linear', colour: '#D55E00', options: { duration: DURATION, mode: 'crossfade', curve: 'linear' } },
  { label: 'cross-fade, minjerk', colour: '#CC79A7', options: { duration: DURATION, mode: 'crossfade', curve: 'minjerk' } },
  { label: 'inertialization, quintic', colour: '#0072B2', options: { duration: DURATION, mode: 'inertialize' } },
  { label: 'inertialization, spring', colour: '#009E73', options: { duration: DURATION, mode: 'spring' } },
];

/** A sampled curve: `angle[k]` at `k / RATE` seconds. */
interface Series {
  readonly label: string;
  readonly colour: string;
  readonly angle: Float64Array;
}

/** What the table reports for one mode. */
interface Row {
  readonly label: string;
  /** |ω⁺ − ω⁻| at the switch instant, rad/s. */
  readonly jumpAtSwitch: number;
  /** The same at switch + duration (where a cross-fade's weights meet). */
  readonly jumpAtEnd: number;
  /** First time from which the output stays within the tolerance of the target; NaN if never. */
  readonly settledAt: number;
}

function main(): void {
  const out = resolve(process.argv[2] ?? fileURLToPath(new URL('../../docs/transitions.svg', import.meta.url)));
  const { source, target, outputs } = simulate();
  const rows = outputs.map((series) => measureRow(series, target));

  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, renderSvg(outputs, source, target));

  console.log(`# transitions: one joint, source swing ${SWING_AMPLITUDE} rad at ${SWING_HZ} Hz → still pose at ${TARGET_ANGLE} rad`);
  console.log(`# switch at t = ${SWITCH_FRAME / RATE} s, duration ${DURATION} s, sampled at ${RATE} Hz for ${SECONDS} s\n`);
  console.log(`| mode | velocity jump at the switch, rad/s | velocity jump at switch + ${DURATION} s, rad/s | within ${SETTLE_TOLERANCE} rad of the target from |`);
  console.log('| --- | ---: | ---: | ---: |');
  for (const r of rows) {
    const settled = Number.isNaN(r.settledAt) ? `not by ${SECONDS} s` : `${r.settledAt.toFixed(3)} s (switch + ${(r.settledAt - SWITCH_FRAME / RATE).toFixed(3)} s)`;
    console.log(`| ${r.label} | ${r.jumpAtSwitch.toFixed(3)} | ${r.jumpAtEnd.toFixed(3)} | ${settled} |`);
  }
  console.log(`\n- velocity jump = |ω⁺ − ω⁻|, the one-sided angular velocities after and before the instant (second-order`);
  console.log(`  differences over two frames each side): ~0 on a smooth curve, the size of the step at a kink.`);
  console.log(`  The source alone gives ${jumpAt(source.angle, SWITCH_FRAME).toFixed(3)} rad/s at the switch; its speed there is ${(2 * Math.PI * SWING_HZ * SWING_AMPLITUDE).toFixed(2)} rad/s.`);
  console.log(`- wrote ${relative(process.cwd(), out) || out}`);
}

// ---------------------------------------------------------------- simulation (public API only)

/** Runs every variant and both reference clips in one world; returns the sampled angles. */
function simulate(): { source: Series; target: Series; outputs: Series[] } {
  const skeleton = createSkeleton({
    names: ['hips', 'arm'],
    parents: [-1, 0],
    rest: [0, 1, 0, 0, 0, 0, 1, 1, 1, 1, /* arm: */ 0, 0.3, 0, 0, 0, 0, 1, 1, 1, 1],
  });
  const arm = findJoint(skeleton, 'arm');
  const swing = armClip(skeleton, 'swing', 120, 121, (t) => SWING_AMPLITUDE * Math.sin(2 * Math.PI * SWING_HZ * t));
  const still = armClip(skeleton, 'still', 30, 1, () => TARGET_ANGLE);

  const world = createAnimationWorld({ maxEntities: VARIANTS.length + 2, maxJoints: skeleton.jointCount });
  const eids = VARIANTS.map(() => spawnCharacter(world, skeleton));
  const sourceEid = spawnCharacter(world, skeleton);
  const targetEid = spawnCharacter(world, skeleton);
  for (const eid of eids) play(world, eid, swing);
  play(world, sourceEid, swing);
  play(world, targetEid, still);

  const frames = SECONDS * RATE;
  const angles = [...eids, sourceEid, targetEid].map(() => new Float64Array(frames + 1));
  const record = (k: number): void => {
    [...eids, sourceEid, targetEid].forEach((eid, n) => {
      angles[n]![k] = jointAngle(getLocalPose(world, eid), arm);
    });
  };
  step(world, 0); // evaluate the first pose without moving time
  record(0);
  for (let k = 1; k <= frames; k++) {
    if (k - 1 === SWITCH_FRAME) VARIANTS.forEach((v, n) => transition(world, eids[n]!, still, v.options));
    step(world, 1 / RATE);
    record(k);
  }
  return {
    outputs: VARIANTS.map((v, n) => ({ label: v.label, colour: v.colour, angle: angles[n]! })),
    source: { label: 'source clip alone', colour: '#555555', angle: angles[VARIANTS.length]! },
    target: { label: `target clip alone (${formatTick(TARGET_ANGLE)} rad)`, colour: '#111111', angle: angles[VARIANTS.length + 1]! },
  };
}

/** A looping clip that turns the arm about Z by `angle(t)`, keyed at `frameRate` (hips still). */
function armClip(skeleton: Skeleton, name: string, frameRate: number, frameCount: number, angle: (t: number) => number): Clip {
  const frames: number[] = [];
  for (let f = 0; f < frameCount; f++) {
    const half = angle(f / frameRate) / 2;
    frames.push(0, 1, 0, 0, 0, 0, 1, 1, 1, 1);
    frames.push(0, 0.3, 0, 0, 0, Math.sin(half), Math.cos(half), 1, 1, 1);
  }
  return createClip({ skeleton, frameRate, frames, loop: true, name });
}

/** Signed rotation angle about Z of joint `joint` of a local pose (the rotation is about Z only). */
function jointAngle(pose: Float32Array, joint: number): number {
  const o = joint * POSE_STRIDE;
  let z = pose[o + 5]!, w = pose[o + 6]!;
  if (w < 0) {
    z = -z;
    w = -w;
  }
  return 2 * Math.atan2(z, w);
}

// ---------------------------------------------------------------- measurements

function measureRow(series: Series, target: Series): Row {
  const endFrame = SWITCH_FRAME + Math.round(DURATION * RATE);
  let settled = series.angle.length;
  while (settled > 0 && Math.abs(series.angle[settled - 1]! - target.angle[settled - 1]!) <= SETTLE_TOLERANCE) settled--;
  return {
    label: series.label,
    jumpAtSwitch: jumpAt(series.angle, SWITCH_FRAME),
    jumpAtEnd: jumpAt(series.angle, endFrame),
    settledAt: settled < series.angle.length ? settled / RATE : Number.NaN,
  };
}

/**
 * |ω⁺ − ω⁻| at frame k: the one-sided second-order velocity estimates
 * ω⁻ = (3θ_k − 4θ_{k−1} + θ_{k−2}) / 2h and ω⁺ = (−3θ_k + 4θ_{k+1} − θ_{k+2}) / 2h, which agree
 * to O(h²) on a smooth curve, so what remains is the step of a kink.
 */
function jumpAt(angle: Float64Array, k: number): number {
  const h = 1 / RATE;
  const before = (3 * angle[k]! - 4 * angle[k - 1]! + angle[k - 2]!) / (2 * h);
  const after = (-3 * angle[k]! + 4 * angle[k + 1]! - angle[k + 2]!) / (2 * h);
  return Math.abs(after - before);
}

// ---------------------------------------------------------------- SVG

const WIDTH = 900;
const HEIGHT = 580;
/** Horizontal extent of both panels, pixels. */
const LEFT = 78, RIGHT = WIDTH - 24;
/** Top panel: the angle. Bottom panel: distance to the target, log scale. */
const ANGLE_TOP = 62, ANGLE_BOTTOM = 330;
const LOG_TOP = 350, LOG_BOTTOM = 458;
/** Decades of the log panel: 10^LOG_MIN … 10^LOG_MAX rad. */
const LOG_MIN = -4, LOG_MAX = 0.5;
const FONT = 'font-family="DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"';
const SHARED_COLOUR = '#444444';

function renderSvg(outputs: readonly Series[], source: Series, target: Series): string {
  let lo = Infinity, hi = -Infinity;
  for (const s of [...outputs, source, target]) for (const v of s.angle) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  const yStep = 0.25;
  const yMin = Math.floor((lo - 0.05) / yStep) * yStep, yMax = Math.ceil((hi + 0.05) / yStep) * yStep;
  const x = (t: number): number => LEFT + ((RIGHT - LEFT) * t) / SECONDS;
  const y = (a: number): number => ANGLE_BOTTOM - ((ANGLE_BOTTOM - ANGLE_TOP) * (a - yMin)) / (yMax - yMin);
  const yLog = (d: number): number => LOG_BOTTOM - ((LOG_BOTTOM - LOG_TOP) * (Math.log10(d) - LOG_MIN)) / (LOG_MAX - LOG_MIN);
  const f = (v: number): string => v.toFixed(1);
  const switchT = SWITCH_FRAME / RATE;
  const times: number[] = [];
  for (let t = 0; t <= SECONDS + 1e-9; t += 0.25) times.push(t);
  const angles: number[] = [];
  for (let a = yMin; a <= yMax + 1e-9; a += yStep) angles.push(a);
  const decades: number[] = [];
  for (let e = Math.ceil(LOG_MIN); e <= LOG_MAX; e++) decades.push(e);

  /** Path of `angle[from..to]`. */
  const anglePath = (angle: Float64Array, from: number, to = angle.length - 1): string => {
    const points: string[] = [];
    for (let k = from; k <= to; k++) points.push(`${f(x(k / RATE))},${f(y(angle[k]!))}`);
    return `M${points.join('L')}`;
  };
  /** Path of |angle − target| on the log panel; pen up while it stays under the floor (exact 0 included). */
  const distancePath = (angle: Float64Array, from: number, to = angle.length - 1): string => {
    const floor = 10 ** LOG_MIN;
    let d = '', below = true;
    for (let k = from; k <= to; k++) {
      const v = Math.abs(angle[k]! - target.angle[k]!);
      const under = v < floor;
      if (under && below) continue;
      d += `${below ? 'M' : 'L'}${f(x(k / RATE))},${f(yLog(Math.max(v, floor)))}`;
      below = under;
    }
    return d;
  };

  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" ${FONT} font-size="13" fill="#222">`);
  parts.push(`<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`);
  parts.push(`<text x="${WIDTH / 2}" y="24" text-anchor="middle" font-size="17" font-weight="bold">One clip switch, four transitions: a ${SWING_HZ} Hz arm swing switching to a still pose</text>`);
  parts.push(`<text x="${WIDTH / 2}" y="44" text-anchor="middle" font-size="12" fill="#555">transition(world, eid, still, { duration: ${DURATION}, mode, curve }) at t = ${switchT} s · step at ${RATE} Hz · angle read from getLocalPose</text>`);

  // Grids.
  parts.push('<g stroke="#e6e6e6" stroke-width="1">');
  for (const t of times) parts.push(`<line x1="${f(x(t))}" y1="${ANGLE_TOP}" x2="${f(x(t))}" y2="${ANGLE_BOTTOM}"/><line x1="${f(x(t))}" y1="${LOG_TOP}" x2="${f(x(t))}" y2="${LOG_BOTTOM}"/>`);
  for (const a of angles) parts.push(`<line x1="${LEFT}" y1="${f(y(a))}" x2="${RIGHT}" y2="${f(y(a))}"/>`);
  for (const e of decades) parts.push(`<line x1="${LEFT}" y1="${f(yLog(10 ** e))}" x2="${RIGHT}" y2="${f(yLog(10 ** e))}"/>`);
  parts.push('</g>');
  parts.push(`<line x1="${LEFT}" y1="${f(y(0))}" x2="${RIGHT}" y2="${f(y(0))}" stroke="#bbbbbb"/>`);
  // The settling tolerance on the log panel.
  parts.push(`<line x1="${LEFT}" y1="${f(yLog(SETTLE_TOLERANCE))}" x2="${RIGHT}" y2="${f(yLog(SETTLE_TOLERANCE))}" stroke="#999" stroke-dasharray="8 3 2 3"/>`);
  parts.push(`<text x="${RIGHT - 4}" y="${f(yLog(SETTLE_TOLERANCE) - 4)}" text-anchor="end" font-size="11" fill="#666">tolerance of the settling time in the table (${SETTLE_TOLERANCE} rad)</text>`);

  // Axes, ticks, tick labels.
  parts.push('<g stroke="#333" stroke-width="1">');
  for (const [top, bottom] of [[ANGLE_TOP, ANGLE_BOTTOM], [LOG_TOP, LOG_BOTTOM]] as const) {
    parts.push(`<line x1="${LEFT}" y1="${bottom}" x2="${RIGHT}" y2="${bottom}"/><line x1="${LEFT}" y1="${top}" x2="${LEFT}" y2="${bottom}"/>`);
    for (const t of times) parts.push(`<line x1="${f(x(t))}" y1="${bottom}" x2="${f(x(t))}" y2="${bottom + 4}"/>`);
  }
  for (const a of angles) parts.push(`<line x1="${LEFT - 5}" y1="${f(y(a))}" x2="${LEFT}" y2="${f(y(a))}"/>`);
  for (const e of decades) parts.push(`<line x1="${LEFT - 5}" y1="${f(yLog(10 ** e))}" x2="${LEFT}" y2="${f(yLog(10 ** e))}"/>`);
  parts.push('</g>');
  parts.push('<g font-size="12" fill="#333">');
  for (const t of times) parts.push(`<text x="${f(x(t))}" y="${LOG_BOTTOM + 18}" text-anchor="middle">${formatTick(t)}</text>`);
  for (const a of angles) parts.push(`<text x="${LEFT - 9}" y="${f(y(a) + 4)}" text-anchor="end">${formatTick(a)}</text>`);
  for (const e of decades) parts.push(`<text x="${LEFT - 9}" y="${f(yLog(10 ** e) + 4)}" text-anchor="end">${e === 0 ? '1' : `10<tspan dy="-5" font-size="9">${formatTick(e)}</tspan>`}</text>`);
  parts.push('</g>');
  parts.push(`<text x="${(LEFT + RIGHT) / 2}" y="${LOG_BOTTOM + 38}" text-anchor="middle">time (s)</text>`);
  parts.push(`<text transform="translate(22 ${(ANGLE_TOP + ANGLE_BOTTOM) / 2}) rotate(-90)" text-anchor="middle">arm angle about Z (rad)</text>`);
  parts.push(`<text transform="translate(22 ${(LOG_TOP + LOG_BOTTOM) / 2}) rotate(-90)" text-anchor="middle" font-size="11.5">|angle − target| (rad)</text>`);

  // Switch markers across both panels.
  for (const [t, label] of [[switchT, 'switch'], [switchT + DURATION, 'switch + duration']] as const) {
    parts.push(`<line x1="${f(x(t))}" y1="${ANGLE_TOP}" x2="${f(x(t))}" y2="${LOG_BOTTOM}" stroke="#666" stroke-width="1.2" stroke-dasharray="3 3"/>`);
    parts.push(`<text x="${f(x(t) + 5)}" y="${ANGLE_TOP + 14}" font-size="12" fill="#444">${label} (${formatTick(t)} s)</text>`);
  }

  // Curves. The four outputs agree before the switch: that part is drawn once. Pairs that
  // nearly coincide (the two inertializations) stay visible: the first is drawn wider, below.
  const widths = [2.2, 2.2, 4.2, 1.8];
  parts.push('<g fill="none" stroke-linejoin="round" stroke-linecap="round">');
  parts.push(`<path d="${anglePath(outputs[0]!.angle, 0, SWITCH_FRAME)}" stroke="${SHARED_COLOUR}" stroke-width="2.2"/>`);
  parts.push(`<path d="${distancePath(outputs[0]!.angle, 0, SWITCH_FRAME)}" stroke="${SHARED_COLOUR}" stroke-width="2"/>`);
  outputs.forEach((s, n) => {
    parts.push(`<path d="${anglePath(s.angle, SWITCH_FRAME)}" stroke="${s.colour}" stroke-width="${widths[n] ?? 2}"/>`);
    parts.push(`<path d="${distancePath(s.angle, SWITCH_FRAME)}" stroke="${s.colour}" stroke-width="${Math.min(widths[n] ?? 2, 3)}"/>`);
  });
  parts.push(`<path d="${anglePath(source.angle, 0)}" stroke="${source.colour}" stroke-width="1.2" stroke-dasharray="6 4"/>`);
  parts.push(`<path d="${anglePath(target.angle, 0)}" stroke="${target.colour}" stroke-width="1.3" stroke-dasharray="2 3"/>`);
  parts.push('</g>');
  parts.push(`<text x="${RIGHT - 4}" y="${LOG_TOP + 16}" text-anchor="end" font-size="11" fill="#666">log scale · below the bottom edge: within 1e${LOG_MIN} rad</text>`);

  // Legend: the four modes on the first row, the references on the second.
  const rows: { label: string; colour: string; width: number; dash?: string }[][] = [
    outputs.map((s, n) => ({ label: s.label, colour: s.colour, width: Math.min(widths[n] ?? 2, 3) })),
    [
      { label: 'before the switch', colour: SHARED_COLOUR, width: 2.2 },
      { label: source.label, colour: source.colour, width: 1.2, dash: '6 4' },
      { label: target.label, colour: target.colour, width: 1.3, dash: '2 3' },
    ],
  ];
  parts.push('<g font-size="12.5">');
  rows.forEach((row, r) => {
    const ly = LOG_BOTTOM + 66 + r * 22;
    const columnWidth = (RIGHT - LEFT) / 4;
    row.forEach((e, n) => {
      const lx = LEFT + n * columnWidth;
      const dash = e.dash ? ` stroke-dasharray="${e.dash}"` : '';
      parts.push(`<line x1="${f(lx)}" y1="${ly}" x2="${f(lx + 26)}" y2="${ly}" stroke="${e.colour}" stroke-width="${e.width}"${dash}/>`);
      parts.push(`<text x="${f(lx + 32)}" y="${ly + 4}">${escapeXml(e.label)}</text>`);
    });
  });
  parts.push('</g>');
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}

/** `0.5` → "0.5", `1` → "1", `-0.25` → "−0.25" (typographic minus). */
function formatTick(v: number): string {
  const s = String(Number(v.toFixed(2)));
  return s.startsWith('-') ? `−${s.slice(1)}` : s;
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

main();
