// libFuzzer: the write-ahead-log reader (core/store/wal.cpp) on any bytes.
#include "core/store/wal.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string salt, header;
    const int64_t n = normlab::count_valid_wal_frames(std::string(reinterpret_cast<const char*>(data), size), &salt, &header);
    if (n < 0 || (!header.empty() && header.size() != 100)) __builtin_trap();
    return 0;
}
