// NormLab app: the hang-up, shared by normlab-cli and the window. SIGHUP — the
// terminal or ssh session the program was started from has closed — stops long
// work as Ctrl-C and SIGTERM do (a run is kept as cancelled, with its
// checkpoint, and `resume` continues it); by default it would end the process
// mid-step, leaving the run `interrupted` and the runs queued after it queued
// with nobody to train them. Where SIGHUP was ignored when the program started
// (`nohup`, a detached run: app/cli/detach.cpp), it stays ignored, and training
// goes on.
#pragma once

#include <csignal>

namespace normlab::app {

// Why long work stopped, for a run's message ("cancelled: …"), when the signal that
// stopped it was not a user's own stop (Ctrl-C, SIGTERM): "" for those.
inline const char* stop_cause(int sig) {
    switch (sig) {
        case SIGHUP: return "the terminal or ssh session it was started from closed (SIGHUP)";
        case SIGPIPE: return "what read its output went away (a closed pipe)";
        default: return "";
    }
}

// Sends SIGHUP to `handler` unless it is ignored; true when it did.
inline bool stop_on_hangup(void (*handler)(int)) {
    struct sigaction old {};
    if (::sigaction(SIGHUP, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) return false;
    struct sigaction sa {};
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    return ::sigaction(SIGHUP, &sa, nullptr) == 0;
}

}  // namespace normlab::app
