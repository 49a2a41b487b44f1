// NormLab core: the store's file itself — where it is by default, how long a
// writer waits for a lock, its header read without dropping SQLite's locks,
// whether it is still the file this connection writes, and where its
// checkpoints are (see store.h).
#include "core/errors.h"
#include "core/store/store.h"
#include "core/store/wal.h"

#include <sys/stat.h>

#include <cerrno>
#include <filesystem>
#include <cstdlib>
#include <cstring>

namespace normlab {
namespace fs = std::filesystem;

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

// Checkpoints below the store's folder are stored relative to it, so the
// store and its checkpoints can move together and be used from any folder.
std::string Store::stored_checkpoint(const std::string& path) const {
    if (path.empty()) return path;
    std::error_code ec;
    const fs::path abs = fs::absolute(path, ec).lexically_normal();
    const fs::path rel = abs.lexically_relative(fs::path(dir_).lexically_normal());
    if (!rel.empty() && *rel.begin() != "..") return rel.string();
    return abs.string();
}

// A relative checkpoint in a "<name>.checkpoints/" folder is looked for in
// this store's own folder first: a store renamed or copied together with its
// checkpoints folder finds its own files, and a store copied alone still
// reads the original's (which it never deletes: owns_checkpoint).
std::string Store::resolved_checkpoint(const std::string& stored) const {
    if (stored.empty() || fs::path(stored).is_absolute()) return stored;
    const fs::path rel(stored);
    if (std::distance(rel.begin(), rel.end()) == 2) {
        const std::string folder = rel.begin()->string();
        const std::string ext = ".checkpoints";
        if (folder.size() > ext.size() && folder.compare(folder.size() - ext.size(), ext.size(), ext) == 0) {
            const fs::path own = fs::path(path_ + ext) / rel.filename();
            std::error_code ec;
            if (fs::exists(own, ec)) return own.lexically_normal().string();
        }
    }
    return (fs::path(dir_) / stored).lexically_normal().string();
}

bool Store::owns_checkpoint(const std::string& file) const {
    std::error_code ec;
    const fs::path parent = fs::absolute(file, ec).parent_path();
    return fs::exists(parent, ec) && fs::equivalent(parent, path_ + ".checkpoints", ec);
}

}  // namespace normlab
