// NormLab core: outputs never overwrite what a command reads (see output_guard.h).
#include "core/store/output_guard.h"

#include "core/errors.h"

#include <sys/stat.h>

#include <filesystem>
#include <mutex>
#include <optional>

namespace normlab {
namespace fs = std::filesystem;

namespace {

std::mutex g_mu;
std::vector<std::string> g_stores;   // resolved paths

struct FileId {
    dev_t dev;
    ino_t ino;
    bool operator==(const FileId& o) const { return dev == o.dev && ino == o.ino; }
};

std::optional<FileId> file_id(const fs::path& p) {
    struct stat st{};
    if (::stat(p.c_str(), &st) != 0) return std::nullopt;
    return FileId{st.st_dev, st.st_ino};
}

fs::path resolved(const std::string& p) {
    std::error_code ec;
    fs::path abs = fs::absolute(p, ec);
    fs::path r = fs::weakly_canonical(abs, ec);
    return ec ? abs.lexically_normal() : r;
}

// The same file: one inode (after symlinks), or one resolved path where it does not exist yet.
bool same_file(const fs::path& out, const std::optional<FileId>& out_id, const fs::path& other) {
    if (out_id) {
        if (auto id = file_id(other); id && *id == *out_id) return true;
    }
    return out == resolved(other.string());
}

// `out` is `dir` or lies below it (by inode for every existing ancestor, by path otherwise).
bool inside(const fs::path& out, const fs::path& dir) {
    const auto dir_id = file_id(dir);
    const fs::path rdir = resolved(dir.string());
    for (fs::path p = out; !p.empty(); p = p.parent_path()) {
        if (p == rdir) return true;
        if (dir_id) {
            if (auto id = file_id(p); id && *id == *dir_id) return true;
        }
        if (p == p.parent_path()) break;
    }
    return false;
}

[[noreturn]] void refuse(const std::string& field, const std::string& out, const std::string& what) {
    throw ConfigError(field, out + " is " + what + "; writing there would destroy it. Nothing was written: choose"
                                                   " another file name for " + field + ".");
}

std::vector<std::string> protected_stores() {
    std::lock_guard<std::mutex> lock(g_mu);
    return g_stores;
}

constexpr const char* kCompanions[] = {"-wal", "-shm", "-journal"};

std::string companion_name(const std::string& store, const std::string& suffix) {
    return std::string("the run store's ") +
           (suffix == "-wal" ? "write-ahead log" : suffix == "-shm" ? "shared-memory index" : "journal") + " (" + store + suffix + ")";
}

}  // namespace

void protect_store(const std::string& store_path) {
    const std::string r = resolved(store_path).string();
    std::lock_guard<std::mutex> lock(g_mu);
    for (auto& s : g_stores)
        if (s == r) return;
    g_stores.push_back(r);
}

void check_output_path(const std::string& out, const std::string& field, const std::vector<std::string>& inputs) {
    if (out.empty() || out == "-") return;
    const fs::path r = resolved(out);
    const auto id = file_id(r);
    for (const std::string& s : protected_stores()) {
        if (same_file(r, id, s)) refuse(field, out, "the run store " + s);
        for (const char* suffix : kCompanions)
            if (same_file(r, id, s + suffix)) refuse(field, out, companion_name(s, suffix));
        if (inside(r, s + ".checkpoints"))
            refuse(field, out, "in the run store's checkpoints folder " + s + ".checkpoints");
    }
    for (const std::string& in : inputs)
        if (!in.empty() && same_file(r, id, in)) refuse(field, out, "an input of this command (" + in + ")");
}

void check_output_file(const std::string& out, const std::string& field, const std::vector<std::string>& inputs) {
    check_output_path(out, field, inputs);
    if (out.empty() || out == "-") return;
    std::error_code ec;
    if (fs::is_directory(out, ec))
        throw ConfigError(field, out + " is a folder. Nothing was written: name a file for " + field + ".");
    const fs::path parent = fs::path(out).parent_path();
    if (!parent.empty() && !fs::is_directory(parent, ec))
        throw ConfigError(field, "the folder " + parent.string() + " of " + out + (fs::exists(parent, ec) ? " is a file" : " does not exist") +
                                     ". Nothing was written: make the folder or name a file in one that exists.");
}

void check_output_folder(const std::string& dir, const std::string& field) {
    check_output_path(dir, field);
    // Nor a folder on the way to it at a companion's name: SQLite can then no longer open the store
    // (`plot --out runs.sqlite-wal` made that folder while no log was there).
    const fs::path r = resolved(dir);
    for (const std::string& s : protected_stores())
        for (const char* suffix : kCompanions)
            if (inside(r, s + suffix)) refuse(field, dir, "in a folder named as " + companion_name(s, suffix));
}

}  // namespace normlab
