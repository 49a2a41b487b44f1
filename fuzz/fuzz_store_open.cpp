// libFuzzer: a file given as a run store. Opened read-only and writable, then
// every run, series, point and distribution read: the result is a store or a
// StoreError — never a crash, a sanitizer report or another exception.
#include "core/errors.h"
#include "core/store/store.h"
#include "scratch.h"

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
