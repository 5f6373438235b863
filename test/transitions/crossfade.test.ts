/**
 * Acceptance tests of cross-fades (`mode: 'crossfade'`) through the public API: a frozen fade
 * holds the source pose, a smooth one plays both clips; the outgoing layer slot is emptied
 * when its weight reaches 0; with no free slot the call throws and changes nothing.
 *
 * Expected poses are computed here from the clips' motions: with linear weights u = t / t1,
 * translation is (1 − u)·x_A + u·x_B and the rotation (both about Z) the normalised weighted
 * sum of the two quaternions (nlerp), whose angle is 2·atan2(Σ w sin(θ/2), Σ w cos(θ/2)).
 */
import { describe, expect, it } from 'vitest';
import { AnimationError, getLocalPose, play, step, transition, type AnimationWorld } from '../../src/index.js';
import { DEFAULT_MAX_LAYERS, NO_CLIP } from '../../src/kernels.js';
import { CHANNELS, expectPoseClose, FRAME_DT, motionClip, ROTATION, TRANSLATION, wrapAngle, type Motion } from './helpers.js';
import { A, B_MOVING, C, SWITCH, switchScene, T1 } from './scene.js';

/** Expected rotation angle and root x of the linear blend of A at `timeA` and B at `timeB`. */
function blended(u: number, timeA: number, b: Motion, timeB: number): { angle: number; x: number } {
  const thA = ROTATION.at(A, timeA), thB = ROTATION.at(b, timeB);
  const s = (1 - u) * Math.sin(thA / 2) + u * Math.sin(thB / 2);
  const c = (1 - u) * Math.cos(thA / 2) + u * Math.cos(thB / 2);
  return { angle: 2 * Math.atan2(s, c), x: (1 - u) * TRANSLATION.at(A, timeA) + u * TRANSLATION.at(b, timeB) };
}

/** The layer slots of `eid` other than layer 0 that hold a clip. */
function busySlots(world: AnimationWorld, eid: number): number[] {
  const slots: number[] = [];
  for (let li = eid * DEFAULT_MAX_LAYERS + 1; li < (eid + 1) * DEFAULT_MAX_LAYERS; li++) if (world.components.Layers.clip[li]! !== NO_CLIP) slots.push(li);
  return slots;
}

/** Copies of every component array and registry size: what a refused call must leave as it was. */
function snapshot(world: AnimationWorld): unknown {
  const arrays: number[][] = [];
  for (const component of Object.values(world.components)) {
    for (const array of Object.values(component)) arrays.push(Array.from(array as ArrayLike<number>));
  }
  return { arrays, clips: world.assets.clips.length, bindings: world.assets.bindings.length, time: world.time };
}

