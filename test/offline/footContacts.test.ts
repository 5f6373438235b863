import { beforeAll, describe, expect, it } from 'vitest';
import {
  createClip,
  createDifferenceClip,
  createSkeleton,
  detectFootContacts,
  loadGltf,
  measureFootSkate,
  parseBvh,
  rootMotionFromFeet,
  type Clip,
  type FootContacts,
} from '../../src/index.js';
import { reduceClip } from '../../src/lod.js';
import { refused } from '../fixtures/errors.js';
import { readAsset, readAssetText } from '../support/assets.js';
import { footPositions } from '../../src/offline/footPaths.js';
import { foxFootsteps } from '../../examples/footContacts.js';

// ---- a synthetic foot on a known schedule ----------------------------------------------------

const RATE = 30;
/** Stances (first, last frame) of the synthetic foot over frames 0 … 59, and their x. */
const STANCES: readonly [number, number, number][] = [[0, 9, 0], [25, 39, 1], [50, 59, 0]];

/** A deterministic jitter in [−1, 1] (a hash of n), so the noise is the same every run. */
const jitter = (n: number): number => ((Math.sin(n * 12.9898) * 43758.5453) % 1) * 2 - 1;

interface FootVariant {
  /** Names of [top, hips, foot]; the top joint exists only when `travel` is set. */
  names?: [string, string, string];
  /** Root travel, m/s along +x, put on a joint above the hips (a re-rooted skeleton). */
  travel?: number;
  /** Planted feet slide with the ground at this x velocity (an in-place clip), m/s. */
  ground?: number;
  /** Jitter amplitude on planted frames, m. */
  noise?: number;
  /** A one-frame lift at frame 30 (inside the second stance) and a two-frame rest at 17–18 (inside a swing). */
  blips?: boolean;
  /** Extra slide of the second stance, m over its 14 intervals (for skate). */
  slide?: number;
  loop?: boolean;
}

/**
 * hips 1 m up and a foot hanging below it, 60 distinct frames at 30 fps. The foot is on the
 * ground (model y = 0) on the STANCES and swings (up to 0.3 m, x moving ≈ 1.9 m/s) between
 * them. A looping clip appends the seam, so its last stance runs on into its first.
 */
function footClip(v: FootVariant = {}): Clip {
  const [top, hipsName, footName] = v.names ?? ['top', 'hips', 'foot'];
  const reRooted = v.travel !== undefined;
  const names = reRooted ? [top, hipsName, footName] : [hipsName, footName];
  const parents = reRooted ? [-1, 0, 1] : [-1, 0];
  const identity = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1];
  const rest = reRooted ? [...identity, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, -1, 0, 0, 0, 0, 1, 1, 1, 1] : [0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, -1, 0, 0, 0, 0, 1, 1, 1, 1];
  const skeleton = createSkeleton({ names, parents, rest, hipJoint: hipsName });
  const frames: number[] = [];
  for (let f = 0; f < 60; f++) {
    let [x, y] = footAt(f, v);
    const planted = STANCES.some(([a, b]) => f >= a && f <= b);
    const noise = planted ? (v.noise ?? 0) : 0;
    const z = noise * jitter(f * 3 + 2);
    x += noise * jitter(f * 3) + (v.ground ?? 0) * (f / RATE);
    y += Math.abs(noise * jitter(f * 3 + 1));
    const rootX = reRooted ? v.travel! * (f / RATE) : 0;
    if (reRooted) frames.push(rootX, 0, 0, 0, 0, 0, 1, 1, 1, 1);
    frames.push(0, 1, 0, 0, 0, 0, 1, 1, 1, 1);
    frames.push(x - rootX, y - 1, z, 0, 0, 0, 1, 1, 1, 1);
  }
  return createClip({ skeleton, frameRate: RATE, frames, loop: v.loop ?? false, appendSeam: v.loop ?? false, events: [{ time: 0.5, name: 'step' }], name: 'foot' });
}

