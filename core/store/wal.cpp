// NormLab core: write-ahead log inspection (see wal.h).
#include "core/store/wal.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <sys/stat.h>

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
    struct stat st{};
    exists = ::stat(path.c_str(), &st) == 0;
    if (!exists || !S_ISREG(st.st_mode)) return false;
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    return true;
}

}  // namespace

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

}  // namespace normlab
