// libFuzzer: what a server sends to a mirror over ssh (core/remote/stream.h),
// and what a mirror asks of a server. The input's lines are the stream: the
// first is the hello, the rest go to Mirror::apply into a fresh local store,
// and what the mirror then holds is read back as its next request. Each line
// is also parsed as a request, as `normlab-cli stream` would. A garbled,
// truncated or hostile stream must end in a RemoteError (or a StoreError from
// the local store) and a request in a std::runtime_error naming what is wrong
// — never a crash, a sanitizer report or another exception.
#include "core/errors.h"
#include "core/remote/mirror.h"
#include "core/remote/stream.h"
#include "core/store/store.h"
#include "scratch.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {
std::vector<std::string> lines_of(const uint8_t* data, size_t size) {
    std::vector<std::string> out(1);
    for (size_t i = 0; i < size; ++i) {
        if (data[i] == '\n') out.emplace_back();
        else out.back().push_back(static_cast<char>(data[i]));
    }
    return out;
}

void follow(const std::vector<std::string>& lines, const std::string& path) {
    normlab::Store local(path);
    normlab::Mirror mirror(local, "gpu1", "normlab-cli");
    try {
        mirror.hello(lines.front());
        for (size_t i = 1; i < lines.size(); ++i)
            if (mirror.apply(lines[i]) == normlab::Mirror::Got::Ended) break;
    } catch (const normlab::RemoteError&) {
        mirror.drop_pending();   // as the follow loop does before reconnecting
    }
    // What a reconnect asks for: every mirrored run's cursor, from the rows held.
    (void)mirror.request(mirror.unfinished()).to_json().dump();
    for (const auto& r : local.runs()) {
        (void)normlab::remote_ref(r);
        for (const auto& s : local.series(r.id)) (void)local.points(s.id);
        (void)local.distributions(r.id);
    }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 1 << 16) return 0;
    const std::vector<std::string> lines = lines_of(data, size);
    for (const std::string& line : lines) {
        try {
            (void)normlab::StreamRequest::parse(line).to_json().dump();
        } catch (const std::runtime_error&) {
        }
    }
    const std::string& path = normlab::fuzz::scratch_store();
    normlab::fuzz::remove_scratch_store();
    try {
        follow(lines, path);
    } catch (const normlab::StoreError&) {
    }
    normlab::fuzz::remove_scratch_store();
    return 0;
}
