/**
 * Issue 21 item 3: `createAnimationWorld({ maxLayers })` — layer slots per character, an integer
 * in [1, MAX_LAYERS = 16], default DEFAULT_MAX_LAYERS = 4.
 *
 * Poses are checked by hand on the transition tests' two-joint rig with static clips: clip k
 * holds the root at x_k and the arm turned θ_k about Z, so an override blend of weights w_k is
 * x = Σ w_k x_k / Σ w_k and θ = 2·atan2(Σ w_k sin(θ_k/2), Σ w_k cos(θ_k/2)) (nlerp of
 * quaternions about one axis), and an additive layer of weight 1 adds x_S − x_R and θ_S − θ_R.
 */
import { describe, expect, it } from 'vitest';
import {
  AnimationError, createAnimationWorld, getLocalPose, play, setBlendSpace, createBlendSpace, spawnCharacter, step, stop, transition, worldBytes,
  type AnimationWorld, type Clip,
} from '../../src/index.js';
import { DEFAULT_MAX_LAYERS, MAX_LAYERS, NO_CLIP } from '../../src/kernels.js';
import { createRandom } from '../fixtures/synthetic.js';
import { motionClip, rig, ROTATION, TRANSLATION, wrapAngle } from '../transitions/helpers.js';

const skeleton = rig();

/** A static clip: root at `x`, arm at `angle` rad about Z, for every time. */
function still(x: number, angle: number, name: string): Clip {
  return motionClip(skeleton, { x, vx: 0, angle, w: 0 }, name);
}

/** The expected override blend of static clips (x_k, θ_k) with weights w_k. */
function overrideBlend(layers: readonly { x: number; angle: number; w: number }[]): { x: number; angle: number } {
  let total = 0, x = 0, s = 0, c = 0;
  for (const { x: xk, angle, w } of layers) {
    total += w;
    x += w * xk;
    s += w * Math.sin(angle / 2);
    c += w * Math.cos(angle / 2);
  }
  return { x: x / total, angle: 2 * Math.atan2(s, c) };
}

function expectPose(world: AnimationWorld, eid: number, expected: { x: number; angle: number }, tolerance = 1e-6): void {
  const pose = getLocalPose(world, eid);
  expect(Math.abs(TRANSLATION.read(pose) - expected.x)).toBeLessThan(tolerance);
  expect(Math.abs(wrapAngle(ROTATION.read(pose) - expected.angle))).toBeLessThan(tolerance);
}

/** Copies of every typed array of every component, the registries' sizes and the clock: what a refused call must leave as it was. */
function snapshot(world: AnimationWorld): unknown {
  const arrays: Record<string, number[]> = {};
  for (const [name, component] of Object.entries(world.components)) {
    for (const [field, array] of Object.entries(component as object)) {
      if (ArrayBuffer.isView(array)) arrays[`${name}.${field}`] = Array.from(array as Float32Array);
    }
  }
  return { arrays, clips: world.assets.clips.length, bindings: world.assets.bindings.length, time: world.time };
}

/** Layer slots of `eid` holding a clip. */
function busy(world: AnimationWorld, eid: number): number {
  const { clip, maxLayers } = world.components.Layers;
  let n = 0;
  for (let li = eid * maxLayers; li < (eid + 1) * maxLayers; li++) if (clip[li] !== NO_CLIP) n++;
  return n;
}

function refusal(call: () => void): AnimationError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(AnimationError);
    return error as AnimationError;
  }
  throw new Error('expected an AnimationError');
}

