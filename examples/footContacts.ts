/**
 * examples/footContacts.ts (docs/in-place-clips.md): the Fox's Walk with footDown / footUp
 * events at its paws' contacts, and how far the paws slide once rootMotionFromFeet has given
 * the walk its travel. test/offline/footContacts.test.ts runs it.
 */
import { detectFootContacts, loadGltf, measureFootSkate, rootMotionFromFeet } from 'bitanim';

/** The Fox's Walk with contact events, its contacts, and its skate after rootMotionFromFeet. */
export async function foxFootsteps(bytes: Uint8Array) {
  const { clips } = await loadGltf(bytes, { scale: 'cm' });
  const foxWalk = clips.find((c) => c.name === 'Walk')!;
  // #region contacts
  const feet = ['b_LeftFoot02_018', 'b_RightFoot02_022', 'b_LeftHand_011', 'b_RightHand_08'];
  const { clip: walk, contacts } = detectFootContacts(foxWalk, { feet });
  // contacts[0].intervals → [[0.5, 0.1042]]: the left hind paw, down at 0.5 s, up at 5/48 s
  // walk.events: footDown:b_LeftFoot02_018 at 0.5 s, footUp:b_LeftFoot02_018 at 0.1042 s, …
  const travelled = rootMotionFromFeet(walk, { feet });
  const skate = measureFootSkate(travelled, detectFootContacts(travelled, { feet }));
  // skate.mean: metres a paw slides per contact (0.139)
  // #endregion
  return { walk, contacts, skate };
}
