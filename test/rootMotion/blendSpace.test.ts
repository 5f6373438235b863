import { describe, expect, it } from 'vitest';
import {
  createAnimationWorld,
  createBlendSpace,
  drainEvents,
  getRootTransform,
  setBlendSpace,
  setTargetSpeed,
  spawnCharacter,
  type BlendSpace,
  type Clip,
} from '../../src/index.js';
import { DEFAULT_MAX_LAYERS, pickHemisphere } from '../../src/kernels.js';
import { refused } from '../fixtures/errors.js';
import { createRandom } from '../fixtures/synthetic.js';
import { biped, directionalWalk, runFor } from './locomotion.js';

const DEG = Math.PI / 180;

/** The layer playing `clip` on character `eid`, or −1. */
function layerOf(world: ReturnType<typeof createAnimationWorld>, eid: number, clip: Clip): number {
  const id = world.assets.clipIds.get(clip);
  for (let layer = 0; layer < DEFAULT_MAX_LAYERS; layer++) if (id !== undefined && world.components.Layers.clip[eid * DEFAULT_MAX_LAYERS + layer] === id) return layer;
  return -1;
}

/** Heading of travel (dx, dz) in the space's (x, y) = model (X, Z) plane, radians. */
function headingOf(dx: number, dz: number): number {
  return Math.atan2(dz, dx);
}

function angleBetween(a: number, b: number): number {
  return Math.abs(Math.atan2(Math.sin(a - b), Math.cos(a - b)));
}

describe('setBlendSpace: the seed\'s appendix 3 through the API', () => {
  // A: forward (+y of the space = model +Z), 2.0 m per 1 s cycle, so rate 2.0 alone for 4 m/s;
  // B: right (+x = model +X), 4.0 m per 1 s, rate 1.0 alone. C and D mirror them so the
  // diamond is a freeform space. Input (0.7071, 0.7071) lies outside the diamond and
  // projects onto the A–B edge at (0.5, 0.5): weights 0.5 / 0.5.
  const skeleton = biped(1);
  const a = directionalWalk(skeleton, 1, { dirX: 0, dirZ: 1, distance: 2, duration: 1, name: 'A' });
  const b = directionalWalk(skeleton, 1, { dirX: 1, dirZ: 0, distance: 4, duration: 1, name: 'B' });
  const c = directionalWalk(skeleton, 1, { dirX: 0, dirZ: -1, distance: 2, duration: 1, name: 'C' });
  const d = directionalWalk(skeleton, 1, { dirX: -1, dirZ: 0, distance: 4, duration: 1, name: 'D' });
  const diamond = createBlendSpace({
    type: 'freeform',
    samples: [{ clip: a, x: 0, y: 1 }, { clip: b, x: 1, y: 0 }, { clip: c, x: 0, y: -1 }, { clip: d, x: -1, y: 0 }],
  });

  it('gives rate 1.5 and stride scales A ×1.885, B ×0.9425, and moves at 4.0 m/s at 45°', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true });
    setBlendSpace(world, eid, diamond, 0.7071, 0.7071);
    setTargetSpeed(world, eid, 4.0);
    const { Layers } = world.components;
    const la = eid * DEFAULT_MAX_LAYERS + layerOf(world, eid, a), lb = eid * DEFAULT_MAX_LAYERS + layerOf(world, eid, b);
    expect(Layers.weight[la]).toBeCloseTo(0.5, 6);
    expect(Layers.weight[lb]).toBeCloseTo(0.5, 6);
    // The seed: rate midway between A's 2.0 and B's 1.0.
    expect(Layers.syncRate[la]).toBeCloseTo(1.5, 6);
    // The seed: 4.0 / 1.5 = 2.6667 m per cycle, times sin 45° = 1.8856 m for each clip,
    // over (its 2.0 m or 4.0 m × weight 0.5). The seed rounds 2.6667 to 2.666 on the way and
    // prints 1.885 and 0.9425; unrounded they are 1.88562 and 0.94281 — both within 0.04 %.
    const exactA = ((4 / 1.5) * Math.SQRT1_2) / (2 * 0.5);
    const exactB = ((4 / 1.5) * Math.SQRT1_2) / (4 * 0.5);
    expect(Layers.rootScale[la]).toBeCloseTo(exactA, 5);
    expect(Layers.rootScale[lb]).toBeCloseTo(exactB, 5);
    expect(Math.abs(Layers.rootScale[la]! / 1.885 - 1)).toBeLessThan(4e-4);
    expect(Math.abs(Layers.rootScale[lb]! / 0.9425 - 1)).toBeLessThan(4e-4);

    // 6 whole cycles of 1 s at rate 1.5 = 4 s: 16 m along 45°.
    runFor(world, 4, 1 / 60, undefined, () => setBlendSpace(world, eid, diamond, 0.7071, 0.7071));
    const root = getRootTransform(world, eid);
    expect(Math.hypot(root.x, root.z) / 4).toBeCloseTo(4.0, 3);
    expect(angleBetween(headingOf(root.x, root.z), 45 * DEG)).toBeLessThan(0.01 * DEG);
  });

  it('without stride scales the same blend skews towards B and is neither speed', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true });
    setBlendSpace(world, eid, diamond, 0.7071, 0.7071, { strideScaling: false });
    runFor(world, 2);
    const root = getRootTransform(world, eid);
    // Half of (0, 2) + half of (4, 0) per 1 s cycle: (2, 1) m/s, 26.6° off the x axis.
    expect(headingOf(root.x, root.z) / DEG).toBeCloseTo(Math.atan2(1, 2) / DEG, 1);
    expect(Math.hypot(root.x, root.z) / 2).toBeCloseTo(Math.hypot(2, 1), 3);
  });

  it('remembers the target speed: a later setBlendSpace re-derives the rate', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true });
    setBlendSpace(world, eid, diamond, 0, 1); // A alone
    setTargetSpeed(world, eid, 4.0);
    const la = eid * DEFAULT_MAX_LAYERS + layerOf(world, eid, a);
    expect(world.components.Layers.syncRate[la]).toBeCloseTo(2.0, 6); // A alone: 4.0 / 2.0
    setBlendSpace(world, eid, diamond, 0.7071, 0.7071);
    expect(world.components.Layers.syncRate[eid * DEFAULT_MAX_LAYERS + layerOf(world, eid, a)]).toBeCloseTo(1.5, 6);
  });
});

