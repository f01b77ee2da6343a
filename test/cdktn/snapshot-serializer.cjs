"use strict";
// `npm run test:cdktn` only (jest.cdktn.config.cjs): the reviewed snapshots of the example's Terraform
// are cdktf's; a stack synthesized on cdktn is compared with them after differences.cjs maps its
// provider requirements to cdktf's. Everything else in the text must match the snapshot as it is.
const { textToCdktf } = require("./differences.cjs");

module.exports = {
  // strings whose mapping changes something; the mapped text no longer does, so the printer below
  // does not come back here
  test: (v) => typeof v === "string" && v.includes('"required_providers"') && textToCdktf(v) !== v,
  serialize: (v, config, indentation, depth, refs, printer) =>
    printer(textToCdktf(v), config, indentation, depth, refs),
};