/** The foot's (x, y) at frame f of the schedule (before noise and ground slide). */
function footAt(f: number, v: FootVariant): [number, number] {
  if (v.blips && f === 30) return [1, 0.3];
  if (v.blips && (f === 17 || f === 18)) return [0.5, 0];
  for (const [a, b, x] of STANCES) {
    if (f >= a && f <= b) return [x + (a === 25 ? ((v.slide ?? 0) * (f - a)) / (b - a) : 0), 0];
  }
  // Swings: 10 … 24 (x 0 → 1), 40 … 49 (x 1 + slide → 0).
  const [a, b, x0, x1] = f < 25 ? [9, 25, 0, 1] : [39, 50, 1 + (v.slide ?? 0), 0];
  const s = (f - a) / (b - a);
  return [x0 + (x1 - x0) * s, 0.3 * Math.sin(Math.PI * s)];
}

const OPTIONS = { feet: ['foot'], heightThreshold: 0.02, speedThreshold: 0.2, minFrames: 3 } as const;
const t = (f: number): number => f / RATE;

describe('detectFootContacts on a foot with a known schedule', () => {
  it('gives the stances exactly, with noise, a one-frame lift and a two-frame rest mid-swing', () => {
    const { contacts } = detectFootContacts(footClip({ noise: 0.001, blips: true }), OPTIONS);
    expect(contacts).toHaveLength(1);
    expect(contacts[0]!.joint).toBe(1);
    expect(contacts[0]!.intervals).toEqual([[t(0), t(9)], [t(25), t(39)], [t(50), t(59)]]);
  });

  it('with minFrames 1 keeps the blips: the lift splits the stance, the rest is a contact', () => {
    const { contacts } = detectFootContacts(footClip({ blips: true }), { ...OPTIONS, minFrames: 1 });
    expect(contacts[0]!.intervals).toEqual([[t(0), t(9)], [t(17), t(18)], [t(25), t(29)], [t(31), t(39)], [t(50), t(59)]]);
  });

  it('lifts shorter than minFrames are filled first, then short contacts dropped (at the clip\'s ends too)', () => {
    // minFrames 11: the 10-frame lift 40 … 49 is filled, joining [25, 39] and [50, 59]; the
    // 15-frame lift 10 … 24 stays; the 10-frame stance [0, 9] is dropped.
    expect(detectFootContacts(footClip(), { ...OPTIONS, minFrames: 11 }).contacts[0]!.intervals).toEqual([[t(25), t(59)]]);
  });

  it('the same intervals for renamed joints, a re-rooted skeleton whose root travels, and an in-place slide', () => {
    const expected = [[t(0), t(9)], [t(25), t(39)], [t(50), t(59)]];
    const variants: [FootVariant, string][] = [
      [{ names: ['A', 'pelvis', 'l_ankle'], noise: 0.001, blips: true }, 'l_ankle'],
      [{ names: ['root', 'pelvis', 'toe'], travel: 1.3, noise: 0.001, blips: true }, 'toe'],
      [{ ground: -1.1, noise: 0.001, blips: true }, 'foot'],
    ];
    for (const [variant, foot] of variants) {
      expect(detectFootContacts(footClip(variant), { ...OPTIONS, feet: [foot] }).contacts[0]!.intervals, JSON.stringify(variant)).toEqual(expected);
    }
  });

  it('defaults (thresholds from the clip) find the same stances on the clean schedule', () => {
    const { contacts } = detectFootContacts(footClip({ noise: 0.001 }), { feet: [1] });
    expect(contacts[0]!.intervals).toEqual([[t(0), t(9)], [t(25), t(39)], [t(50), t(59)]]);
  });

  it('a looping clip: the stance over the seam is one interval, start > end', () => {
    const result = detectFootContacts(footClip({ loop: true, noise: 0.001, blips: true }), OPTIONS);
    expect(result.contacts[0]!.intervals).toEqual([[t(25), t(39)], [t(50), t(9)]]);
    // Events at the edges, merged with the clip's own and sorted.
    expect(result.clip.events.map((e) => [e.time, e.name])).toEqual([
      [t(9), 'footUp:foot'],
      [0.5, 'step'],
      [t(25), 'footDown:foot'],
      [t(39), 'footUp:foot'],
      [t(50), 'footDown:foot'],
    ]);
    expect(result.clip.frames).toEqual(footClip({ loop: true, noise: 0.001, blips: true }).frames);
    expect(result.clip.loop).toBe(true);
  });

  it('events of a clamped clip: footDown at each start, footUp at each end', () => {
    const { clip } = detectFootContacts(footClip(), OPTIONS);
    expect(clip.events.map((e) => [e.time, e.name])).toEqual([
      [0, 'footDown:foot'], [t(9), 'footUp:foot'], [0.5, 'step'], [t(25), 'footDown:foot'],
      [t(39), 'footUp:foot'], [t(50), 'footDown:foot'], [t(59), 'footUp:foot'],
    ]);
  });

  it('refuses unknown feet, a root joint, a one-frame clip, unknown options and bad thresholds', () => {
    const clip = footClip();
    expect(refused(() => detectFootContacts(clip, { feet: ['heel'] })).message).toContain('feet[0] "heel" is not a joint of the skeleton of "foot"');
    expect(refused(() => detectFootContacts(clip, { feet: [7] })).message).toContain('feet[0] is 7');
    expect(refused(() => detectFootContacts(clip, { feet: ['hips'] })).message).toContain('"hips" is a root joint');
    expect(refused(() => detectFootContacts(clip, { feet: [] })).message).toContain('feet is empty');
    expect(refused(() => detectFootContacts(clip, { feet: ['foot', 1] })).message).toContain('"foot" is given twice');
    expect(refused(() => detectFootContacts(clip, { feet: ['foot'], smoothing: 1 } as never)).message).toContain('smoothing is not an option of detectFootContacts');
    expect(refused(() => detectFootContacts(clip, { feet: ['foot'], heightThreshold: -1 })).message).toContain('heightThreshold is -1');
    expect(refused(() => detectFootContacts(clip, { feet: ['foot'], speedThreshold: NaN })).message).toContain('speedThreshold is NaN');
    expect(refused(() => detectFootContacts(clip, { feet: ['foot'], minFrames: 1.5 })).message).toContain('minFrames is 1.5');
    expect(refused(() => detectFootContacts(clip, null as never)).message).toContain('options is null');
    const one = createClip({ skeleton: clip.skeleton, frameRate: 30, frames: clip.frames.slice(0, 20) });
    expect(refused(() => detectFootContacts(one, { feet: ['foot'] })).message).toContain('has 1 frame');
    expect(refused(() => detectFootContacts({} as never, { feet: ['foot'] })).message).toContain('clip must be a Clip');
    expect(refused(() => detectFootContacts(reduceClip(clip, { tolerance: 0.001 }), { feet: ['foot'] })).message).toContain('reduced (LOD) clip');
    expect(refused(() => detectFootContacts(createDifferenceClip(clip, clip), { feet: ['foot'] })).message).toContain('difference clip');
  });
});

