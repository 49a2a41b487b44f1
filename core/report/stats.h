// NormLab core: the statistics and number formatting the findings share
// (report-internal; see measure.h for the run and figure helpers).
//
// Non-finite values are skipped by the means and extremes; a mean over no
// finite value is NaN, printed "n/a".
#pragma once

#include <limits>
#include <string>
#include <vector>

namespace normlab::report::detail {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

double mean_of(const std::vector<double>& v);
double min_of(const std::vector<double>& v);
double max_of(const std::vector<double>& v);
double half_range(const std::vector<double>& v);         // (max − min) / 2, 0 for one value
double geo_mean(const std::vector<double>& v);           // over the finite positive values
double slope(const std::vector<double>& x, const std::vector<double>& y);   // least squares of y on x
std::vector<double> ranks(const std::vector<double>& v);  // ties share their mean rank
double spearman(const std::vector<double>& x, const std::vector<double>& y);
double mean_of_inf(const std::vector<double>& v);        // +∞ when any value is +∞ (a diverged run)

std::string fmt(double v, int sig = 3);                  // %g with `sig` digits; "n/a", "∞"
std::string fixed(double v, int decimals);               // %f
std::string ratio_text(double v);                        // "1.23×"
std::string thousands(double v);                         // rounded, its thousands grouped: "2,039"
std::string of_n(int k, size_t n);                       // "1 of 2"
// "2.583 ± 0.004" (± half the range over seeds) or just the value for one seed.
std::string with_spread(const std::vector<double>& v, int decimals = 3);
// The same, or "diverged (k of n)" when runs diverged.
std::string with_spread_inf(const std::vector<double>& v, int decimals = 3);

}  // namespace normlab::report::detail
