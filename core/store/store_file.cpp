// NormLab core: the store's file itself — where it is by default, how long a
// writer waits for a lock, its header read without dropping SQLite's locks,
// and whether it is still the file this connection writes (see store.h).
#include "core/errors.h"
#include "core/store/store.h"
#include "core/store/wal.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace normlab {

std::string Store::default_path() {
    if (const char* e = std::getenv("NORMLAB_STORE"); e && *e) return e;
    std::string base;
    if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x) base = x;
    else if (const char* h = std::getenv("HOME"); h && *h) base = std::string(h) + "/.local/share";
    else base = ".";
    return base + "/normlab/runs.sqlite";
}

// How long a writer waits for another's write lock (SQLite retries with
// backoff meanwhile): a merge's long transaction or a stopped process must
// not fail a run. $NORMLAB_LOCK_TIMEOUT seconds, 1 to 86400; default 600.
double Store::lock_timeout_seconds() {
    if (const char* e = std::getenv("NORMLAB_LOCK_TIMEOUT"); e && *e) {
        char* end = nullptr;
        const double v = std::strtod(e, &end);
        if (end && *end == 0 && v >= 1 && v <= 86400) return v;
        throw StoreError(std::string("NORMLAB_LOCK_TIMEOUT=") + e + " is not a number of seconds from 1 to 86400;"
                         " unset it for the default (600)");
    }
    return 600;
}

std::string Store::read_header(const std::string& path) {
    std::string h;
    bool there = false;
    read_store_file(path, h, there, 100);
    return h.size() == 100 ? h : std::string();
}

void Store::check_still_there() const {
    if (file_ino_ == 0) return;
    struct stat now{};
    if (::stat(path_.c_str(), &now) != 0)
        throw StoreError("the run store " + path_ + " was deleted while this process wrote to it (" +
                         std::strerror(errno) + "); the rows written since are lost with it. Stopped.");
    if (static_cast<uint64_t>(now.st_dev) != file_dev_ || static_cast<uint64_t>(now.st_ino) != file_ino_)
        throw StoreError("the run store " + path_ + " was replaced by another file while this process wrote to it;"
                         " its rows would go to the removed file. Stopped.");
}

}  // namespace normlab
