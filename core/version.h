#pragma once
#define NORMLAB_VERSION "0.1.0"

// The version of the training traces: the same experiment trains the same
// trace (every series, within tests/golden.py's tolerances) as long as this
// number stays. A change that moves a golden trace (tests/golden/) raises it
// and says in CHANGELOG.md which series moved, by how much and why.
#define NORMLAB_TRACE_VERSION 3

namespace normlab {
// The git commit the binaries were built from ("abc123def456", "-dirty" when
// core/ or app/ had changes, "unknown" outside a checkout).
const char* normlab_commit();
}  // namespace normlab