describe('maxLayers: the option', () => {
  it('defaults to DEFAULT_MAX_LAYERS = 4 (MAX_LAYERS = 16 is the upper bound); the Layers pools hold maxLayers slots a row', () => {
    expect(DEFAULT_MAX_LAYERS).toBe(4);
    expect(MAX_LAYERS).toBe(16);
    const world = createAnimationWorld({ maxEntities: 3, maxJoints: 2 });
    expect(world.maxLayers).toBe(4);
    expect(world.components.Layers.maxLayers).toBe(4);
    expect(world.components.Layers.clip.length).toBe(4 * 4);
    for (const maxLayers of [1, 8, 16]) {
      const wide = createAnimationWorld({ maxEntities: 3, maxJoints: 2, maxLayers });
      expect(wide.maxLayers).toBe(maxLayers);
      expect(wide.components.Layers.maxLayers).toBe(maxLayers);
      expect(wide.components.Layers.clip.length).toBe(4 * maxLayers);
      expect(wide.components.Layers.rootDelta.length).toBe(4 * maxLayers * 3);
      expect(wide.scratch.layerSamples.length).toBe(maxLayers * 2 * 10);
      expect(wide.scratch.layerPlan.layerOff.length).toBe(maxLayers);
    }
  });

  it.each([0, 17, 2.5, -1, Number.NaN, '8'])('refuses maxLayers %s, naming maxLayers and the value', (maxLayers) => {
    const error = refusal(() => createAnimationWorld({ maxEntities: 3, maxJoints: 2, maxLayers: maxLayers as number }));
    expect(error.issues.map((i) => i.path)).toEqual(['maxLayers']);
    expect(error.message).toContain('createAnimationWorld: maxLayers is ');
    expect(error.message).toContain(`is ${maxLayers === '8' ? '"8"' : String(maxLayers)}`);
    expect(error.message).toContain('must be an integer ≥ 1 and ≤ 16');
  });

  it('worldBytes counts maxLayers: 81 bytes a slot per row, 2 × maxJoints × 40 + 36 bytes of blend scratch a slot; createAnimationWorld allocates that', () => {
    // Per slot: clip, mask, reference, binding (Int32), time (Float64), speed, weight, fadeFrom,
    // fadeTo, fadeElapsed, fadeDuration, rootYaw, rootScale, syncRate, phaseOffset (Float32),
    // rootDelta (3 × Float32), flags, fadeCurve, rootAxis, syncGroup, syncBy (1 byte each).
    const perSlot = 4 * 4 + 8 + 10 * 4 + 12 + 5;
    expect(perSlot).toBe(81);
    // Per slot and thread: layerSamples and layerPoses (maxJoints × 10 floats each), and the layer
    // plan's per-slot arrays: source, overrideSlot, layerOff, additiveSlot, steps (Int32), time (Float64),
    // weight, layerWeight (Float32).
    const scratch = (joints: number): number => 2 * joints * 10 * 4 + 5 * 4 + 8 + 2 * 4;
    const rows = 1001;
    for (const maxLayers of [1, 8, 16]) {
      const extra = maxLayers - 4;
      // A one-layer world runs one state machine, not the default two (115 bytes a machine slot per row).
      const machines = maxLayers === 1 ? -rows * 115 : 0;
      expect(worldBytes({ maxEntities: 1000, maxJoints: 64, maxEvents: 4096, kernels: 'js', maxLayers }) - worldBytes({ maxEntities: 1000, maxJoints: 64 })).toBe(extra * (rows * perSlot + scratch(64)) + machines);
    }
    const base = createAnimationWorld({ maxEntities: 1000, maxJoints: 64, kernels: 'js' });
    const wide = createAnimationWorld({ maxEntities: 1000, maxJoints: 64, kernels: 'js', maxLayers: 16 });
    // The buffer holds the same bytes, each of its 20 Layers arrays and 5 scratch arrays rounded up to 16 (POOL_ALIGN).
    expect(Math.abs(wide.poolBuffer.byteLength - base.poolBuffer.byteLength - 12 * (rows * perSlot + scratch(64)))).toBeLessThan(25 * 16);
    expect(() => worldBytes({ maxEntities: 1000, maxJoints: 64, maxEvents: 4096, kernels: 'js', maxLayers: 17 })).toThrow('worldBytes: maxLayers is 17: must be an integer ≥ 1 and ≤ 16');
  });

  it('play, stop, setLayerWeight and transition take layers 0 … maxLayers − 1; past it the error names the world\'s maxLayers', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2, maxLayers: 8 });
    const eid = spawnCharacter(world, skeleton);
    const a = still(1, 0.1, 'a');
    play(world, eid, a, { layer: 7 });
    expect(world.components.Layers.clip[eid * 8 + 7]).toBe(world.assets.clipIds.get(a));
    const before = snapshot(world);
    expect(refusal(() => play(world, eid, a, { layer: 8 })).message)
      .toBe("play: layer is 8: must be an integer in [0, 7] (the world's maxLayers is 8; createAnimationWorld({ maxLayers }) allows up to 16)");
    expect(refusal(() => transition(world, eid, a, { duration: 0.2, layer: 8 })).message).toContain('transition: layer is 8: must be an integer in [0, 7]');
    expect(refusal(() => play(world, eid, a, { layer: 0, syncGroup: 8 })).message).toContain('play: syncGroup is 8: must be an integer in [0, 7]');
    expect(refusal(() => stop(world, eid, 8)).message).toContain('stop: layer is 8');
    expect(snapshot(world)).toEqual(before);
    const full = createAnimationWorld({ maxEntities: 2, maxJoints: 2, maxLayers: 16 });
    const other = spawnCharacter(full, skeleton);
    expect(refusal(() => play(full, other, a, { layer: 16 })).message).toBe("play: layer is 16: must be an integer in [0, 15] (the world's maxLayers is 16)");
  });

  it('a blend space fits where its slots do: a bilinear space from layer 5 in 8 layers, not from layer 5 in 8 − 1', () => {
    const corners = [still(0, 0, 'a'), still(1, 0, 'b'), still(0, 0.4, 'c'), still(1, 0.4, 'd')];
    const grid = createBlendSpace({ type: 'bilinear', samples: corners.map((clip, k) => ({ clip, x: k % 2, y: Math.floor(k / 2) })) });
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2, maxLayers: 8 });
    const eid = spawnCharacter(world, skeleton);
    expect(refusal(() => setBlendSpace(world, eid, grid, 0.5, 0.5, { layer: 5, sync: false })).message).toBe(
      "setBlendSpace: layer is 5: a 'bilinear' space needs 4 layers, 5 to 8, and the last layer is 7 (the world's maxLayers is 8; createAnimationWorld({ maxLayers }) allows up to 16)",
    );
    setBlendSpace(world, eid, grid, 0.25, 0.5, { layer: 4, sync: false });
    step(world, 1 / 60);
    // Bilinear weights at (0.25, 0.5): a 0.375, b 0.125, c 0.375, d 0.125.
    expectPose(world, eid, overrideBlend([
      { x: 0, angle: 0, w: 0.375 }, { x: 1, angle: 0, w: 0.125 }, { x: 0, angle: 0.4, w: 0.375 }, { x: 1, angle: 0.4, w: 0.125 },
    ]));
  });
});

