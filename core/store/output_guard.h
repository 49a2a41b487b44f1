// NormLab core: outputs never overwrite what a command reads.
//
// Every store this process opens registers itself here (Store's constructor).
// Before a command writes a file it asks check_output_path, which refuses an
// output that is a registered store, its -wal, -shm or -journal, its
// checkpoints folder or anything below that folder — compared by device and
// inode after resolving symlinks (a hard link or a symlink to the store is
// caught), and by resolved path for files that do not exist yet. Inputs a
// command names itself (an experiment file) are passed as `inputs`.
#pragma once

#include <string>
#include <vector>

namespace normlab {

// Remembers a store (and so its companions) as an input of this process.
void protect_store(const std::string& store_path);

// Throws ConfigError(field, why and what to do) when writing `out` would
// replace or damage a protected store, its checkpoints, or one of `inputs`.
// Nothing is written by the check.
void check_output_path(const std::string& out, const std::string& field,
                       const std::vector<std::string>& inputs = {});

// check_output_path for a file the command writes now: also refused, naming
// `field` and the fix, when `out` is a folder or its folder does not exist.
void check_output_file(const std::string& out, const std::string& field,
                       const std::vector<std::string>& inputs = {});

// The same for an output folder (a report's, plot's): refused when it is a
// protected store, its -wal, -shm or -journal, or its checkpoints folder, or
// lies inside one of those (a folder made at a companion's name leaves SQLite
// unable to open the store).
void check_output_folder(const std::string& dir, const std::string& field);

}  // namespace normlab
