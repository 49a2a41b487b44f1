// NormLab core: typed exceptions.
//
// Every error the core throws at a caller carries enough context to be shown
// to a person as-is: the field or file concerned, what was wrong and a hint on
// how to fix it. The GUI and the CLI catch these at their boundary.
#pragma once

#include <stdexcept>
#include <string>

namespace normlab {

// A configuration or experiment value that cannot work. `path` is the JSON
// path of the field ("variants[2].model.n_heads"), `message` says what is
// wrong and what is allowed.
class ConfigError : public std::runtime_error {
public:
    ConfigError(std::string path, std::string message)
        : std::runtime_error(path.empty() ? message : path + ": " + message),
          path_(std::move(path)), message_(std::move(message)) {}
    const std::string& path() const { return path_; }
    const std::string& message() const { return message_; }
    // The same error seen from an enclosing document ("variants[1]." + path).
    ConfigError prefixed(const std::string& prefix) const {
        return ConfigError(path_.empty() ? prefix : prefix + "." + path_, message_);
    }

private:
    std::string path_;
    std::string message_;
};

// The run store refused or failed an operation. `code` is SQLite's extended
// result code where one applies, 0 otherwise.
class StoreError : public std::runtime_error {
public:
    StoreError(const std::string& what, int code = 0) : std::runtime_error(what), code_(code) {}
    int code() const { return code_; }

private:
    int code_;
};

// A data source could not be read (missing corpus, unreadable file, too short).
class DataError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Thrown by long work (data loading, evaluation) when the user cancelled it.
class Cancelled : public std::runtime_error {
public:
    Cancelled() : std::runtime_error("cancelled by the user") {}
};

// A server reached over ssh could not be used: ssh failed, NormLab is missing
// or incompatible there, or its stream was cut or unreadable (core/remote/).
class RemoteError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Anything else that stopped a run (checkpoint I/O, device unavailable...).
class RunError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace normlab