describe('maxLayers: blending many layers', () => {
  it('weights add up as on 4 layers: the same four layers give the same bits in worlds of 4, 8 and 16 slots', () => {
    const clips = [still(0.5, 0.2, 'a'), still(-1, 0.7, 'b'), still(2, -0.3, 'c'), still(0.25, 1.1, 'd')];
    const poses = [4, 8, 16].map((maxLayers) => {
      const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2, maxLayers, kernels: 'js' });
      const eid = spawnCharacter(world, skeleton);
      clips.forEach((clip, layer) => play(world, eid, clip, { layer, weight: [0.4, 0.3, 0.2, 0.1][layer] }));
      step(world, 1 / 60);
      return Array.from(getLocalPose(world, eid));
    });
    expect(poses[1]).toEqual(poses[0]);
    expect(poses[2]).toEqual(poses[0]);
  });

  it('8 override layers blend by normalized weights (hand-checked)', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2, maxLayers: 8 });
    const eid = spawnCharacter(world, skeleton);
    const layers = Array.from({ length: 8 }, (_, k) => ({ x: k - 2, angle: 0.15 * k, w: 0.1 + 0.05 * k }));
    layers.forEach((l, layer) => play(world, eid, still(l.x, l.angle, `c${layer}`), { layer, weight: l.w, blend: 'average' }));
    step(world, 1 / 60);
    // x = Σ w_k (k − 2) / Σ w_k with w_k = 0.1 + 0.05k: Σ w = 2.2, Σ w·k = 0.1·28 + 0.05·140 = 9.8, so x = 9.8/2.2 − 2.
    expect(overrideBlend(layers).x).toBeCloseTo(9.8 / 2.2 - 2, 12);
    expectPose(world, eid, overrideBlend(layers));
  });

  it('16 layers: 15 override layers and an additive one on the last (hand-checked)', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2, maxLayers: 16 });
    const eid = spawnCharacter(world, skeleton);
    const layers = Array.from({ length: 15 }, (_, k) => ({ x: 0.1 * k, angle: 0.05 * k, w: 1 }));
    layers.forEach((l, layer) => play(world, eid, still(l.x, l.angle, `c${layer}`), { layer, weight: l.w, blend: 'average' }));
    // Equal weights: x = mean of 0.1k over k = 0 … 14 = 0.7, θ = 2·atan2(Σ sin(0.025k), Σ cos(0.025k)) = 0.35 (symmetric about k = 7).
    expect(overrideBlend(layers).x).toBeCloseTo(0.7, 12);
    expect(overrideBlend(layers).angle).toBeCloseTo(0.35, 12);
    step(world, 1 / 60);
    expectPose(world, eid, { x: 0.7, angle: 0.35 });
    // Additive on layer 15: S (x 0.5, θ 0.3) against R (x 0.2, θ 0.1), weight 1: adds 0.3 m and 0.2 rad.
    play(world, eid, still(0.5, 0.3, 'wave'), { layer: 15, additive: true, reference: still(0.2, 0.1, 'ref'), weight: 1 });
    step(world, 1 / 60);
    expectPose(world, eid, { x: 1.0, angle: 0.55 });
    expect(busy(world, eid)).toBe(16);
  });

  it('cross-fades on four layers at once in 8 slots: each outgoing clip takes a free slot; at half the fade every pair weighs 0.5 each', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2, maxLayers: 8 });
    const eid = spawnCharacter(world, skeleton);
    const from = [0, 1, 2, 3].map((k) => ({ x: k, angle: 0.1 * k }));
    const to = [0, 1, 2, 3].map((k) => ({ x: -k - 1, angle: 0.5 + 0.1 * k }));
    // Averaged layers (the transitions keep their mode), so every clip counts: the hand-checked sums.
    from.forEach((p, layer) => play(world, eid, still(p.x, p.angle, `from${layer}`), { layer, blend: 'average' }));
    step(world, 1 / 60);
    expectPose(world, eid, overrideBlend(from.map((p) => ({ ...p, w: 1 }))));
    to.forEach((p, layer) => transition(world, eid, still(p.x, p.angle, `to${layer}`), { duration: 0.5, mode: 'crossfade', layer }));
    expect(busy(world, eid)).toBe(8);
    step(world, 0.25);
    const { weight } = world.components.Layers;
    for (let li = eid * 8; li < eid * 8 + 8; li++) expect(weight[li]).toBeCloseTo(0.5, 6);
    expectPose(world, eid, overrideBlend([...from, ...to].map((p) => ({ ...p, w: 0.5 }))));
    // The fades end: the outgoing slots are emptied and the incoming clips weigh 1.
    step(world, 0.25);
    expect(busy(world, eid)).toBe(4);
    expectPose(world, eid, overrideBlend(to.map((p) => ({ ...p, w: 1 }))));
  });
});

