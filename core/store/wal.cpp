// NormLab core: write-ahead log inspection (see wal.h).
#include "core/store/wal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>

namespace normlab {
namespace {

uint32_t be32(const unsigned char* p) {
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

// SQLite's WAL checksum: over 32-bit words read in the byte order the log's
// magic number names, two running sums seeded from the previous checksum.
void checksum(const unsigned char* data, size_t n, bool big_endian, uint32_t& s0, uint32_t& s1) {
    for (size_t i = 0; i + 8 <= n; i += 8) {
        uint32_t a, b;
        if (big_endian) {
            a = be32(data + i);
            b = be32(data + i + 4);
        } else {
            std::memcpy(&a, data + i, 4);
            std::memcpy(&b, data + i + 4, 4);
        }
        s0 += a + s1;
        s1 += b + s0;
    }
}

bool read_all(const std::string& path, std::string& out, bool& exists) {
    return read_store_file(path, out, exists);
}

std::mutex g_between_mu;
std::function<void()> g_between;   // at_next_inspection's

}  // namespace

// POSIX record locks belong to the process, and closing *any* descriptor of a
// file drops all of them: had we opened a store, its -wal or -shm to read it
// and closed it again, every lock SQLite's connections in this process hold
// on that file would silently go — and another process, seeing none, could
// truncate the -shm under them (SIGBUS in a running GUI, seen in test_gui) or
// write under a reader. SQLite keeps such descriptors open; so does this: one
// per file (device, inode), reused, closed only once the file is deleted.
int kept_descriptor(const std::string& path) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return -1;
    static std::mutex mu;
    static std::map<std::pair<dev_t, ino_t>, int> kept;
    std::lock_guard<std::mutex> lock(mu);
    for (auto it = kept.begin(); it != kept.end();) {   // files deleted since: nobody can lock them any more
        struct stat k{};
        if (::fstat(it->second, &k) == 0 && k.st_nlink == 0) {
            ::close(it->second);
            it = kept.erase(it);
        } else {
            ++it;
        }
    }
    if (auto it = kept.find({st.st_dev, st.st_ino}); it != kept.end()) return it->second;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat opened{};
    ::fstat(fd, &opened);
    // Replaced between the stat and the open by a file read before: keep one descriptor of it
    // (closing this one would drop the locks too, so it is kept as well, under no key).
    if (auto again = kept.find({opened.st_dev, opened.st_ino}); again != kept.end()) return again->second;
    kept[{opened.st_dev, opened.st_ino}] = fd;
    return fd;
}

bool read_store_file(const std::string& path, std::string& out, bool& exists, size_t limit) {
    out.clear();
    struct stat st{};
    exists = ::stat(path.c_str(), &st) == 0;
    if (!exists || !S_ISREG(st.st_mode)) return false;
    const int fd = kept_descriptor(path);
    if (fd < 0) return false;
    struct stat now{};
    if (::fstat(fd, &now) != 0) return false;
    const size_t want = std::min<size_t>(static_cast<size_t>(now.st_size), limit);
    out.resize(want);
    size_t got = 0;
    while (got < want) {
        const ssize_t n = ::pread(fd, out.data() + got, want - got, static_cast<off_t>(got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<size_t>(n);
    }
    out.resize(got);
    return true;
}

int64_t count_valid_wal_frames(const std::string& wal, std::string* salt, std::string* header) {
    if (wal.size() < 32) return 0;
    const auto* h = reinterpret_cast<const unsigned char*>(wal.data());
    const uint32_t magic = be32(h);
    if (magic != 0x377f0682u && magic != 0x377f0683u) return 0;
    const bool big = (magic & 1) != 0;
    const uint32_t page = be32(h + 8);
    if (page < 512 || page > 65536 || (page & (page - 1)) != 0) return 0;
    uint32_t s0 = 0, s1 = 0;
    checksum(h, 24, big, s0, s1);
    if (s0 != be32(h + 24) || s1 != be32(h + 28)) return 0;
    if (salt) salt->assign(wal.data() + 16, 8);
    const size_t frame = 24 + size_t(page);
    int64_t valid = 0, last_commit = 0;
    size_t page1 = 0, committed_page1 = 0;   // offsets of page-1 images (0: none)
    for (size_t off = 32; off + frame <= wal.size(); off += frame) {
        const auto* f = h + off;
        if (std::memcmp(f + 8, h + 16, 8) != 0) break;        // salt of another log generation
        checksum(f, 8, big, s0, s1);
        checksum(f + 24, page, big, s0, s1);
        if (s0 != be32(f + 16) || s1 != be32(f + 20)) break;
        ++valid;
        if (be32(f) == 1) page1 = off + 24;
        if (be32(f + 4) != 0) {                                 // a commit frame: database size after it
            last_commit = valid;
            committed_page1 = page1;
        }
    }
    if (header && committed_page1) header->assign(wal.data() + committed_page1, 100);
    return last_commit;
}

WalState inspect_wal(const std::string& db_path) {
    WalState w;
    // The index first: frames it counts were written to the log before it was updated.
    std::string shm, wal;
    const bool have_shm = read_all(db_path + "-shm", shm, w.shm_exists);
    std::function<void()> between;
    {
        std::lock_guard<std::mutex> lock(g_between_mu);
        between.swap(g_between);
    }
    if (between) between();
    read_all(db_path + "-wal", wal, w.wal_exists);
    w.wal_bytes = wal.size();
    std::string salt;
    w.valid_frames = count_valid_wal_frames(wal, &salt, &w.header);
    // WalIndexHdr (native byte order): iVersion@0, isInit@12, mxFrame@16, aSalt@32; two copies of 48 bytes.
    if (have_shm && shm.size() >= 96 && std::memcmp(shm.data(), shm.data() + 48, 48) == 0) {
        uint32_t version, mx;
        std::memcpy(&version, shm.data(), 4);
        std::memcpy(&mx, shm.data() + 16, 4);
        const bool init = shm[12] != 0;
        if (shm.size() >= 100) {
            uint32_t backfill;
            std::memcpy(&backfill, shm.data() + 96, 4);
            w.backfilled_frames = backfill;
        }
        if (version == 3007000u && init) {
            if (!w.wal_exists) w.committed_frames = mx;                    // the log itself is gone
            else if (!salt.empty() && std::memcmp(shm.data() + 32, salt.data(), 8) == 0) w.committed_frames = mx;
        }
    }
    return w;
}

void at_next_inspection(std::function<void()> between) {
    std::lock_guard<std::mutex> lock(g_between_mu);
    g_between = std::move(between);
}

bool shm_locked_by_another_process(const std::string& db_path) {
    const int fd = kept_descriptor(db_path + "-shm");   // never one opened and closed again (read_store_file)
    if (fd < 0) return false;
    // SQLite's unix locks on the index: bytes 120-127 (readers, writer, checkpointer, recovery)
    // and 128, the one every connection holds shared while it is open.
    struct flock fl{};
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    fl.l_start = 120;
    fl.l_len = 9;
    if (::fcntl(fd, F_GETLK, &fl) != 0) return false;
    return fl.l_type != F_UNLCK;   // this process's own locks never show here
}

std::string companion_of(const std::string& path) {
    for (const char* suffix : {"-wal", "-shm", "-journal"}) {
        const size_t n = std::strlen(suffix);
        if (path.size() <= n || path.compare(path.size() - n, n, suffix) != 0) continue;
        const std::string db = path.substr(0, path.size() - n);
        std::string header;
        bool exists = false;
        if (read_store_file(db, header, exists, 16) && header.size() == 16 && std::memcmp(header.data(), "SQLite format 3", 16) == 0)
            return db;
    }
    return {};
}

}  // namespace normlab