describe('measureFootSkate', () => {
  it('is the horizontal path during each contact: 0 for still stances, the slide for a sliding one', () => {
    const clip = footClip({ slide: 0.05 });
    const skate = measureFootSkate(clip, detectFootContacts(clip, OPTIONS));
    expect(skate.contacts).toBe(3);
    expect(skate.feet[0]!.distances.map((d) => +d.toFixed(6))).toEqual([0, 0.05, 0]);
    expect(skate.max).toBeCloseTo(0.05, 6);
    expect(skate.mean).toBeCloseTo(0.05 / 3, 6);
  });

  it('counts the root travel (a re-rooted skeleton whose root moves while the foot is held)', () => {
    // Model x of the foot is the same, root travel included: no skate. Hips travelling with
    // the foot's local x held would skate 1.3 m/s × the stance.
    const clip = footClip({ travel: 1.3 });
    expect(measureFootSkate(clip, detectFootContacts(clip, { ...OPTIONS, feet: ['foot'] })).max).toBeLessThan(1e-6);
    const inPlace = footClip({ ground: -1.1 });
    const skate = measureFootSkate(inPlace, detectFootContacts(inPlace, OPTIONS));
    // Stances of 9, 14 and 9 intervals slide at 1.1 m/s: 0.33, 0.513, 0.33 m.
    expect(skate.feet[0]!.distances.map((d) => +d.toFixed(4))).toEqual([0.33, 0.5133, 0.33]);
  });

  it('a contact over a loop\'s seam runs from its start to the end, then from 0 to its end', () => {
    const clip = footClip({ loop: true });
    // The second swing carries x linearly from 1 (frame 39) to 0 (frame 50), so [45, 5] over
    // the seam covers x from 1 − 6/11 down to 0, then stands: 5/11 m. The whole cycle is 2 m.
    expect(measureFootSkate(clip, [{ joint: 1, intervals: [[t(45), t(5)]] }]).max).toBeCloseTo(5 / 11, 5);
    const whole = measureFootSkate(clip, [{ joint: 1, intervals: [[0, clip.duration]] }]);
    expect(whole.contacts).toBe(1);
    expect(whole.mean).toBeCloseTo(2, 5);
  });

  it('refuses contacts that are not { joint, intervals } of frame times', () => {
    const clip = footClip();
    expect(refused(() => measureFootSkate(clip, 3 as never)).message).toContain('contacts is 3');
    expect(refused(() => measureFootSkate(clip, [{ joint: 9, intervals: [] }])).message).toContain('contacts[0].joint is 9');
    expect(refused(() => measureFootSkate(clip, [{ joint: 1, intervals: [[0.01, 0.1]] }])).message).toContain('contacts[0].intervals[0] has 0.01');
    expect(refused(() => measureFootSkate(clip, [{ joint: 1, intervals: [[0.5, 0.1]] }])).message).toContain('starts at 0.5 s after it ends');
    expect(refused(() => measureFootSkate(clip, [{ joint: 1, intervals: [[0, 5]] }])).message).toContain('has 5');
  });
});