describe('cross-fade', () => {
  it.each([
    { frozen: true, label: 'a frozen cross-fade holds the source pose: the outgoing layer\'s time stops' },
    { frozen: false, label: 'a smooth cross-fade advances both clips' },
  ])('$label', ({ frozen }) => {
    const scene = switchScene({ duration: T1, mode: 'crossfade', frozen }, B_MOVING, FRAME_DT);
    const { Layers } = scene.world.components;
    const slots = busySlots(scene.world, scene.eid);
    expect(slots).toHaveLength(1);
    const out = slots[0]!;
    expect(Layers.clip[out]).toBe(scene.world.assets.clipIds.get(scene.a));
    const timeAtSwitch = Layers.time[out]!;
    expect(timeAtSwitch).toBeCloseTo(SWITCH, 9);
    expect(Layers.speed[out]).toBe(frozen ? 0 : 1);

    let checked = 0;
    for (let n = 1; n * FRAME_DT < T1 - 1e-9; n++) {
      step(scene.world, FRAME_DT);
      const t = scene.world.time - scene.switchTime;
      expect(Layers.time[out]).toBeCloseTo(frozen ? timeAtSwitch : timeAtSwitch + t, 9);
      const expected = blended(t / T1, frozen ? SWITCH : SWITCH + t, B_MOVING, t);
      const pose = getLocalPose(scene.world, scene.eid);
      expect(Math.abs(wrapAngle(ROTATION.read(pose) - expected.angle)), `t = ${t}`).toBeLessThan(2e-5);
      expect(Math.abs(TRANSLATION.read(pose) - expected.x), `t = ${t}`).toBeLessThan(2e-5);
      checked++;
    }
    expect(checked).toBe(29);
  });

  it('empties the outgoing slot when the fade ends; the output is then B alone', () => {
    const scene = switchScene({ duration: T1, mode: 'crossfade' }, B_MOVING, FRAME_DT);
    const { Layers } = scene.world.components;
    const out = busySlots(scene.world, scene.eid)[0]!;
    const layer0 = scene.eid * DEFAULT_MAX_LAYERS;
    let emptiedAt = Number.NaN;
    for (let n = 0; n < 40; n++) {
      step(scene.world, FRAME_DT);
      const t = scene.world.time - scene.switchTime;
      if (Layers.clip[out]! === NO_CLIP && Number.isNaN(emptiedAt)) emptiedAt = t;
      if (t < T1 - 1e-6) expect(Layers.clip[out], `t = ${t}`).not.toBe(NO_CLIP);
      if (t > T1 + 1e-6) {
        expect(Layers.clip[out], `t = ${t}`).toBe(NO_CLIP);
        expect(Layers.weight[layer0]).toBe(1);
        expect(Layers.fadeCurve[layer0]).toBe(0);
        expectPoseClose(getLocalPose(scene.world, scene.eid), getLocalPose(scene.world, scene.ref), 1e-5, `t = ${t}`);
      }
    }
    expect(emptiedAt).toBeCloseTo(T1, 6);
    expect(busySlots(scene.world, scene.eid)).toEqual([]);
  });

  it('onto an empty layer fades it in from 0 without an outgoing slot', () => {
    const scene = switchScene({ duration: 0 }, B_MOVING, FRAME_DT); // just a scene; layer 1 is empty
    const c = motionClip(scene.skeleton, C, 'C');
    transition(scene.world, scene.eid, c, { duration: T1, mode: 'crossfade', layer: 1 });
    const { Layers } = scene.world.components;
    expect(busySlots(scene.world, scene.eid)).toEqual([scene.eid * DEFAULT_MAX_LAYERS + 1]);
    step(scene.world, 0.25);
    expect(Layers.weight[scene.eid * DEFAULT_MAX_LAYERS + 1]).toBeCloseTo(0.5, 6);
  });

  it('with all 4 layer slots busy throws an AnimationError naming the mode, and changes nothing', () => {
    const scene = switchScene({ duration: 0 }, B_MOVING, FRAME_DT);
    const c = motionClip(scene.skeleton, C, 'C');
    for (let layer = 1; layer < DEFAULT_MAX_LAYERS; layer++) play(scene.world, scene.eid, scene.a, { layer, weight: 0.1 });
    step(scene.world, FRAME_DT);
    const before = snapshot(scene.world);
    let error: unknown;
    try {
      transition(scene.world, scene.eid, c, { duration: T1, mode: 'crossfade' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AnimationError);
    expect((error as AnimationError).where).toBe('transition');
    expect((error as AnimationError).issues.map((i) => i.path)).toEqual(['mode']);
    expect((error as AnimationError).message).toMatch(/free layer slot/);
    expect(snapshot(scene.world)).toEqual(before);
    // Inertialization needs no slot: the same switch is accepted that way.
    expect(() => transition(scene.world, scene.eid, c, { duration: T1 })).not.toThrow();
  });

  // Interrupting a cross-fade: the interrupted clips fade out from their current weights, and
  // the new clip must end at the layer's weight (1 here), not at the weight the interrupted
  // fade-in had reached. Interrupted one frame in, that weight is 1/30 — below the world's
  // blendThreshold (0.1), where the rest pose is blended in.
  it.each([
    { mode: 'crossfade', label: 'a cross-fade' },
    { mode: 'inertialize', label: 'an inertialization' },
  ] as const)('$label that interrupts a cross-fade one frame in ends on the new clip alone (layer weight back to 1)', ({ mode }) => {
    const scene = switchScene({ duration: T1, mode: 'crossfade' }, B_MOVING, FRAME_DT);
    step(scene.world, FRAME_DT);
    const c = motionClip(scene.skeleton, C, 'C');
    transition(scene.world, scene.eid, c, { duration: T1, mode });
    transition(scene.world, scene.ref2, c, { duration: 0 });
    for (let n = 0; n < 60; n++) step(scene.world, FRAME_DT); // 1 s: both fades long over
    const pose = getLocalPose(scene.world, scene.eid);
    const alone = getLocalPose(scene.world, scene.ref2);
    const weight = scene.world.components.Layers.weight[scene.eid * DEFAULT_MAX_LAYERS]!;
    console.log(
      `[transitions] ${mode} interrupting a cross-fade 1 frame in, 1 s later: layer 0 weight ${weight}, ` +
        `root x ${TRANSLATION.read(pose)} (C alone ${TRANSLATION.read(alone)}), ` +
        `arm angle ${ROTATION.read(pose)} (C alone ${ROTATION.read(alone)})`,
    );
    expect(busySlots(scene.world, scene.eid)).toEqual([]);
    expectPoseClose(pose, alone, 1e-5, '(output vs C alone)');
    expect(weight).toBe(1);
  });
});

describe.each(CHANNELS)('cross-fade velocity, $name channel', (channel) => {
  it('a linear cross-fade has no velocity continuity: the jump grows with the pose gap (|B − A| / t1)', () => {
    const scene = switchScene({ duration: T1, mode: 'crossfade' }, B_MOVING);
    const v = scene.rec.run(2, 1 / 1000).velocityAround(channel, scene.k);
    const gap = channel.at(B_MOVING, 0) - channel.at(A, SWITCH);
    // d/dt[(1 − u)·A + u·B] at u = 0 is v_A + (B − A)/t1.
    expect(v.after).toBeCloseTo(channel.velocity(A) + gap / T1, 1);
  });
});
