// NormLab core: AtomicFile (see atomic_file.h).
#include "core/atomic_file.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <fcntl.h>
#include <sys/file.h>
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

// PATH.tmp opened for writing, emptied, and held under an exclusive flock(2)
// until it is renamed into place or removed, so that two writers of one file
// (two exports, two windows, a window and a script) take turns instead of
// writing into one temporary: the first's rename had moved the second's
// half-written bytes into place, the first reporting the file as its own and
// the second "nothing was written". A writer that finds the temporary held
// waits for it; when it gets it, the name may by then be the first's
// renamed file, or a removed one: it opens the name again until the file it
// holds is the one the name says. A temporary a killed writer left is held by
// nobody, and is emptied and used. A file system without flock (EOPNOTSUPP,
// ENOLCK) is written as before, unlocked.
// With a `wait`, it tries every 10 ms until that has passed, then fails
// EWOULDBLOCK (busy).
int open_locked(const std::string& tmp, std::optional<std::chrono::milliseconds> wait, int* error) {
    using clock = std::chrono::steady_clock;
    const auto deadline = clock::now() + wait.value_or(std::chrono::milliseconds(0));
    for (;;) {
        const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
        if (fd < 0) {
            *error = errno;
            return -1;
        }
        int locked = 0, e = 0;
        if (!wait) {
            locked = ::flock(fd, LOCK_EX);
            e = errno;
        } else {
            while ((locked = ::flock(fd, LOCK_EX | LOCK_NB)) != 0 && (e = errno) == EWOULDBLOCK && clock::now() < deadline)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        if (locked != 0 && e != EOPNOTSUPP && e != ENOLCK) {   // (a file system without flock: unlocked, as before)
            ::close(fd);
            *error = e;   // EINTR: a stop (Ctrl-C) while waiting; EWOULDBLOCK: still held after `wait`
            return -1;
        }
        struct stat held {}, named {};
        if (::fstat(fd, &held) == 0 && ::stat(tmp.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
            held.st_ino == named.st_ino) {
            if (S_ISREG(held.st_mode) && ::ftruncate(fd, 0) != 0) {
                *error = errno;
                ::close(fd);
                return -1;
            }
            return fd;
        }
        ::close(fd);   // the writer before renamed or removed it: that name is free again
    }
}

// Why PATH.tmp could not be opened: its folder (the user's file may well be writable: a folder nobody may
// write refuses it all the same, and "Permission denied" alone sent people to the file's permissions), a
// PATH.tmp in the way, or something else.
AtomicFile::Refusal refusal_of(int error, const std::string& tmp) {
    using R = AtomicFile::Refusal;
    if (error == EWOULDBLOCK) return R::busy;
    if (error == EROFS || error == ENOENT || error == ENOTDIR) return R::folder;
    if (error != EACCES && error != EPERM) return R::other;
    struct stat st {};
    return ::lstat(tmp.c_str(), &st) == 0 ? R::temporary : R::folder;   // there, and not ours to write: in the way
}

}  // namespace

AtomicFile::AtomicFile(const std::string& path, std::optional<std::chrono::milliseconds> wait)
    : path_(target_of(path)), tmp_(path_ + ".tmp") {
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
        refusal_ = Refusal::write_protected;
        tmp_.clear();
        return;
    }
    fd_ = open_locked(tmp_, wait, &error_);
    if (fd_ < 0) {
        refusal_ = refusal_of(error_, tmp_);
        tmp_.clear();   // not ours to remove
        return;
    }
    if (replaces) (void)::fchmod(fd_, st.st_mode & 07777);   // a figure shared with a group stays shared
}

AtomicFile::~AtomicFile() {
    if (!committed_) discard();
}

bool AtomicFile::busy() const { return refusal_ == Refusal::busy; }

std::string AtomicFile::folder() const {
    const size_t slash = path_.rfind('/');
    std::string dir = slash == std::string::npos ? "" : slash == 0 ? "/" : path_.substr(0, slash);
    if (!dir.empty() && dir[0] == '/') return dir;
    char cwd[PATH_MAX];
    if (!::getcwd(cwd, sizeof cwd)) return dir.empty() ? "." : dir;
    return dir.empty() ? cwd : std::string(cwd) + "/" + dir;
}

std::string AtomicFile::why() const {
    if (!error_) return {};
    const std::string sys = std::strerror(error_);
    const std::string name = path_.substr(path_.rfind('/') + 1);   // (npos + 1 is 0: the whole name)
    switch (refusal_) {
    case Refusal::busy:
        return "another program is writing it now; try again once that has finished";
    case Refusal::write_protected:
        return "it is write-protected (" + sys + "); make it writable (chmod u+w) or choose another name";
    case Refusal::folder:
        if (error_ == ENOENT || error_ == ENOTDIR) return "the folder " + folder() + " does not exist (" + sys + ")";
        return "the folder " + folder() + " cannot be written in (" + sys + "): a file is first saved there as " +
               name + ".tmp and then renamed over " + name + ", so that a save cut short never leaves half a file; "
               "choose a folder you can write";
    case Refusal::temporary:
        return temporary() + ", an unfinished save's file, is in the way and cannot be written (" + sys +
               "); remove it or choose another name";
    case Refusal::none:
    case Refusal::other:
        break;
    }
    return sys;
}

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
    // Renamed while still open, and so still locked: a writer waiting for the temporary finds, when it gets
    // it, that the name no longer says this file, and makes its own (open_locked).
    if (!error_ && ::fsync(fd_) != 0) fail(errno);
    if (!error_ && ::rename(tmp_.c_str(), path_.c_str()) != 0) fail(errno);
    if (error_) {
        discard();
        return false;
    }
    committed_ = true;
    ::close(fd_);   // (synced and in place: what close could still report, fsync has)
    fd_ = -1;
    sync_folder(path_);
    return true;
}

void AtomicFile::discard() {
    if (!tmp_.empty()) ::unlink(tmp_.c_str());   // removed while still held (open_locked)
    tmp_.clear();   // unlinked once: a later discard leaves a file of that name alone
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

}  // namespace normlab