/** Eight (or four) directional walks of different speeds, durations and drift. */
function ring(count: 4 | 8): { space: BlendSpace; clips: Clip[] } {
  const skeleton = biped(0.9);
  const samples = [];
  const clips: Clip[] = [];
  for (let k = 0; k < count; k++) {
    const angle = (2 * Math.PI * k) / count;
    const x = Math.round(Math.cos(angle) * 1e12) / 1e12, y = Math.round(Math.sin(angle) * 1e12) / 1e12;
    const clip = directionalWalk(skeleton, 0.9, {
      dirX: x, dirZ: y,
      distance: 1.1 + 0.15 * k, // 1.1 … 2.15 m per cycle
      duration: 0.9 + 0.05 * k, // 0.9 … 1.25 s
      drift: k % 2 === 0 ? 0.04 : -0.03,
      name: `dir${k}`,
    });
    clips.push(clip);
    samples.push({ clip, x, y });
  }
  return { space: createBlendSpace({ type: 'freeform', samples }), clips };
}

describe('setBlendSpace: directional locomotion', () => {
  for (const count of [4, 8] as const) {
    it(`${count} directional clips: 16 commanded directions at 1.6 m/s, ±2 % and ±2° over 5 s`, () => {
      const { space } = ring(count);
      const character = biped(0.8); // hip ratio 0.8 / 0.9
      const v = 1.6;
      for (const yaw of [0, 0.6]) {
        const world = createAnimationWorld({ maxEntities: 20, maxJoints: 2 });
        const eids: number[] = [];
        for (let k = 0; k < 16; k++) {
          const eid = spawnCharacter(world, character, { rootMotion: true, yaw });
          const heading = k * 22.5 * DEG;
          setBlendSpace(world, eid, space, Math.cos(heading), Math.sin(heading));
          setTargetSpeed(world, eid, v);
          eids.push(eid);
        }
        runFor(world, 5, 1 / 60, undefined, () => {
          for (let k = 0; k < 16; k++) setBlendSpace(world, eids[k]!, space, Math.cos(k * 22.5 * DEG), Math.sin(k * 22.5 * DEG));
        });
        let worstSpeed = 0, worstAngle = 0;
        for (let k = 0; k < 16; k++) {
          const root = getRootTransform(world, eids[k]!);
          // World travel back into the character's frame: model = R(yaw)ᵀ · world.
          const c = Math.cos(yaw), s = Math.sin(yaw);
          const mx = c * root.x - s * root.z, mz = s * root.x + c * root.z;
          worstSpeed = Math.max(worstSpeed, Math.abs(Math.hypot(mx, mz) / 5 / v - 1));
          worstAngle = Math.max(worstAngle, angleBetween(headingOf(mx, mz), k * 22.5 * DEG));
        }
        expect(worstSpeed).toBeLessThan(0.02);
        expect(worstAngle).toBeLessThan(2 * DEG);
      }
    });
  }

  it('moving the point around keeps the clips that stay on their layers and in phase', () => {
    const { space, clips } = ring(8);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, biped(0.9), { rootMotion: true });
    const random = createRandom(11);
    let heading = 0;
    const { Layers } = world.components;
    runFor(world, 6, 1 / 60, undefined, () => {
      heading += 0.01 + 0.02 * random(); // a slow turn through every edge
      const before = clips.map((clip) => layerOf(world, eid, clip));
      setBlendSpace(world, eid, space, Math.cos(heading), Math.sin(heading));
      const after = clips.map((clip) => layerOf(world, eid, clip));
      for (let k = 0; k < clips.length; k++) {
        const li = eid * DEFAULT_MAX_LAYERS + after[k]!;
        if (after[k]! < 0 || !(Layers.weight[li]! > 0)) continue;
        if (before[k]! >= 0) expect(after[k]).toBe(before[k]); // stayed: same layer
        // Every weighted clip is at the group's phase (its time / duration, offsets are 0).
        const phases = [];
        for (let layer = 0; layer < 3; layer++) {
          const lj = eid * DEFAULT_MAX_LAYERS + layer;
          if (Layers.clip[lj]! >= 0 && Layers.weight[lj]! > 0) phases.push(Layers.time[lj]! / world.assets.clips[Layers.clip[lj]!]!.duration);
        }
        for (const phase of phases) expect(Math.abs(phase - phases[0]!)).toBeLessThan(1e-6);
      }
    });
    expect(heading).toBeGreaterThan(2 * Math.PI); // went all the way round
  });
});

