// libFuzzer: a file given as a run store. Opened read-only and writable, then
// every run, series, point and distribution read: the result is a store or a
// StoreError — never a crash, a sanitizer report or another exception.
#include "core/errors.h"
#include "core/store/store.h"
#include "scratch.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

namespace {
void read_everything(normlab::Store& s) {
    for (auto& r : s.runs()) {
        for (auto& si : s.series(r.id)) s.points(si.id);
        s.distributions(r.id);
    }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string& path = normlab::fuzz::scratch_store();
    normlab::fuzz::remove_scratch_store();
    {
        std::ofstream f(path, std::ios::binary);
        f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    // Written a second ago: a read-only open of a file written this instant first waits until its
    // last write is 30 ms old (store_connection.cpp, the immutable read's stamp), which made the
    // 20,000 inputs take 650 s instead of ~125 s; what is fuzzed here is the file's bytes.
    struct timespec past[2];
    clock_gettime(CLOCK_REALTIME, &past[0]);
    past[0].tv_sec -= 1;
    past[1] = past[0];
    utimensat(AT_FDCWD, path.c_str(), past, 0);
    for (auto mode : {normlab::Store::Mode::ReadOnly, normlab::Store::Mode::ReadWrite}) {
        try {
            normlab::Store s(path, mode);
            read_everything(s);
        } catch (const normlab::StoreError&) {
        }
    }
    normlab::fuzz::remove_scratch_store();
    return 0;
}