// ---- the real files -----------------------------------------------------------------------

/** Heights above the lowest, per frame, of joint `name` (model space, the clip's units). */
function heights(clip: Clip, joint: number): number[] {
  const p = footPositions(clip, [joint]);
  const y = Array.from({ length: clip.frameCount }, (_, f) => p[f * 3 + 1]!);
  const lowest = Math.min(...y);
  return y.map((v) => v - lowest);
}

/** Runs of `true` in `flags` as [first, last] (cyclic when `loop`), runs closer than `gap` frames merged. */
function flagRuns(flags: boolean[], loop: boolean, gap: number): [number, number][] {
  const out: [number, number][] = [];
  for (let f = 0; f < flags.length; f++) {
    if (!flags[f] || (f > 0 && flags[f - 1])) continue;
    let e = f;
    while (e + 1 < flags.length && flags[e + 1]) e++;
    if (out.length > 0 && f - out[out.length - 1]![1] - 1 < gap) out[out.length - 1]![1] = e;
    else out.push([f, e]);
  }
  if (loop && out.length > 1) {
    const last = out[out.length - 1]!, first = out[0]!;
    if (flags.length - 1 - last[1] + first[0] < gap) { first[0] = last[0]; out.pop(); }
  }
  return out;
}

function expectEventsAtEdges(result: FootContacts): void {
  const clip = result.clip;
  for (const { joint, intervals } of result.contacts) {
    const name = clip.skeleton.names[joint]!;
    const downs = clip.events.filter((e) => e.name === `footDown:${name}`).map((e) => e.time);
    const ups = clip.events.filter((e) => e.name === `footUp:${name}`).map((e) => e.time);
    expect(downs).toEqual(intervals.map(([s]) => s).sort((a, b) => a - b));
    expect(ups).toEqual(intervals.map(([, e]) => e).sort((a, b) => a - b));
    for (const [s, e] of intervals) {
      expect(Math.abs(s * clip.frameRate - Math.round(s * clip.frameRate))).toBeLessThan(1e-6);
      expect(Math.abs(e * clip.frameRate - Math.round(e * clip.frameRate))).toBeLessThan(1e-6);
    }
  }
  const times = clip.events.map((e) => e.time);
  expect(times).toEqual(times.slice().sort((a, b) => a - b));
}

const fmt = (intervals: [number, number][]): string => intervals.map(([a, b]) => `${a.toFixed(2)}–${b.toFixed(2)}`).join(' ');

