/** examples/stateMachine.ts (docs/stateMachines.md), run on the Fox. */
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, drainEvents, getLocalPose, loadGltf, spawnCharacter } from '../../src/index.js';
import { foxFrame, FOX_LOCOMOTION, startFox } from '../../examples/stateMachine.js';
import { readAsset } from '../support/assets.js';

describe('examples/stateMachine.ts (docs/stateMachines.md)', () => {
  it('the fox idles, walks and runs by speed, sniffs on the trigger and comes back at exit time 0.9', async () => {
    const { skeletons, clips } = await loadGltf(readAsset('Fox.glb'), { scale: 'cm' });
    // The description is plain data: it survives JSON.
    expect(JSON.parse(JSON.stringify(FOX_LOCOMOTION))).toEqual(FOX_LOCOMOTION);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 24 });
    const eid = spawnCharacter(world, skeletons[0]!);
    startFox(world, eid, clips);
    const dt = 1 / 60;
    const timeline: string[] = [];
    let sniffFrames = 0;
    const run = (frames: number, speed: number, sniffAt = -1): void => {
      for (let f = 0; f < frames; f++) {
        const state = foxFrame(world, eid, speed, f === sniffAt, dt);
        if (timeline[timeline.length - 1] !== state) timeline.push(state);
        if (state === 'sniff') sniffFrames++;
      }
    };
    run(30, 0);
    const idlePose = Array.from(getLocalPose(world, eid));
    run(60, 2.5);
    // Walking: the pose is not the idle's.
    expect(getLocalPose(world, eid).some((v, i) => Math.abs(v - idlePose[i]!) > 1e-3)).toBe(true);
    run(60, 0);
    run(240, 0, 10);
    expect(timeline).toEqual(['idle', 'move', 'idle', 'sniff', 'idle']);
    // The sniff plays Survey at rate 2 until its phase reaches 0.9: 0.9 × D / 2 seconds, within a frame.
    const survey = clips.find((c) => c.name === 'Survey')!;
    expect(Math.abs(sniffFrames * dt - (0.9 * survey.duration) / 2)).toBeLessThanOrEqual(dt + 1e-9);
    expect(drainEvents(world).map((e) => `${e.name} ${e.clip.name}`)).toEqual(['sniff-start fox', 'sniff-end fox']);
  });
});
