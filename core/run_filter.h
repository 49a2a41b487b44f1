// NormLab core: which runs a filter text picks — the window's filter box and
// `normlab-cli list TEXT` read it the same way.
//
// The text is words separated by spaces ("two words" in double quotes are one);
// a run is picked when it matches every word, ignoring case:
//   - a plain word: in the run's name, scheme, status, a tag, its notes, its
//     server, or a text the caller adds (the window: its Created and Store cells);
//   - KEY OP VALUE, OP one of = != < <= > >= and : (contains): compares the
//     run's KEY — id, name, scheme, status, tag, notes, server, steps, val (the
//     validation loss as shown: the final one, else the latest), or a setting,
//     by its dotted path (optim.lr, model.n_layers) or its last part where that
//     names a setting of the run (lr, n_layers, warmup). Numbers compare as
//     numbers (lr>=1e-3 holds for 0.001), texts and true/false as texts. A run
//     without KEY does not match. Such a word also matches as a plain word, so
//     a sweep's names ("Pre-LN lr=3e-3") are found by what they say.
// Examples: `ngpt val<3.2`, `lr>=1e-3 status=finished`, `tag:paper n_layers=48`.
#pragma once

#include "core/store/store.h"

#include <string>
#include <vector>

namespace normlab {

class RunFilter {
public:
    RunFilter() = default;
    explicit RunFilter(const std::string& text);

    bool empty() const { return words_.empty(); }
    // `val`: the validation loss the run shows (NaN: none); `more`: texts a plain word may be in too.
    bool matches(const RunInfo& r, double val, const std::vector<std::string>& more = {}) const;

    struct Word {
        std::string text;               // lower case, as typed
        std::string key, op, value;     // a comparison: op non-empty; key and value lower case
        double number = 0;
        bool is_number = false;         // value reads wholly as a number
    };
    const std::vector<Word>& words() const { return words_; }
    // Whether a word compares the validation loss: only then need a caller read a run's latest one.
    bool reads_val() const;

    // Why a comparison may have picked nothing, for a filter that picks no run of `runs`: a key that is
    // no column and no setting of any of them (with the nearest one it may have meant), or <, <=, >, >=
    // given a value that is not a number. Each UI words them (the window in its language).
    struct Note {
        enum class Kind { UnknownKey, NotANumber } kind;
        std::string word;         // as typed, lower case
        std::string key, value;
        std::string suggestion;   // UnknownKey: the nearest column or setting ("" where none is near)
    };
    std::vector<Note> notes(const std::vector<RunInfo>& runs) const;
    static std::string describe(const Note& n);   // in English, for the command line

private:
    std::vector<Word> words_;
};

// The validation loss a run shows: its final one, else the latest measured (Store::last_point), else NaN.
double shown_val_loss(Store& store, const RunInfo& r);

// The ids of the store's runs the filter text picks, in id order (figures and plots: --where TEXT).
// Where it picks none, `why` (if given) gets the notes of its comparisons, each on a line of its own.
std::vector<int64_t> runs_where(Store& store, const std::string& text, std::string* why = nullptr);

}  // namespace normlab