describe('the CMU walk (cmu_131_01_start_walk_stop.bvh, ankles)', () => {
  // The ankles, not the toes: CMU's toe joints barely rotate and sit 4–5 cm above their lowest
  // through most stances, while the ankles carry each step's lift (10–49 cm).
  const walk = parseBvh(readAssetText('cmu_131_01_start_walk_stop.bvh'), { scale: 0.056444, name: 'walk' }).clip;
  const result = detectFootContacts(walk, { feet: ['LeftAnkle', 'RightAnkle'] });

  const rate = walk.frameRate;
  /** The ankle's horizontal speed over each interval (m/s). */
  const horizontalSpeed = (joint: number): number[] => {
    const p = footPositions(walk, [joint]);
    return Array.from({ length: walk.frameCount - 1 }, (_, f) => Math.hypot(p[f * 3 + 3]! - p[f * 3]!, p[f * 3 + 5]! - p[f * 3 + 2]!) * rate);
  };
  const inside = (intervals: [number, number][], f: number): boolean => intervals.some(([s, e]) => f >= Math.round(s * rate) && f <= Math.round(e * rate));

  it('clear steps (counted by hand: horizontal speed over 1.5 m/s) fall between contacts; the right ankle has one contact more than steps', () => {
    // The capture travels, so a planted ankle stands still: a clear step is a run of intervals
    // where the ankle moves faster than 1.5 m/s (runs closer than 0.1 s merged, at least
    // 0.05 s long). Height and the detector's thresholds play no part. The walker stands at
    // both ends. The left ankle also shuffles (0.5–1 m/s for ~0.3 s while the right foot
    // steps high): those split its stances too, so it has at least one contact more than steps.
    const clear: number[] = [];
    for (const contact of result.contacts) {
      const speed = horizontalSpeed(contact.joint);
      const steps = flagRuns(speed.map((v) => v > 1.5), false, Math.round(0.1 * rate)).filter(([a, b]) => b - a + 1 >= Math.round(0.05 * rate));
      const name = walk.skeleton.names[contact.joint]!;
      console.log(`CMU walk ${name}: ${contact.intervals.length} contacts (${fmt(contact.intervals)}); ${steps.length} clear steps by hand (${steps.map(([a, b]) => `${(a / rate).toFixed(2)}–${(b / rate).toFixed(2)}`).join(' ')})`);
      clear.push(steps.length);
      expect(contact.intervals.length, name).toBeGreaterThanOrEqual(steps.length + 1);
      // No contact holds a frame of a clear step.
      for (const [a, b] of steps) for (let f = a + 1; f <= b; f++) expect(inside(contact.intervals, f), `${name} frame ${f}`).toBe(false);
      // Every gap between contacts is a real lift: the ankle moves ≥ 3 cm in it.
      for (let n = 0; n + 1 < contact.intervals.length; n++) {
        let moved = 0;
        for (let f = Math.round(contact.intervals[n]![1] * rate); f < Math.round(contact.intervals[n + 1]![0] * rate); f++) moved += speed[f]! / rate;
        expect(moved, `${name} gap ${n}`).toBeGreaterThan(0.03);
      }
    }
    expect(result.contacts[1]!.intervals.length).toBe(clear[1]! + 1);
    expect(clear[1]).toBeGreaterThanOrEqual(5);
  });

  it('events at the interval edges; most of the ankles\' travel happens between contacts', () => {
    expectEventsAtEdges(result);
    const skate = measureFootSkate(walk, result);
    const travel = result.contacts.map((c) => horizontalSpeed(c.joint).reduce((a, v) => a + v / rate, 0));
    const slid = skate.feet.map((f) => f.distances.reduce((a, d) => a + d, 0));
    console.log(
      `CMU walk skate: mean ${(skate.mean * 100).toFixed(1)} cm, max ${(skate.max * 100).toFixed(1)} cm over ${skate.contacts} contacts; ` +
        `in contact ${slid.map((d, k) => `${(d * 100).toFixed(0)} of ${(travel[k]! * 100).toFixed(0)} cm`).join(', ')} of each ankle's horizontal path`,
    );
    expect(skate.contacts).toBe(result.contacts[0]!.intervals.length + result.contacts[1]!.intervals.length);
    for (let k = 0; k < 2; k++) expect(slid[k]!).toBeLessThan(travel[k]! / 3);
  });
});

