// NormLab core: run colours. Every run gets one colour when it is created,
// stored with it (runs.color), so a run looks the same in every chart, table,
// export and comparison, whatever else is selected. The palette is Tableau 10
// (distinguishable for the common colour-vision deficiencies in its first
// colours, and in print); a user may pick any other colour for a run.
#pragma once

#include <cstdint>
#include <string>

namespace normlab {

// "#rrggbb" of palette entry i (cyclic).
std::string palette_color(int64_t i);
// The colour a new run gets: the palette in run-id order.
std::string default_run_color(int64_t run_id);
// True for "#rrggbb" (hex digits, either case).
bool is_hex_color(const std::string& s);

}  // namespace normlab
