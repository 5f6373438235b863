/**
 * examples/markerSync.ts (docs/root-motion-and-blend-spaces.md): two walk cycles kept in step by
 * their foot markers — by hand on two layers, and as a blend space.
 * test/sync/markers.test.ts runs it.
 */
import { createBlendSpace, detectFootContacts, play, type AnimationWorld, type BlendSpace, type Clip } from 'bitanim';

/** Plays `walk` and `other` (cycles of one skeleton, feet named alike) synced by markers on `eid`, and returns them with markers and a space of them. */
export function syncByMarkers(world: AnimationWorld, eid: number, walk: Clip, other: Clip, feet: string[]): { a: Clip; b: Clip; space: BlendSpace } {
  // #region play
  // footDown:<foot> / footUp:<foot> events at each contact: the sync markers.
  const a = detectFootContacts(walk, { feet }).clip;
  const b = detectFootContacts(other, { feet }).clip;
  play(world, eid, a, { layer: 0, weight: 0.5, syncGroup: 0, syncBy: 'markers' });
  play(world, eid, b, { layer: 1, weight: 0.5, syncGroup: 0, syncBy: 'markers' });
  // #endregion
  // #region space
  const space = createBlendSpace({ type: '1d', samples: [{ clip: a, x: 0 }, { clip: b, x: 1 }], syncBy: 'markers' });
  // setBlendSpace(world, eid, space, x) then keeps its clips in step by their markers
  // #endregion
  return { a, b, space };
}
