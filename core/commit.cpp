// NormLab core: the commit these binaries were built from (see version.h).
#include "core/version.h"

#include "normlab_commit.h"

namespace normlab {
const char* normlab_commit() { return NORMLAB_COMMIT; }
}  // namespace normlab
