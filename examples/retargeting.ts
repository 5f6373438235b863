/**
 * examples/retargeting.ts (docs/retargeting.md): one clip on a character of other proportions,
 * with the default translation modes, the clip's own, and a per-joint map.
 * test/examples/guides.test.ts runs it.
 */
import { bindSkeletons, play, type AnimationWorld, type Clip, type Skeleton } from 'bitanim';

/** Plays `walk` on the characters `a`, `b` and `c` (of skeleton `character`) three ways; returns a 'scaled' binding. */
export function playRetargeted(world: AnimationWorld, [a, b, c]: readonly number[], walk: Clip, character: Skeleton) {
  // #region play
  play(world, a, walk);                                          // default
  play(world, b, walk, { translation: 'animation' });            // the clip's proportions
  play(world, c, walk, { translation: { 'Foot.L': 'animation', 'Foot.R': 'animation' } });
  const binding = bindSkeletons(walk.skeleton, character, { translation: 'scaled' });
  // #endregion
  return binding;
}
