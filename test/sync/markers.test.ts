/**
 * Marker sync: `play(…, { syncGroup, syncBy: 'markers' })` and blend spaces with
 * `syncBy: 'markers'` warp each follower between the foot markers matching its leader's.
 *
 * 1. The warp kernel (`warpToMarkers`) against hand-derived tables.
 * 2. The Fox's Walk and a copy rotated in time by half its cycle (so it starts on the other
 *    feet), both through `detectFootContacts`: by markers their left hind paw goes down in the
 *    same frame (and the copy plays exactly half a cycle ahead); by phase, half a cycle apart.
 * 3. Two cuts of the CMU walk with different step counts (2 and 4, the 4 uneven) in a blend
 *    space: by markers the same feet are down in both ≥ 95 % of the frames; by phase near chance.
 * 4. Validation.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createAnimationWorld,
  createBlendSpace,
  createClip,
  detectFootContacts,
  drainEvents,
  loadGltf,
  parseBvh,
  play,
  setBlendSpace,
  spawnCharacter,
  step,
  type AnimationWorld,
  type Clip,
  type FootContacts,
} from '../../src/index.js';
import { getSyncMarkers, syncMarkerId, warpToMarkers, WARP_FOLLOWER_TIME, WARP_LEADER_TIME, WARP_RATIO, WARP_TIME, type SyncMarkers } from '../../src/assets/syncMarkers.js';
import { refused } from '../fixtures/errors.js';
import { syncByMarkers } from '../../examples/markerSync.js';
import { smallestAllocation } from '../support/allocation.js';
import { readAsset, readAssetText } from '../support/assets.js';

const DT = 1 / 60;

/** A marker table by hand: [name, time] pairs in time order. */
function table(duration: number, markers: [string, number][]): SyncMarkers {
  return {
    times: Float64Array.from(markers, ([, t]) => t),
    names: Int32Array.from(markers, ([n]) => syncMarkerId(n)),
    duration,
  };
}

describe('warpToMarkers', () => {
  const out = new Float64Array(4);
  /** warpToMarkers with the leader at `leaderTime` and the follower at `followerTime`. */
  const warp = (leader: SyncMarkers, leaderTime: number, follower: SyncMarkers, followerTime: number): boolean => {
    out[WARP_LEADER_TIME] = leaderTime;
    out[WARP_FOLLOWER_TIME] = followerTime;
    return warpToMarkers(out, leader, follower);
  };
  // Leader: left down at 0.1, right down at 0.6 (cycle 1 s). Follower starts on the right foot:
  // right at 0.05, left at 0.45 (cycle 0.8 s).
  const leader = table(1, [['footDown:L', 0.1], ['footDown:R', 0.6]]);
  const follower = table(0.8, [['footDown:R', 0.05], ['footDown:L', 0.45]]);

  it('maps the fraction between the leader markers to the follower markers of the same names', () => {
    // t = 0.35: halfway from L (0.1) to R (0.6); the follower's L is at 0.45, its next R at 0.05 + 0.8.
    expect(warp(leader, 0.35, follower, 0)).toBe(true);
    expect(out[WARP_TIME]).toBeCloseTo(0.65, 12);
    expect(out[WARP_RATIO]).toBeCloseTo(0.4 / 0.5, 12);
    // t = 0.05, before the first marker: from R at 0.6 − 1 to L at 0.1, 0.45 / 0.5 = 0.9 of the way.
    expect(warp(leader, 0.05, follower, 0)).toBe(true);
    expect(out[WARP_TIME]).toBeCloseTo(0.05 + 0.9 * 0.4, 12);
    // At a marker: exactly the follower's marker.
    expect(warp(leader, 0.6, follower, 0.3)).toBe(true);
    expect(out[WARP_TIME]).toBeCloseTo(0.05, 12);
  });

  it('uneven steps warp piecewise: each segment its own ratio', () => {
    const uneven = table(1, [['footDown:L', 0], ['footDown:R', 0.7]]); // a 0.7 s step then a 0.3 s step
    const even = table(1, [['footDown:L', 0], ['footDown:R', 0.5]]);
    warp(even, 0.25, uneven, 0);
    expect(out[WARP_TIME]).toBeCloseTo(0.35, 12);
    expect(out[WARP_RATIO]).toBeCloseTo(1.4, 12);
    warp(even, 0.75, uneven, 0);
    expect(out[WARP_TIME]).toBeCloseTo(0.85, 12);
    expect(out[WARP_RATIO]).toBeCloseTo(0.6, 12);
  });

  it('a follower with a name twice takes the occurrence nearest its own time', () => {
    const fourSteps = table(1.2, [['footDown:L', 0], ['footDown:R', 0.3], ['footDown:L', 0.6], ['footDown:R', 0.9]]);
    warp(leader, 0.35, fourSteps, 0.7);
    expect(out[WARP_TIME]).toBeCloseTo(0.75, 12);
    warp(leader, 0.35, fourSteps, 0.1);
    expect(out[WARP_TIME]).toBeCloseTo(0.15, 12);
    // Near the seam, the nearest is cyclic: 1.15 is 0.05 from 0.
    warp(leader, 0.05, fourSteps, 0.02);
    expect(out[WARP_TIME]).toBeCloseTo(0.9 + 0.9 * 0.3, 12);
  });

  it('only shared names take part; one shared marker warps over whole cycles; none: false', () => {
    const withToe = table(1, [['footDown:L', 0.1], ['footDown:toe', 0.4]]);
    const onlyL = table(2, [['footDown:L', 0.2]]);
    // t = 0.6: from L at 0.1 to L at 1.1 (the toe is not the follower's), half way.
    expect(warp(withToe, 0.6, onlyL, 0)).toBe(true);
    expect(out[WARP_TIME]).toBeCloseTo(0.2 + 0.5 * 2, 12);
    expect(out[WARP_RATIO]).toBeCloseTo(2, 12);
    out[WARP_TIME] = -7;
    out[WARP_RATIO] = -7;
    expect(warp(withToe, 0.6, table(1, [['footUp:L', 0.3]]), 0)).toBe(false);
    expect([out[WARP_TIME], out[WARP_RATIO]]).toEqual([-7, -7]); // untouched
  });
});

