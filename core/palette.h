// NormLab core: run colours. Every run gets one colour when it is created,
// stored with it (runs.color), so a run looks the same in every chart, table,
// export and comparison, whatever else is selected. The palette is Tableau 10
// (distinguishable for the common colour-vision deficiencies in its first
// colours, and in print); a user may pick any other colour for a run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace normlab {

// "#rrggbb" of palette entry i (cyclic).
std::string palette_color(int64_t i);
// The colour a new run gets: the palette in run-id order.
std::string default_run_color(int64_t run_id);
// Colours for runs shown together, from several stores: the first `fixed`
// (the window's own store's runs) keep theirs; each later one keeps its own
// unless an earlier one has it, else takes the first palette colour no run
// shown has (two stores' run 1 were both blue). Case-insensitive.
std::vector<std::string> distinct_colors(const std::vector<std::string>& colors, size_t fixed);
// True for "#rrggbb" (hex digits, either case).
bool is_hex_color(const std::string& s);

}  // namespace normlab