describe('maxLayers: the soak of random plays and cross-fades', () => {
  /**
   * 40 characters play three layers (0 base, 1 and 2 over it) and every 0.2 s cross-fade one of
   * them (random layer, clip and duration in [0.1, 0.55] s) or play a clip on one: at most three
   * fades are in progress on a character (one started 0.6 s ago has ended), so 3 + 3 slots are
   * the most a character needs. Returns the refusals and the most slots a character had busy.
   */
  function soak(maxLayers: number): { refusals: AnimationError[]; most: number; refusedUnchanged: boolean } {
    const world = createAnimationWorld({ maxEntities: 40, maxJoints: 2, maxLayers, kernels: 'js' });
    const clips = Array.from({ length: 6 }, (_, k) => still(k * 0.3, 0.2 * k, `clip${k}`));
    const random = createRandom(21);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const eids = Array.from({ length: 40 }, () => spawnCharacter(world, skeleton));
    for (const eid of eids) for (let layer = 0; layer < 3; layer++) play(world, eid, pick(clips), { layer, weight: layer === 0 ? 1 : 0.5 });
    const refusals: AnimationError[] = [];
    let most = 0, refusedUnchanged = true;
    for (let frame = 0; frame < 600; frame++) {
      for (let n = 0; n < eids.length; n++) {
        if ((frame + n) % 6 !== 0) continue; // each character every 6 frames (0.2 s)
        const eid = eids[n]!, layer = Math.floor(random() * 3), clip = pick(clips);
        if (random() < 0.2) {
          play(world, eid, clip, { layer, weight: layer === 0 ? 1 : 0.5 });
          continue;
        }
        const duration = 0.1 + 0.45 * random();
        const before = refusals.length < 3 ? snapshot(world) : null;
        try {
          transition(world, eid, clip, { duration, mode: 'crossfade', layer });
        } catch (error) {
          if (!(error instanceof AnimationError)) throw error;
          refusals.push(error);
          if (before !== null && JSON.stringify(snapshot(world)) !== JSON.stringify(before)) refusedUnchanged = false;
        }
      }
      step(world, 1 / 30);
      for (const eid of eids) most = Math.max(most, busy(world, eid));
      for (const eid of eids) for (const v of getLocalPose(world, eid)) if (!Number.isFinite(v)) throw new Error(`character ${eid}: a pose value is ${v}`);
    }
    return { refusals, most, refusedUnchanged };
  }

  it('runs out of 4 slots: the AnimationError names the slot limit and maxLayers, and the refused call changes nothing', () => {
    const { refusals, refusedUnchanged } = soak(4);
    expect(refusals.length).toBeGreaterThan(10);
    for (const error of refusals) {
      expect(error.message).toBe("transition: mode 'crossfade' needs a free layer slot for the outgoing clip and all 4 (maxLayers) are in use: "
        + 'stop a layer or use inertialization, or create the world with a larger maxLayers (createAnimationWorld({ maxLayers }), up to 16)');
    }
    expect(refusedUnchanged).toBe(true);
  });

  it('fits in maxLayers 8: no refusal, and characters did use more than 4 slots', () => {
    const { refusals, most } = soak(8);
    expect(refusals).toEqual([]);
    expect(most).toBeGreaterThan(4);
    expect(most).toBeLessThanOrEqual(6);
  });

  it('exhausting 8 or 16 slots still refuses, changing nothing (at 16 no larger maxLayers is offered)', () => {
    for (const maxLayers of [8, 16]) {
      const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2, maxLayers });
      const eid = spawnCharacter(world, skeleton);
      for (let layer = 0; layer < maxLayers; layer++) play(world, eid, still(layer, 0, `c${layer}`), { layer, weight: 0.5 });
      step(world, 1 / 60);
      const before = snapshot(world);
      const error = refusal(() => transition(world, eid, still(9, 0, 'next'), { duration: 0.3, mode: 'crossfade', layer: 2 }));
      expect(error.issues.map((i) => i.path)).toEqual(['mode']);
      expect(error.message).toContain(`all ${maxLayers} (maxLayers) are in use`);
      expect(error.message.includes('create the world with a larger maxLayers')).toBe(maxLayers < 16);
      expect(snapshot(world)).toEqual(before);
    }
  });
});