// ---- the Fox's Walk against itself, half a cycle on ---------------------------------------------

const FOX_FEET = ['b_LeftFoot02_018', 'b_RightFoot02_022', 'b_LeftHand_011', 'b_RightHand_08'];
const LEFT_HIND_DOWN = 'footDown:b_LeftFoot02_018';

/** `clip` (looping, its seam frame included) started `shift` frames later: frame f is the old frame f + shift (mod its distinct frames). */
function rotate(clip: Clip, shift: number, name: string): Clip {
  const size = clip.skeleton.jointCount * 10;
  const n = clip.frameCount - 1;
  const frames = new Float32Array(n * size);
  for (let f = 0; f < n; f++) frames.set(clip.frames.subarray(((f + shift) % n) * size, ((f + shift) % n + 1) * size), f * size);
  return createClip({ skeleton: clip.skeleton, frameRate: clip.frameRate, frames, loop: true, appendSeam: true, name });
}

let foxWalk: Clip, fox: FootContacts, foxShifted: FootContacts, shift: number;

beforeAll(async () => {
  const { clips } = await loadGltf(readAsset('Fox.glb'), { scale: 'cm' });
  foxWalk = clips.find((c) => c.name === 'Walk')!;
  shift = Math.round((foxWalk.frameCount - 1) / 2); // 17 of 34 frames
  fox = detectFootContacts(foxWalk, { feet: FOX_FEET });
  foxShifted = detectFootContacts(rotate(foxWalk, shift, 'Walk, half a cycle on'), { feet: FOX_FEET });
});

/** World times (`world.events.at`: when playback crossed them) of `name` events per clip, from a run of `frames` frames. */
function runEvents(world: AnimationWorld, frames: number, name: string): Map<Clip, number[]> {
  const out = new Map<Clip, number[]>();
  const q = world.events;
  for (let f = 0; f < frames; f++) {
    step(world, DT);
    for (let n = 0; n < q.count; n++) {
      const r = (q.head + n) % q.capacity;
      const clip = world.assets.clips[q.clip[r]!]!;
      if (clip.events[q.event[r]!]!.name === name) out.set(clip, [...(out.get(clip) ?? []), q.at[r]!]);
    }
    drainEvents(world);
  }
  return out;
}

