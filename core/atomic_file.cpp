// NormLab core: AtomicFile (see atomic_file.h).
#include "core/atomic_file.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace normlab {

namespace {

// The file a symbolic link names (resolved through every link), else `path` itself.
std::string target_of(const std::string& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    char buf[PATH_MAX];
    return ::realpath(path.c_str(), buf) ? std::string(buf) : path;   // a dangling link: replaced as a file
}

void sync_folder(const std::string& file) {
    const size_t slash = file.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : file.substr(0, slash);
    if (int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
        ::fsync(dfd);   // the rename durable; a folder that cannot be synced still has it
        ::close(dfd);
    }
}

}  // namespace

AtomicFile::AtomicFile(const std::string& path) : path_(target_of(path)), tmp_(path_ + ".tmp") {
    struct stat st {};
    const bool exists = ::stat(path_.c_str(), &st) == 0, replaces = exists && S_ISREG(st.st_mode);
    if (exists && !replaces && !S_ISDIR(st.st_mode)) {
        // A device, a FIFO or a socket (/dev/null, /dev/stdout, a named pipe): written into, never
        // replaced. A temporary renamed over it had made /dev/null a regular file, run as root.
        direct_ = true;
        tmp_.clear();
        fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd_ < 0) error_ = errno;
        return;
    }
    if (replaces && (st.st_mode & 0222) == 0) {
        // Write-protected (chmod a-w): its owner's "keep this", which a rename would pass over unasked.
        error_ = EACCES;
        tmp_.clear();
        return;
    }
    fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) {
        error_ = errno;
        tmp_.clear();   // not ours to remove
        return;
    }
    if (replaces) (void)::fchmod(fd_, st.st_mode & 07777);   // a figure shared with a group stays shared
}

AtomicFile::~AtomicFile() {
    if (!committed_) discard();
}

std::string AtomicFile::why() const { return error_ ? std::strerror(error_) : std::string(); }

bool AtomicFile::write(const void* data, size_t n) {
    if (error_) return false;
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
        const ssize_t w = ::write(fd_, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            fail(w < 0 ? errno : ENOSPC);   // (a write of nothing, never an endless loop)
            return false;
        }
        p += w;
        n -= static_cast<size_t>(w);
    }
    return true;
}

void AtomicFile::fail(int err) {
    if (!error_) error_ = err ? err : EIO;
}

bool AtomicFile::commit() {
    if (committed_) return true;
    if (direct_) {
        if (fd_ >= 0 && ::close(fd_) != 0) fail(errno);
        fd_ = -1;
        committed_ = !error_;
        return committed_;
    }
    if (!error_ && ::fsync(fd_) != 0) fail(errno);
    if (fd_ >= 0 && ::close(fd_) != 0) fail(errno);
    fd_ = -1;
    if (!error_ && ::rename(tmp_.c_str(), path_.c_str()) != 0) fail(errno);
    if (error_) {
        discard();
        return false;
    }
    committed_ = true;
    sync_folder(path_);
    return true;
}

void AtomicFile::discard() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (!tmp_.empty()) ::unlink(tmp_.c_str());
    tmp_.clear();   // unlinked once: a later discard leaves a file of that name alone
}

}  // namespace normlab