describe('setBlendSpace: slots, speed and events', () => {
  const skeleton = biped(1);
  /** Forward walk and sideways walk of different durations, contacts at phases 0.25 and 0.75. */
  function pair() {
    const forward = directionalWalk(skeleton, 1, { dirX: 0, dirZ: 1, distance: 1.5, duration: 1.0, name: 'forward', events: [{ time: 0.25, name: 'left' }, { time: 0.75, name: 'right' }] });
    const side = directionalWalk(skeleton, 1, { dirX: 1, dirZ: 0, distance: 1.2, duration: 1.2, name: 'side', events: [{ time: 0.3, name: 'left' }, { time: 0.9, name: 'right' }] });
    const idle = directionalWalk(skeleton, 1, { dirX: 0, dirZ: 1, distance: 0, duration: 1.6, name: 'idle' });
    return { forward, side, idle };
  }

  it('footstep events fire in order, once per cycle each, at any rate and step size', () => {
    const { forward, side } = pair();
    const blend = createBlendSpace({ type: '1d', samples: [{ clip: forward, x: 0 }, { clip: side, x: 1 }] });
    for (const speed of [0.4, 1.7, 4.0]) {
      for (const dt of [1 / 60, 1 / 20]) {
        const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
        const eid = spawnCharacter(world, skeleton, { rootMotion: true });
        setBlendSpace(world, eid, blend, 0.4); // forward 0.6, side 0.4
        setTargetSpeed(world, eid, speed);
        const rate = world.components.Layers.syncRate[eid * DEFAULT_MAX_LAYERS]!;
        const names = new Map<Clip, string[]>([[forward, []], [side, []]]);
        runFor(world, 5, dt, undefined, () => {
          for (const event of drainEvents(world)) names.get(event.clip)!.push(event.name);
        });
        for (const event of drainEvents(world)) names.get(event.clip)!.push(event.name);
        // Group cycle D_g = 0.6 · 1.0 + 0.4 · 1.2 = 1.08 s at rate 1, so the phase reaches
        // rate · 5 / 1.08; each contact fires once per crossing of its phase.
        const phase = (rate * 5) / 1.08;
        const crossings = (at: number) => Math.max(0, Math.floor(phase - at) + 1);
        for (const [clip, fired] of names) {
          // forward: 0.25 s and 0.75 s of 1.0 s; side: 0.3 s and 0.9 s of 1.2 s — phases 0.25 and 0.75.
          expect(fired.length, `${clip.name} at ${speed} m/s, dt ${dt}`).toBe(crossings(0.25) + crossings(0.75));
          fired.forEach((name, i) => expect(name).toBe(i % 2 === 0 ? 'left' : 'right'));
        }
      }
    }
  });

  it('a clip that leaves the blend is stopped; one that enters starts at the group phase', () => {
    const { forward, side, idle } = pair();
    const line = createBlendSpace({ type: '1d', samples: [{ clip: idle, x: 0 }, { clip: forward, x: 1 }, { clip: side, x: 2 }] });
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true });
    const { Layers } = world.components;
    setBlendSpace(world, eid, line, 0.5); // idle + forward
    runFor(world, 0.37);
    const forwardLayer = layerOf(world, eid, forward);
    const phase = Layers.time[eid * DEFAULT_MAX_LAYERS + forwardLayer]! / forward.duration;
    setBlendSpace(world, eid, line, 1.5); // forward + side: idle leaves, side enters
    expect(layerOf(world, eid, forward)).toBe(forwardLayer);
    expect(layerOf(world, eid, idle)).toBe(-1);
    const sideLayer = layerOf(world, eid, side);
    expect(Layers.time[eid * DEFAULT_MAX_LAYERS + sideLayer]! / side.duration).toBeCloseTo(phase, 6);
    expect(Layers.weight[eid * DEFAULT_MAX_LAYERS + sideLayer]).toBeCloseTo(0.5, 6);
  });

  it('inside a triangle with an idle corner, a target speed is still met along the commanded direction', () => {
    const { forward, side, idle } = pair();
    const space = createBlendSpace({ type: 'freeform', samples: [{ clip: idle, x: 0, y: 0 }, { clip: forward, x: 0, y: 1 }, { clip: side, x: 1, y: 0 }] });
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true });
    setBlendSpace(world, eid, space, 0.3, 0.4); // weights idle 0.3, forward 0.4, side 0.3
    setTargetSpeed(world, eid, 1.0);
    runFor(world, 5, 1 / 60, undefined, () => setBlendSpace(world, eid, space, 0.3, 0.4));
    const root = getRootTransform(world, eid);
    expect(Math.abs(Math.hypot(root.x, root.z) / 5 - 1)).toBeLessThan(0.02);
    expect(angleBetween(headingOf(root.x, root.z), Math.atan2(0.4, 0.3))).toBeLessThan(2 * DEG);
  });

  it('refuses bad input and leaves the world unchanged', () => {
    const { forward, side } = pair();
    const once = directionalWalk(skeleton, 1, { dirX: 0, dirZ: 1, distance: 1, duration: 1, name: 'once' });
    const oneShot = { ...once, loop: false } as Clip;
    const line = createBlendSpace({ type: '1d', samples: [{ clip: forward, x: 0 }, { clip: side, x: 1 }] });
    const grid = createBlendSpace({ type: 'bilinear', samples: [{ clip: forward, x: 0, y: 0 }, { clip: side, x: 1, y: 0 }, { clip: forward, x: 0, y: 1 }, { clip: side, x: 1, y: 1 }] });
    const world = createAnimationWorld({ maxEntities: 3, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true });
    setBlendSpace(world, eid, line, 0.3);
    runFor(world, 0.5);
    const { Layers, RootMotion } = world.components;
    const snapshot = () => JSON.stringify([Layers.clip, Layers.time, Layers.weight, Layers.speed, Layers.rootScale, Layers.syncGroup, Layers.syncRate, RootMotion.targetSpeed].map((a) => Array.from(a)));
    const before = snapshot();
    const cases: [string, () => void][] = [
      ['x', () => setBlendSpace(world, eid, line, Number.NaN)],
      ['x', () => setBlendSpace(world, eid, grid, Number.POSITIVE_INFINITY, 0)],
      ['y', () => setBlendSpace(world, eid, grid, 0.5)],
      ['y', () => setBlendSpace(world, eid, grid, 0.5, Number.NaN)],
      ['y', () => setBlendSpace(world, eid, line, 0.5, Number.NaN)],
      ['space', () => setBlendSpace(world, eid, {} as BlendSpace, 0)],
      ['eid', () => setBlendSpace(world, 99, line, 0)],
      ['layer', () => setBlendSpace(world, eid, grid, 0, 0, { layer: 1 })],
      ['layer', () => setBlendSpace(world, eid, line, 0, undefined, { layer: 3.5 })],
      ['syncGroup', () => setBlendSpace(world, eid, line, 0, undefined, { syncGroup: 9 })],
      ['sync', () => setBlendSpace(world, eid, line, 0, undefined, { sync: 'yes' as unknown as boolean })],
      ['space.clips[1]', () => setBlendSpace(world, eid, createBlendSpace({ type: '1d', samples: [{ clip: forward, x: 0 }, { clip: oneShot, x: 1 }] }), 0.5)],
      ['metersPerSecond', () => setTargetSpeed(world, eid, Number.NaN)],
      ['cycle', () => setTargetSpeed(world, eid, 1, { cycle: 'mean' as 'net' })],
    ];
    for (const [field, call] of cases) {
      const error = refused(call);
      expect(error.issues.some((issue) => issue.path.startsWith(field)), `${field}: ${error.message}`).toBe(true);
      expect(snapshot()).toBe(before);
    }
    // A non-looping clip may play in an unsynced blend.
    setBlendSpace(world, eid, createBlendSpace({ type: '1d', samples: [{ clip: forward, x: 0 }, { clip: oneShot, x: 1 }] }), 0.5, undefined, { sync: false });
  });
});