describe('two cycles that start on opposite feet', () => {
  it('the rotated copy has the same contacts, half a cycle earlier (detectFootContacts is cyclic)', () => {
    const d = foxWalk.duration, offset = shift / foxWalk.frameRate;
    const down = (c: FootContacts) => c.clip.events.find((e) => e.name === LEFT_HIND_DOWN)!.time;
    expect(down(fox)).toBeCloseTo(0.5, 9);
    expect(down(foxShifted)).toBeCloseTo((0.5 - offset + d) % d, 9);
  });

  for (const syncBy of ['markers', 'phase'] as const) {
    it(`blended in a sync group by ${syncBy}: left hind paws ${syncBy === 'markers' ? 'within a frame' : 'half a cycle apart'}`, () => {
      const world = createAnimationWorld({ maxEntities: 2, maxJoints: foxWalk.skeleton.jointCount });
      const eid = spawnCharacter(world, foxWalk.skeleton);
      play(world, eid, fox.clip, { weight: 0.5, syncGroup: 0, syncBy });
      play(world, eid, foxShifted.clip, { layer: 1, weight: 0.5, syncGroup: 0, syncBy, time: 0.2 });
      const times = runEvents(world, 240, LEFT_HIND_DOWN);
      const a = times.get(fox.clip)!, b = times.get(foxShifted.clip)!;
      expect(a.length).toBeGreaterThanOrEqual(5);
      const gaps = a.map((t) => Math.min(...b.map((u) => Math.abs(u - t))));
      const half = shift / foxWalk.frameRate;
      console.log(`Fox Walk and its half-cycle copy by ${syncBy}: left hind paw down ${a.length}× / ${b.length}×, largest gap ${Math.max(...gaps).toFixed(4)} s (half a cycle ${half.toFixed(4)} s)`);
      if (syncBy === 'markers') {
        expect(Math.abs(a.length - b.length)).toBeLessThanOrEqual(1);
        for (const g of gaps) expect(g).toBeLessThanOrEqual(DT);
        // The copy is the same motion started `shift` frames on: it must play exactly that far ahead.
        const { time } = world.components.Layers;
        const li = eid * world.maxLayers;
        const ahead = ((time[li + 1]! - time[li]! - half) % foxWalk.duration + 1.5 * foxWalk.duration) % foxWalk.duration - 0.5 * foxWalk.duration;
        expect(Math.abs(ahead)).toBeLessThan(1e-4);
      } else {
        for (const g of gaps) expect(Math.abs(g - half)).toBeLessThanOrEqual(DT);
      }
    });
  }
});

describe('the guide example (examples/markerSync.ts)', () => {
  it('plays the Walk and its half-cycle copy in step: the copy exactly half a cycle ahead, by play and by the space', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: foxWalk.skeleton.jointCount });
    const eid = spawnCharacter(world, foxWalk.skeleton);
    const { space } = syncByMarkers(world, eid, foxWalk, rotate(foxWalk, shift, 'Walk, half a cycle on'), FOX_FEET);
    expect(space.syncBy).toBe('markers');
    const { time } = world.components.Layers;
    const li = eid * world.maxLayers, d = foxWalk.duration, half = shift / foxWalk.frameRate;
    const ahead = () => ((time[li + 1]! - time[li]! - half) % d + 1.5 * d) % d - 0.5 * d;
    for (let f = 0; f < 90; f++) step(world, DT);
    expect(Math.abs(ahead())).toBeLessThan(1e-4);
    for (let f = 0; f < 90; f++) {
      setBlendSpace(world, eid, space, 0.3);
      step(world, DT);
    }
    expect(Math.abs(ahead())).toBeLessThan(1e-4);
  });
});

describe('falling back to phase', () => {
  /** Layer 1's time minus layer 0's after 1 s of `follower` following the Fox Walk by markers. */
  function lag(follower: Clip, syncBy: 'phase' | 'markers'): number {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: foxWalk.skeleton.jointCount });
    const eid = spawnCharacter(world, foxWalk.skeleton);
    play(world, eid, fox.clip, { weight: 0.6, syncGroup: 0, syncBy: 'markers' });
    play(world, eid, follower, { layer: 1, weight: 0.4, syncGroup: 0, syncBy, time: 0.3 });
    for (let f = 0; f < 60; f++) step(world, DT);
    const { time } = world.components.Layers;
    const d = foxWalk.duration, li = eid * world.maxLayers;
    return ((time[li + 1]! - time[li]!) % d + 1.5 * d) % d - 0.5 * d;
  }
  const half = () => shift / foxWalk.frameRate;

  it('by markers the half-cycle copy plays half a cycle ahead; played by phase in the group, at the leader phase', () => {
    expect(Math.abs(Math.abs(lag(foxShifted.clip, 'markers')) - half())).toBeLessThan(1e-4);
    expect(Math.abs(lag(foxShifted.clip, 'phase'))).toBeLessThan(1e-6);
  });

  it('a copy whose feet are named otherwise shares no marker name: the phase rule', () => {
    const renamed = createClip({ ...foxShifted.clip, events: foxShifted.clip.events.map((e) => ({ time: e.time, name: e.name.replace(':', ':other_') })) } as Parameters<typeof createClip>[0]);
    expect(getSyncMarkers(renamed).times.length).toBe(8);
    expect(Math.abs(lag(renamed, 'markers'))).toBeLessThan(1e-6);
  });
});

