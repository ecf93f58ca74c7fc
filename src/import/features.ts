// What the importers may write that other parts of mock add: while a switch is off, a decoder lists the part as
// not expressible (with the reason below) instead of writing keys the loader would refuse.
export const FEATURES: Readonly<{ scenarios: boolean; collections: boolean }> = {
  /** `when.state.<scenario> = "<state>"` and `respond.set_state = { <scenario> = "<new>" }`, first state "started" */
  scenarios: true,
  /** `[[collections]]` with `path`, `data`, `id` */
  collections: true,
};

export const NOT_YET = {
  scenarios: 'scenarios are not supported yet',
  collections: 'collections are not supported yet',
};
