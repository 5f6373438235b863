/**
 * Issue 16 acceptance: adding a system is one new file plus one line in the frame table. A game
 * registers its own system between inertialize and root motion (`insertSystem`), and `step`
 * runs it in order, chunk by chunk (ranges of at most FRAME_CHUNK characters), over the
 * update list only: characters update-rate LOD holds this frame are not visited, and the
 * others come with their own seconds.
 */
import { describe, expect, it } from 'vitest';
import {
  createAnimationWorld,
  createFrame,
  defaultFrame,
  insertSystem,
  play,
  setLod,
  setLodCamera,
  spawnCharacter,
  step,
  type AnimationWorld,
  type FrameSystem,
} from '../../src/index.js';
import { FRAME_CHUNK, updateRange } from '../../src/kernels.js';
import { syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

const DT = 0.25; // binary-exact, so LOD's summed seconds compare exactly
const COUNT = 300; // three chunks: 128 + 128 + 44
const FRAMES = 8;

/** What the custom system saw: calls in order and, per character, the seconds of each visit. */
interface Seen {
  calls: [string, number, number][];
  visits: Map<number, number[]>;
}

/**
 * The game's system, as a game writes it: the chunked form iterates the chunk's update list,
 * each character with its own seconds; its scratch is declared and built by the world.
 */
function createRecorder(seen: Seen): FrameSystem {
  return {
    name: 'recorder',
    entities(world: AnimationWorld, dt: number, first: number, end: number): void {
      seen.calls.push(['recorder', first, end]);
      const { eids, dt: seconds } = world.updates;
      const last = updateRange(world.updates, world.characters.dense, dt, first, end);
      const scratch = world.scratch as unknown as { recorderLast: Float64Array };
      for (let k = first; k < last; k++) {
        const eid = eids[k]!;
        let list = seen.visits.get(eid);
        if (list === undefined) seen.visits.set(eid, (list = []));
        list.push(seconds[k]!);
        scratch.recorderLast[0] = eid;
      }
    },
    reads: ['world.updates'],
    writes: [],
    scratch: { recorderLast: () => new Float64Array(1) },
  };
}

/** Wraps every system of `frame` to log its calls (name, first, end) into `seen`. */
function logged(systems: readonly FrameSystem[], seen: Seen): FrameSystem[] {
  return systems.map((system) => system.name === 'recorder' ? system : {
    ...system,
    entities(world: AnimationWorld, dt: number, first: number, end: number): void {
      seen.calls.push([system.name, first, end]);
      system.entities(world, dt, first, end);
    },
  });
}

function crowd(frame = defaultFrame): { world: AnimationWorld; eids: number[]; lodded: Set<number> } {
  const skeleton = syntheticSkeleton(6);
  const clip = syntheticClip(skeleton, { seed: 3 });
  const world = createAnimationWorld({ maxEntities: COUNT, maxJoints: 6, frame });
  const lodded = new Set<number>();
  const eids = Array.from({ length: COUNT }, (_, n) => {
    const eid = spawnCharacter(world, skeleton, { x: n % 2 ? 100 : 0 });
    play(world, eid, clip, { time: (n % 7) * 0.1 });
    // Every third character has update-rate LOD: one level, animated every 4th frame.
    if (n % 3 === 0) setLod(world, eid, { levels: 1, updateEvery: [4] }), lodded.add(eid);
    return eid;
  });
  setLodCamera(world, 0, 0, 0);
  return { world, eids, lodded };
}

describe('a custom system between inertialize and root motion', () => {
  it('runs in order, chunk by chunk, and only for the characters updated this frame, with their seconds', () => {
    const seen: Seen = { calls: [], visits: new Map() };
    const frame = createFrame(logged(insertSystem(defaultFrame, createRecorder(seen), { after: 'inertialize' }).systems, seen));
    expect(frame.systems.map((s) => s.name)).toEqual(['lod', 'stateMachine', 'sample', 'blend', 'inertialize', 'recorder', 'rootMotion', 'follow', 'aim', 'footLock', 'skin']);
    const { world, eids, lodded } = crowd(frame);
    expect((world.scratch as unknown as { recorderLast: Float64Array }).recorderLast).toBeInstanceOf(Float64Array);
    for (let f = 0; f < FRAMES; f++) step(world, DT);

    // In order: the caller system (stateMachine) once over the crowd, then per chunk every
    // other system once, the recorder between inertialize and rootMotion.
    const names = frame.systems.filter((s) => s.caller !== true).map((s) => s.name);
    const chunks = [[0, 128], [128, 256], [256, 300]];
    const expected: [string, number, number][] = [];
    for (let f = 0; f < FRAMES; f++) {
      expected.push(['stateMachine', 0, 300]);
      for (const [first, end] of chunks) for (const name of names) expected.push([name, first!, end!]);
    }
    expect(seen.calls).toEqual(expected);
    // Chunked: no range wider than FRAME_CHUNK (but the caller system's).
    for (const [name, first, end] of seen.calls) if (name !== 'stateMachine') expect(end - first).toBeLessThanOrEqual(FRAME_CHUNK);

    // Skipped when not updated: a character without LOD is visited every frame with the frame's
    // dt; one animated every 4th frame is visited on 2 of the 8 frames, each visit with the
    // seconds since its previous one (4 frames, or its first frames since spawning).
    for (const eid of eids) {
      const visits = seen.visits.get(eid) ?? [];
      if (!lodded.has(eid)) {
        expect(visits).toEqual(new Array(FRAMES).fill(DT));
      } else {
        expect(visits.length, `character ${eid}`).toBe(2);
        expect(visits[1]).toBe(4 * DT);
        expect(visits[0]! > 0 && visits[0]! <= 4 * DT).toBe(true);
      }
    }
  });

  it('changes nothing else: the other systems give the default frame\'s poses, bit for bit', () => {
    const seen: Seen = { calls: [], visits: new Map() };
    const a = crowd(insertSystem(defaultFrame, createRecorder(seen), { before: 'rootMotion' }));
    const b = crowd();
    for (let f = 0; f < FRAMES; f++) step(a.world, DT), step(b.world, DT);
    expect(a.world.components.SkinPalette.data).toEqual(b.world.components.SkinPalette.data);
    expect(a.world.components.RootMotion.x).toEqual(b.world.components.RootMotion.x);
    expect(a.world.time).toBe(b.world.time);
    expect(a.world.time).toBe(FRAMES * DT);
  });
});
