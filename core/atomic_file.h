// NormLab core: a file replaced whole or not at all.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

namespace normlab {

// Written into PATH.tmp; commit() syncs it, gives it the permissions of the
// file it replaces, renames it over PATH and syncs the folder. Destroyed
// without a commit, or after a failed write or commit, nothing of it stays and
// PATH is as it was. Failures are errno values (why() says them): a full disk,
// a file-size limit, a folder that cannot be written. A PATH that is a
// symbolic link has the file it names replaced, not the link; one that is a
// device, a FIFO or a socket (/dev/null, /dev/stdout, a named pipe) is
// written into as a stream, never replaced. A file nobody may write (chmod
// a-w) is refused (EACCES), as writing into it was: a rename would replace it.
// Two writers of one PATH (two exports, a window and a script) take turns: the
// second waits, in its constructor, until the first has committed or given up
// (PATH.tmp is held under flock(2) until then), and each reports what it did.
// It waits for ever, or for `wait` and then fails busy() (a window must not
// hang on an export stopped with Ctrl-Z in a terminal). EINTR from that wait
// (a signal without SA_RESTART: Ctrl-C) is a failure.
//
// NormLab's one writer of whole files: checkpoints, exports, figures, CSVs,
// experiments, reports, fetched weights. (Qt 6.4's QSaveFile is not one: its
// commit() returns true after a buffered write failed, and moves the
// truncated file into place: QTBUG-75077, which qBittorrent works around by
// flushing first.)
class AtomicFile {
public:
    explicit AtomicFile(const std::string& path, std::optional<std::chrono::milliseconds> wait = std::nullopt);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    bool ok() const { return error_ == 0; }   // open, and nothing has failed
    int error() const { return error_; }
    std::string why() const;                    // what failed and what to do, "" when ok() (see Refusal)
    bool busy() const;                          // another writer held PATH for all of `wait`: nothing was done

    // What kept the file from being opened, so that a message names the thing to change: PATH, its folder
    // or PATH.tmp. A folder nobody may write refuses a file that may be written (PATH.tmp goes beside it).
    enum class Refusal {
        none,              // opened (a later write or commit may still fail: error())
        busy,              // another writer held PATH for all of `wait`
        write_protected,   // PATH is write-protected (chmod a-w)
        folder,            // PATH's folder: cannot be written in (EACCES, EROFS) or does not exist (ENOENT)
        temporary,         // a PATH.tmp that may not be written is there (another user's unfinished save)
        other,             // anything else: why() is strerror(error())
    };
    Refusal refusal() const { return refusal_; }
    std::string folder() const;                 // PATH's folder, absolute
    std::string temporary() const { return path_ + ".tmp"; }
    const std::string& path() const { return path_; }
    int fd() const { return fd_; }              // for a writer with a loop of its own, which then never commits on an error

    // All of `n` bytes, retrying interrupted and partial writes; false (error() set) when any fails.
    bool write(const void* data, size_t n);
    bool write(const std::string& s) { return write(s.data(), s.size()); }
    // false, PATH untouched, when anything failed or fails now.
    bool commit();

private:
    void fail(int err);   // the first failure stays: nothing will be committed
    void discard();
    std::string path_, tmp_;
    int fd_ = -1;
    int error_ = 0;
    Refusal refusal_ = Refusal::none;
    bool direct_ = false;   // PATH is a device, FIFO or socket: written into, not replaced
    bool committed_ = false;
};

}  // namespace normlab