// ---- a blend space of a 2-step and a 4-step cut of the CMU walk ---------------------------------

/** Frames s … e − 1 of `clip` as a looping cycle (its frame s repeated as the seam). */
function cut(clip: Clip, s: number, e: number, name: string): Clip {
  const size = clip.skeleton.jointCount * 10;
  return createClip({ skeleton: clip.skeleton, frameRate: clip.frameRate, frames: clip.frames.slice(s * size, e * size), loop: true, appendSeam: true, name });
}

/** Whether time t lies in one of the intervals (cyclic ones, start > end, wrap over the seam). */
function inContact(intervals: readonly [number, number][], t: number): boolean {
  return intervals.some(([s, e]) => (s <= e ? t >= s && t <= e : t >= s || t <= e));
}

describe('a blend space of cycles with different step counts', () => {
  // The take walks steadily from about frame 350 to 700 (120 fps). Two cuts of it: one stride
  // (2 steps, right foot first) and two strides (4 steps, in mid left contact, whose steps are
  // 3 to 141 frames apart between markers: uneven). The only walk with both feet on one skeleton
  // in assets/, so the feet's names match; sections of one take vary as takes do.
  let two: FootContacts, four: FootContacts;
  beforeAll(() => {
    const { clip } = parseBvh(readAssetText('cmu_131_01_start_walk_stop.bvh'));
    const feet = ['LeftAnkle', 'RightAnkle'];
    two = detectFootContacts(cut(clip, 498, 629, 'walk, 2 steps'), { feet });
    four = detectFootContacts(cut(clip, 361, 705, 'walk, 4 steps'), { feet });
  });

  it('the cuts hold 2 and 4 steps', () => {
    const downs = (c: FootContacts) => c.contacts.reduce((n, foot) => n + foot.intervals.length, 0);
    expect(downs(two)).toBe(2);
    expect(downs(four)).toBe(4);
  });

  /** Share of frames where the same feet are down in both clips, and the share two independent walkers would have. */
  function agreement(syncBy: 'phase' | 'markers'): { same: number; chance: number } {
    const space = createBlendSpace({ type: '1d', samples: [{ clip: two.clip, x: 0 }, { clip: four.clip, x: 1 }], syncBy });
    const world = createAnimationWorld({ maxEntities: 1, maxJoints: two.clip.skeleton.jointCount });
    const eid = spawnCharacter(world, two.clip.skeleton);
    const { clip: clipIds, time } = world.components.Layers;
    const state = (c: FootContacts, t: number) => c.contacts.map((foot) => (inContact(foot.intervals, t) ? 1 : 0)).join('');
    let same = 0;
    const seen = [new Map<string, number>(), new Map<string, number>()];
    const frames = 1200;
    for (let f = 0; f < frames; f++) {
      setBlendSpace(world, eid, space, 0.4); // 0.6 the 2-step cut (the leader), 0.4 the 4-step one
      step(world, DT);
      const states = [0, 1].map((layer) => {
        const li = eid * world.maxLayers + layer;
        const c = world.assets.clips[clipIds[li]!] === two.clip ? two : four;
        return [c === two ? 0 : 1, state(c, time[li]!)] as const;
      });
      for (const [k, s] of states) seen[k]!.set(s, (seen[k]!.get(s) ?? 0) + 1);
      if (states[0]![1] === states[1]![1]) same++;
    }
    let chance = 0;
    for (const [s, n] of seen[0]!) chance += (n / frames) * ((seen[1]!.get(s) ?? 0) / frames);
    return { same: same / frames, chance };
  }

  it('by markers the same feet are down in both ≥ 95 % of frames; by phase near chance', () => {
    const markers = agreement('markers'), phase = agreement('phase');
    console.log(`CMU walk, 2-step and 4-step cuts at weights 0.6 / 0.4, 20 s: same feet down by markers ${(100 * markers.same).toFixed(1)} %, by phase ${(100 * phase.same).toFixed(1)} % (independent walkers: ${(100 * phase.chance).toFixed(1)} %)`);
    expect(markers.same).toBeGreaterThanOrEqual(0.95);
    expect(Math.abs(phase.same - phase.chance)).toBeLessThan(0.15);
    expect(phase.same).toBeLessThan(0.8);
  });
});

// ---- validation ---------------------------------------------------------------------------------

