/**
 * One entity lifecycle. bitecs recycles a removed entity's id, and with it the pool rows the
 * id indexes, so a character spawned on a reused id must not see anything of the previous
 * owner. Each component file declares, in one {@link RowLifecycle}, how an entity's row of it
 * goes back to what a never-used id holds; `spawnCharacter` resets every component through
 * those declarations (`resetRows` in world.ts) before it writes the new character's own
 * values (skeleton, rest pose, position). Nothing else resets a row at spawn or removal:
 * a removed entity's rows keep what they held until its id is spawned again, and nothing
 * reads them meanwhile (systems visit `world.characters`; the API refuses a non-character).
 *
 * A row's reset is the state of an empty slot, which is not always the state a new world
 * allocates: an empty layer slot has speed 1 (`clearLayer`), a new world's rows speed 0.
 * Both are what a never-used id holds once spawned.
 */

/**
 * How one component's row of an entity is reset (see the file header).
 * - `reset(component, eid, maxJoints)`: writes `eid`'s row of every array not in `kept` back
 *   to a never-used id's (as spawned). `maxJoints` locates per-joint blocks. No allocation.
 * - `kept`: the arrays `reset` leaves as they are, each with the reason no read can see what
 *   they held: the field `reset` clears that gates every read of them (or why the array is not
 *   per entity). They stay because the frame's bit-for-bit record (test/frameHash.test.ts)
 *   holds their leftovers, and clearing them would be work nothing reads.
 */
export interface RowLifecycle<C> {
  reset(component: C, eid: number, maxJoints: number): void;
  readonly kept: Readonly<Partial<Record<keyof C & string, string>>>;
}
