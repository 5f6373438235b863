/**
 * Issue 15 item 1: a looping layer's events over many cycles are computed, not iterated cycle
 * by cycle — the records the queue keeps and the count it drops must be those of crossing
 * every event of every cycle. Checked against a brute-force enumeration of the crossings.
 */
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, createClip, createSkeleton } from '../../src/index.js';
import { advanceLayer, LAYER_LOOP, DEFAULT_MAX_LAYERS } from '../../src/kernels.js';
import { createEventQueue } from '../../src/components/EventQueue.js';
import { createRandom as random } from '../fixtures/synthetic.js';

/**
 * Every crossing of a looping clip of duration `d` with event times `times`, playing from clip
 * time `from` by `delta` (the definition, in unwrapped time u = c·D + τ): forward, those with
 * from ≤ u < from + delta, in increasing u (ties: event order); backward, those with
 * from + delta < u ≤ from, in decreasing u (ties: reverse event order).
 */
function crossings(times: number[], d: number, from: number, delta: number): { event: number; u: number }[] {
  const to = from + delta;
  const out: { event: number; u: number }[] = [];
  const lo = Math.floor(Math.min(from, to) / d) - 1, hi = Math.floor(Math.max(from, to) / d) + 1;
  for (let c = lo; c <= hi; c++) {
    times.forEach((tau, event) => {
      const u = c * d + tau;
      if (delta > 0 ? u >= from && u < to : u > to && u <= from) out.push({ event, u });
    });
  }
  return out.sort((a, b) => (delta > 0 ? a.u - b.u || a.event - b.event : b.u - a.u || b.event - a.event));
}

describe('looping events over many cycles are computed (issue 15)', () => {
  const skeleton = createSkeleton({ names: ['hips'], parents: [-1], rest: [0, 1, 0, 0, 0, 0, 1, 1, 1, 1] });
  const frames = [0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 0.5, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1, 0, 0, 0, 1, 1, 1, 1];
  const world = createAnimationWorld({ maxEntities: 2, maxJoints: 1 });
  const layers = world.components.Layers;
  const li = DEFAULT_MAX_LAYERS; // entity 1, layer 0

  it('keeps the last records and counts the rest as dropped, as crossing every cycle would, forward and backward', () => {
    const next = random(15);
    let skippedCases = 0;
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + Math.floor(next() * 4);
      const d = 0.25;
      const times = Array.from({ length: n }, () => Math.floor(next() * 1000) / 4000).sort((a, b) => a - b); // in [0, D)
      const clip = createClip({ skeleton, frameRate: 8, frames, events: times.map((time, i) => ({ time, name: `e${i}` })) });
      const capacity = 1 + Math.floor(next() * 40);
      const queue = createEventQueue(capacity);
      const from = Math.floor(next() * 1000) / 4000;
      const speed = Math.fround((next() < 0.5 ? -1 : 1) * (0.5 + next() * 1000));
      const dt = 0.5 + next() * 0.5; // up to 2000 cycles
      layers.time[li] = from;
      layers.speed[li] = speed;
      layers.flags[li] = LAYER_LOOP;
      advanceLayer(layers, li, clip, dt, queue, 1, 0);
      const expected = crossings(times, d, from, speed * dt);
      if (expected.length > capacity) skippedCases++;
      const kept = expected.slice(Math.max(0, expected.length - capacity));
      expect(queue.count).toBe(kept.length);
      expect(queue.dropped).toBe(expected.length - kept.length);
      for (let k = 0; k < kept.length; k++) {
        const slot = (queue.head + k) % capacity;
        expect(queue.event[slot]).toBe(kept[k]!.event);
        expect(queue.at[slot]).toBeCloseTo(dt * ((kept[k]!.u - from) / (speed * dt)), 9);
      }
    }
    expect(skippedCases).toBeGreaterThan(250); // the computed path was exercised
  });

  it('visits at most ⌈capacity / n⌉ + 1 cycles: a 4-event clip over 4e9 cycles makes only the records kept', () => {
    const clip = createClip({ skeleton, frameRate: 8, frames, events: [0, 0.05, 0.1, 0.2].map((time, i) => ({ time, name: `e${i}` })) });
    const queue = createEventQueue(10);
    layers.time[li] = 0;
    layers.speed[li] = 1000;
    layers.flags[li] = LAYER_LOOP;
    advanceLayer(layers, li, clip, 1e6, queue, 1, 0); // 1e9 s / 0.25 s = 4e9 cycles
    // Kept: the last 10 crossings, of cycles 4e9 − 3 … 4e9 − 1: e2 e3 | e0 e1 e2 e3 | e0 e1 e2 e3.
    expect(queue.count).toBe(10);
    expect(Array.from({ length: 10 }, (_, k) => queue.event[(queue.head + k) % 10])).toEqual([2, 3, 0, 1, 2, 3, 0, 1, 2, 3]);
    expect(queue.dropped).toBe(4 * 4e9 - 10);
  });
});