describe('validation', () => {
  it('play refuses an unknown syncBy, syncBy without a group, and markers on a clip without them; the layer is untouched', () => {
    const world = createAnimationWorld({ maxEntities: 1, maxJoints: foxWalk.skeleton.jointCount });
    const eid = spawnCharacter(world, foxWalk.skeleton);
    play(world, eid, fox.clip, { syncGroup: 0, syncBy: 'markers' });
    const li = eid * world.maxLayers;
    const before = [world.components.Layers.clip[li], world.components.Layers.syncBy[li]];
    expect(refused(() => play(world, eid, fox.clip, { syncGroup: 0, syncBy: 'feet' as 'phase' })).message).toMatch(/syncBy is "feet": must be 'phase' or 'markers'/);
    expect(refused(() => play(world, eid, fox.clip, { syncBy: 'markers' })).message).toMatch(/syncBy needs a syncGroup/);
    expect(refused(() => play(world, eid, foxWalk, { syncGroup: 0, syncBy: 'markers' })).message).toMatch(/"Walk" has no sync markers/);
    expect([world.components.Layers.clip[li], world.components.Layers.syncBy[li]]).toEqual(before);
    expect(before[1]).toBe(1);
    play(world, eid, foxWalk, { syncGroup: 0 }); // by phase: no markers needed
    expect(world.components.Layers.syncBy[li]).toBe(0);
  });

  it('createBlendSpace refuses an unknown syncBy and, by markers, a clip without markers (naming the sample)', () => {
    const samples = [{ clip: fox.clip, x: 0 }, { clip: foxWalk, x: 1 }];
    expect(refused(() => createBlendSpace({ type: '1d', samples, syncBy: 'steps' as 'phase' })).message).toMatch(/syncBy is "steps"/);
    expect(refused(() => createBlendSpace({ type: '1d', samples, syncBy: 'markers' })).message).toMatch(/samples\[1\]\.clip "Walk" has no sync markers/);
    expect(createBlendSpace({ type: '1d', samples }).syncBy).toBe('phase');
  });

  it('the marker table holds only footDown / footUp events, in time order', () => {
    const t = getSyncMarkers(fox.clip);
    expect(t.times.length).toBe(8);
    expect([...t.times]).toEqual([...t.times].sort((x, y) => x - y));
    expect(getSyncMarkers(foxWalk).times.length).toBe(0);
  });
});

// ---- no allocation per frame --------------------------------------------------------------------

describe('a frame with marker sync allocates nothing', () => {
  /** Bytes a frame of 64 Fox characters synced `syncBy`: half by play, half by a blend space moved every frame. */
  function bytesPerFrame(syncBy: 'phase' | 'markers'): number {
    const world = createAnimationWorld({ maxEntities: 64, maxJoints: foxWalk.skeleton.jointCount });
    const space = createBlendSpace({ type: '1d', samples: [{ clip: fox.clip, x: 0 }, { clip: foxShifted.clip, x: 1 }], syncBy });
    const eids: number[] = [];
    for (let i = 0; i < 64; i++) {
      const eid = spawnCharacter(world, foxWalk.skeleton);
      if (i % 2 === 0) {
        play(world, eid, fox.clip, { weight: 0.4 + i / 200, syncGroup: 0, syncBy, time: i / 100 });
        play(world, eid, foxShifted.clip, { layer: 1, weight: 0.5, syncGroup: 0, syncBy });
      } else eids.push(eid);
    }
    const xs = [0.2, 0.5, 0.8, 'generic' as unknown as number]; // heap numbers, as a game's would be
    const frame = (i: number): void => {
      for (let k = 0; k < eids.length; k++) setBlendSpace(world, eids[k]!, space, xs[(i + k) % 3]!);
      step(world, DT);
    };
    // The bound stops the runs early only once a run is well under what the test asserts (a
    // run stopped at 128 bytes a frame once, against 23 by phase: JIT noise, not the frame).
    const calls = 2_000;
    return smallestAllocation(frame, { calls, bound: calls * 64, warmUp: 1_000 }) / calls;
  }

  it('the same bytes as by phase (V8 noise, ~60 bytes a frame here): no boxed double per synced clip', () => {
    const markers = bytesPerFrame('markers'), phase = bytesPerFrame('phase');
    console.log(`64 characters a frame: ${markers.toFixed(1)} bytes by markers, ${phase.toFixed(1)} by phase`);
    // A double boxed per follower a frame would add 32 × 2 × 16 bytes.
    expect(markers).toBeLessThan(phase + 64);
    expect(markers).toBeLessThan(256);
  });
});
