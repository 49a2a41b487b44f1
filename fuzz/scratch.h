// A scratch store file for a fuzz target: one per process, in a directory
// whose name has the same length on every run (a pid in the name would change
// the lengths of the strings built from it, and with them the coverage).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace normlab::fuzz {

inline const std::string& scratch_store() {
    static char dir[] = "/tmp/normlab-fuzz-XXXXXX";
    static const std::string path = [] {
        if (!::mkdtemp(dir)) std::abort();
        std::atexit([] { ::rmdir(dir); });   // empty by then: each input removes its files
        return std::string(dir) + "/store.sqlite";
    }();
    return path;
}

// The store and SQLite's files beside it, before and after each input.
inline void remove_scratch_store() {
    for (const char* ext : {"", "-wal", "-shm", "-journal"}) std::remove((scratch_store() + ext).c_str());
}

}  // namespace normlab::fuzz
