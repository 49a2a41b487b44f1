// NormLab app: a child process that does not outlive the window.
//
// The window starts long-lived children of its own: `normlab report` (the
// reproduction's training, from Run → Reproduce paper findings…) and each
// server's `normlab-cli remote follow`. Closed as usual, the window stops
// them (their owners' destructors). Killed outright (kill -9, the OOM killer,
// a crash), it used to leave them running unseen: a report training on in the
// background, or a follower writing into the store beside the one the next
// window starts. On Linux the kernel now sends such a child SIGTERM the moment
// the window's process ends (PR_SET_PDEATHSIG), and it stops as on Ctrl-C: a
// report keeps its run cancelled with its checkpoint, a follower ends cleanly.
// Elsewhere the children live on as before.
#pragma once

#include <QProcess>

#ifdef __linux__
#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>
#endif

namespace normlab {

// Call before p.start(). The signal goes when the thread that started the
// child ends: start it from the GUI thread, which lives as long as the window.
inline void end_with_window(QProcess& p) {
#ifdef __linux__
    const pid_t window = ::getpid();
    // In the child, after fork and before exec: only async-signal-safe calls.
    p.setChildProcessModifier([window] {
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != window) ::_exit(127);   // the window ended before the signal was armed
    });
#else
    (void)p;
#endif
}

}  // namespace normlab