describe('setBlendSpace: forward and backward hemispheres', () => {
  it('switching hemispheres at the side keeps the shared side clips on their layers, weights continuous', () => {
    const skeleton = biped(1);
    const walk = (dirX: number, dirZ: number, name: string) => directionalWalk(skeleton, 1, { dirX, dirZ, distance: 1.4, duration: 1.1, name });
    const fwd = walk(0, 1, 'forward'), back = walk(0, -1, 'backward'), left = walk(1, 0, 'left'), right = walk(-1, 0, 'right');
    const forward = createBlendSpace({ type: 'freeform', samples: [{ clip: fwd, x: 0, y: 1 }, { clip: left, x: 1, y: 0 }, { clip: right, x: -1, y: 0 }] });
    const backward = createBlendSpace({ type: 'freeform', samples: [{ clip: back, x: 0, y: -1 }, { clip: left, x: 1, y: 0 }, { clip: right, x: -1, y: 0 }] });
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true });
    const { Layers } = world.components;
    let hemisphere: 0 | 1 = 0;
    let heading = 120 * DEG; // turn from forward-right (x < 0) through the side to backward-right
    let lastSideWeight = -1;
    let checked = 0;
    let switched = false;
    runFor(world, 3, 1 / 60, undefined, () => {
      heading += 0.8 * DEG;
      const x = Math.cos(heading), y = Math.sin(heading);
      const next = pickHemisphere(forward, backward, y, hemisphere, 0.05);
      const sideLayer = layerOf(world, eid, right);
      if (next !== hemisphere) switched = true;
      hemisphere = next;
      setBlendSpace(world, eid, hemisphere === 0 ? forward : backward, x, y);
      // Near the side, the side clip stays where it was and its weight changes smoothly.
      if (sideLayer >= 0 && Math.abs(y) < 0.2) {
        expect(layerOf(world, eid, right)).toBe(sideLayer);
        const w = Layers.weight[eid * DEFAULT_MAX_LAYERS + sideLayer]!;
        if (lastSideWeight >= 0) expect(Math.abs(w - lastSideWeight)).toBeLessThan(0.05);
        lastSideWeight = w;
        checked++;
      }
    });
    expect(switched).toBe(true);
    expect(checked).toBeGreaterThan(20);
    expect(hemisphere).toBe(1);
  });
});
