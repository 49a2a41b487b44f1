// NormLab core: speaking to a server through the system's OpenSSH client.
//
// NormLab never opens a port and never implements ssh: it runs `ssh` (or
// $NORMLAB_SSH, as git runs $GIT_SSH_COMMAND), so the user's ~/.ssh/config,
// keys, agent, ProxyJump and two-factor prompts work unchanged. Connections
// are shared (ControlMaster=auto, ControlPersist), as Qt Creator does: one
// login, then every command (check, launch, follow, cancel) rides on it.
// Every word that reaches the remote shell is quoted here: names and paths
// with spaces, quotes or $(...) arrive as they are, never run.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>
#include <sys/types.h>

namespace normlab {

// A word for a POSIX shell: 'it'\''s'. A leading "~/" stays the remote home:
// "$HOME"/'rest'.
std::string shell_quote(const std::string& word);
std::string shell_command(const std::vector<std::string>& words);

// Throws ConfigError (field "destination") for what ssh would take for an
// option or cannot be a host: empty, a leading '-', spaces or control characters.
void check_destination(const std::string& dest);

// The ssh client's words: $NORMLAB_SSH split like a shell would (quotes
// respected, nothing expanded), else "ssh".
std::vector<std::string> ssh_program();

struct SshOptions {
    int connect_timeout_s = 15;
    bool batch = false;          // no prompts (BatchMode): for the window when no askpass is set
    bool share = true;           // connection sharing (NORMLAB_SSH_SHARE=0 turns it off)
};
// The full argv: ssh, its options, the destination and the command for the
// remote shell (build it with shell_command: every word quoted).
std::vector<std::string> ssh_argv(const std::string& dest, const std::string& remote_command, const SshOptions& opts = {});

// A child process with pipes on its standard streams.
class Child {
public:
    explicit Child(const std::vector<std::string>& argv);   // throws RemoteError when it cannot start
    ~Child();                                              // terminates and reaps it if still running
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;

    void write(const std::string& bytes);                  // to its stdin (false: the pipe closed)
    void close_stdin();
    enum class Read { Line, Timeout, Eof };
    // The next line of its stdout (without the newline). Eof: the stream
    // ended; a last line without a newline is returned in `partial`.
    Read read_line(std::string& line, int timeout_ms);
    const std::string& partial() const { return buf_; }
    // Raw bytes of its stdout as they come (what read_line buffered first):
    // false at the end of the stream.
    // `stop`, where given, is asked about once a second while nothing comes: true ends the read (false).
    bool read_bytes(std::string& chunk, const std::function<bool()>& stop = {});
    std::string stderr_text() const { return err_; }
    // Waits for it to exit (killing it after `timeout_ms`); its exit code, or 128+signal.
    int wait(int timeout_ms = -1);
    void terminate();
    pid_t pid() const { return pid_; }

private:
    void drain_stderr();
    pid_t pid_ = -1;
    int in_ = -1, out_ = -1, err_fd_ = -1;
    std::string buf_, err_;
    bool eof_ = false;
    int status_ = -1;
};

struct RemoteOutput {
    int exit_code = 0;
    std::string out, err;
};
// Runs one remote command to its end (stdin: `input`). Throws RemoteError when
// ssh itself fails (exit 255: unreachable host, refused key, timeout), with
// ssh's own words. A remote command's failure is returned, not thrown.
RemoteOutput run_remote(const std::string& dest, const std::string& remote_command, const std::string& input = "",
                        int timeout_ms = 120000, const SshOptions& opts = {});

// What ssh's failure means for a person: its last stderr lines, and a hint.
std::string ssh_failure(const std::string& dest, const std::string& err);

}  // namespace normlab
