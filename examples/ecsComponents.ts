/**
 * examples/ecsComponents.ts (docs/ecs-components.md): a game queries and observes bitanim's
 * per-character state as bitecs components of its own world.
 * test/examples/guides.test.ts runs it.
 */
// #region imports
import { hasComponent, observe, onAdd, query } from 'bitecs';

// #endregion
import { addComponent, createWorld } from 'bitecs';
import { createAnimationWorld, createSkeleton, setFollower, setLod, setLookAt, spawnCharacter } from 'bitanim';

/** Three characters (an enemy that looks at something, an enemy that does not, a friend with LOD); what the game's queries see. */
export function whoIsWatching() {
  const game = createWorld();
  const Enemy = {};
  const animation = createAnimationWorld({ maxEntities: 8, maxJoints: 2, world: game });
  const skeleton = createSkeleton({ names: ['body', 'head'], parents: [-1, 0], rest: [0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0.7, 0, 0, 0, 0, 1, 1, 1, 1] });
  const [watcher, idler, friend] = [0, 1, 2].map(() => spawnCharacter(animation, skeleton));
  addComponent(game, watcher, Enemy);
  addComponent(game, idler, Enemy);
  setLookAt(animation, watcher, { joint: 'head' });
  setLod(animation, friend, { levels: 1, updateEvery: [2] });
  const watching: number[] = [], followed: number[] = [];
  let lodded = false;
  const eid = friend;
  // #region query
  const { Follower, LookAt, Lod } = animation.components;
  for (const eid of query(game, [Enemy, LookAt])) watching.push(eid); // enemies that watch something
  if (hasComponent(game, eid, Lod)) lodded = true;                    // eid has motion LOD
  observe(game, onAdd(Follower), (eid) => followed.push(eid));        // eid got its first follower
  // #endregion
  setFollower(animation, idler, { duration: 0.3 }); // the idler's first follower: the observer sees it
  setFollower(animation, watcher, { duration: 0.3 }); // the watcher had one (setLookAt made it): no onAdd
  return { watcher, idler, friend, watching, followed, lodded };
}
