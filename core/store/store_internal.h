// NormLab core (internal): helpers shared by the store's translation units.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <sqlite3.h>

namespace normlab::store_detail {

std::string host_name();
// Field 22 of /proc/PID/stat: the process start time in clock ticks since boot ("" when unknown).
std::string process_start(int64_t pid);
bool process_alive(int64_t pid, const std::string& start);

// A text column as a string; "" for SQL NULL. A damaged or hand-edited file can
// hold NULL where the schema says NOT NULL, so no reader trusts the schema.
inline std::string column_string(sqlite3_stmt* st, int i) {
    const unsigned char* t = sqlite3_column_text(st, i);
    return t ? reinterpret_cast<const char*>(t) : "";
}

// A blob column of floats. A blob whose length is not a whole number of floats
// (a damaged file) keeps its whole floats; an empty or NULL one gives none.
std::vector<float> column_floats(sqlite3_stmt* st, int i);

}  // namespace normlab::store_detail
