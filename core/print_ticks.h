// NormLab core: the ticks of a figure's axis for print — a count that suits
// the axis's physical length (4 to 7 labelled ticks), labels in one notation
// per axis, and the limits they were chosen for. No Qt: the app's figures
// (widgets/plot_figure.cpp) and normlab-cli plot (app/cli/svg_plot.cpp) use it.
//
// The references are matplotlib's MaxNLocator (steps of 1, 2, 2.5, 5 × 10^k,
// a bounded count) and ScalarFormatter (every label with the same decimals; a
// common "×10^k" factor beside the axis when the values are tiny or huge), and
// its LogLocator with LogFormatterSciNotation (powers of ten written 10ⁿ). An
// axis never mixes notations: never 0.0001 beside 1e-05.
#pragma once

#include <string>
#include <vector>

namespace normlab {

struct PrintTicks {
    std::vector<double> values;        // where the ticks are, in data units, ascending, inside [lo, hi]
    std::vector<std::string> labels;   // UTF-8, one per value, all in one notation
    std::string factor;                // "" or a common factor the labels are in units of, e.g. "×10⁻⁵"
};

// Ticks for an axis over [lo, hi] (log: 0 < lo < hi) with between `min_count`
// and `max_count` ticks where the range allows it, as near to `target` as the
// steps permit. integer: only whole numbers (steps, layers), labelled as
// counts on a linear axis (label_ticks).
PrintTicks print_ticks(double lo, double hi, bool log, int target = 5, int min_count = 4, int max_count = 7,
                       bool integer = false);

// The labels of given ticks in one notation (what print_ticks uses):
// uniform decimals on a linear axis, 10ⁿ for powers of ten on a log axis,
// a common factor for values that would need more than four decimals or
// seven digits — on a log axis over a decade or more, each tick in its own
// power instead ("3×10⁻³ 10⁻³ 3×10⁻⁴"). counts (a linear axis of whole numbers: steps, tokens): from
// 10,000 on, in k, M or B ("200k", "1.5M"), one unit for the axis.
PrintTicks label_ticks(std::vector<double> values, bool log, bool counts = false);

// A value in scientific notation, its mantissa with as few decimals as it
// needs: "3×10⁻⁴", and "10⁻⁴" for a power of ten (LogFormatterSciNotation's
// labels): a log axis's labels one by one, where a common factor would read
// "300×10⁻⁵" beside "3×10⁻⁵".
std::string scientific(double v);

// "⁻¹²" for -12: Unicode superscript digits.
std::string superscript(int n);

}  // namespace normlab