describe('the Fox (Fox.glb, scale "cm"; four paws)', () => {
  let clips: Clip[];
  let feet: string[];
  beforeAll(async () => {
    ({ clips } = await loadGltf(readAsset('Fox.glb'), { scale: 'cm' }));
    const names = clips[0]!.skeleton.names;
    // The paws: each leg's last joint. Hind legs end in b_*Foot02_*, front legs in b_*Hand_*.
    feet = names.filter((n) => /^b_(Left|Right)(Foot02|Hand)_\d+$/.test(n));
  });
  const clip = (name: string): Clip => clips.find((c) => c.name === name)!;

  it('finds four paws by name', () => {
    expect(feet.sort()).toEqual(['b_LeftFoot02_018', 'b_LeftHand_011', 'b_RightFoot02_022', 'b_RightHand_08']);
  });

  for (const name of ['Walk', 'Run']) {
    it(`${name}: one contact per swing of each paw (swings counted by hand: above half the paw's top height)`, () => {
      const c = clip(name);
      const result = detectFootContacts(c, { feet });
      for (const contact of result.contacts) {
        // A loop has as many contacts as swings; a swing is a run of frames (cyclic, runs
        // closer than 0.1 s merged) where the paw is above half of its highest.
        const h = heights(c, contact.joint).slice(0, c.frameCount - 1);
        const top = Math.max(...h);
        const swings = flagRuns(h.map((v) => v > top / 2), true, Math.round(0.1 * c.frameRate));
        const paw = c.skeleton.names[contact.joint]!;
        console.log(`Fox ${name} ${paw}: contacts ${fmt(contact.intervals)}; ${swings.length} swing(s) by hand, top ${(top * 100).toFixed(1)} cm`);
        expect(contact.intervals.length, paw).toBe(swings.length);
        // The paw's lowest frame lies inside a contact; no frame of a swing does.
        const f = h.indexOf(0) / c.frameRate;
        expect(contact.intervals.some(([s, e]) => (s <= e ? f >= s && f <= e : f >= s || f <= e)), paw).toBe(true);
        for (let g = 0; g < h.length; g++) {
          if (h[g]! <= top / 2) continue;
          const time = g / c.frameRate;
          expect(contact.intervals.some(([s, e]) => (s <= e ? time >= s && time <= e : time >= s || time <= e)), `${paw} frame ${g}`).toBe(false);
        }
      }
      expectEventsAtEdges(result);
    });
  }

  it('Run: no contact where every paw is 5 cm or more above its lowest (flight)', () => {
    const c = clip('Run');
    const result = detectFootContacts(c, { feet });
    const h = result.contacts.map((x) => heights(c, x.joint));
    const flight = Array.from({ length: c.frameCount - 1 }, (_, f) => f).filter((f) => h.every((paw) => paw[f]! >= 0.05));
    console.log(`Fox Run: ${flight.length} flight frames of ${c.frameCount - 1} (${flight.map((f) => f / c.frameRate).map((s) => s.toFixed(3)).join(' ')})`);
    expect(flight.length).toBeGreaterThan(5);
    for (const f of flight) {
      const time = f / c.frameRate;
      for (const { intervals } of result.contacts) {
        expect(intervals.some(([s, e]) => (s <= e ? time >= s && time <= e : time >= s || time <= e))).toBe(false);
      }
    }
  });

  it('skate: the in-place Walk slides its paws with the ground; rootMotionFromFeet\'s travel cancels most of it', () => {
    for (const name of ['Walk', 'Run']) {
      const source = clip(name);
      const travelled = rootMotionFromFeet(source, { feet });
      const before = measureFootSkate(source, detectFootContacts(source, { feet }));
      const after = measureFootSkate(travelled, detectFootContacts(travelled, { feet }));
      console.log(
        `Fox ${name} skate: in place ${(before.mean * 100).toFixed(1)} cm mean / ${(before.max * 100).toFixed(1)} cm max (${before.contacts} contacts); ` +
          `after rootMotionFromFeet ${(after.mean * 100).toFixed(1)} / ${(after.max * 100).toFixed(1)} cm (${after.contacts}); ` +
          `per paw after: ${after.feet.map((p) => `${travelled.skeleton.names[p.joint]} ${(p.mean * 100).toFixed(1)}`).join(', ')}`,
      );
      expect(after.mean).toBeLessThan(before.mean / 2);
    }
  });
});

describe('examples/footContacts.ts (docs/in-place-clips.md)', () => {
  it('the Fox\'s Walk: the left hind paw down at 0.5 s and up at 5/48 s (over the seam), events to match, 13.9 cm of skate', async () => {
    const { walk, contacts, skate } = await foxFootsteps(readAsset('Fox.glb'));
    expect(contacts[0]!.intervals).toEqual([[24 / 48, 5 / 48]]);
    expect(walk.events.filter((e) => e.name === 'footDown:b_LeftFoot02_018').map((e) => e.time)).toEqual([0.5]);
    expect(walk.events.filter((e) => e.name === 'footUp:b_LeftFoot02_018').map((e) => e.time)).toEqual([5 / 48]);
    expect(skate.mean).toBeCloseTo(0.139, 3);
  });
});
