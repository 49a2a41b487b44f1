// NormLab core: probe helpers that need no LibTorch (tested directly).
#pragma once

#include "core/store/store.h"

#include <string>
#include <vector>

namespace normlab {

// Five-number summary (quantiles by linear interpolation, as numpy's
// default), mean, population std and a histogram of `bins` equal bins over
// [min, max] (widened by ±0.5 when all values are equal).
Distribution summarize(const std::string& name, int layer, int64_t step, std::vector<double> values, int bins);

// Median of a list (mean of the two middle values for an even count).
double median(std::vector<double> v);

}  // namespace normlab
