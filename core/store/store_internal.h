// NormLab core (internal): helpers shared by the store's translation units.
#pragma once

#include <cstdint>
#include <string>

namespace normlab::store_detail {

std::string host_name();
// Field 22 of /proc/PID/stat: the process start time in clock ticks since boot ("" when unknown).
std::string process_start(int64_t pid);
bool process_alive(int64_t pid, const std::string& start);

}  // namespace normlab::store_detail
