// SPDX-License-Identifier: Apache-2.0
// Temporary files that a terminating signal removes. The atomic writer writes a temporary file
// beside its target and renames it over the target when done; a SIGTERM, SIGINT or SIGHUP in
// between (a job scheduler's time limit, a Ctrl-C) would end the process and leave the
// temporary file behind. So each one is registered while it exists, and a handler for those
// signals removes the registered files before the signal ends the process.
#pragma once

#include <string>

namespace kerntime::io {

/// Creates a file from the mkostemp(3) template `path` (its trailing XXXXXX become the name
/// made), open for reading and writing with O_CLOEXEC, and registers it until
/// unregister_temporary_file(`slot`): a SIGTERM, SIGINT or SIGHUP that ends the process first
/// removes it. Returns the descriptor, or -1 with errno set. `slot` is -1 when the file was not
/// registered (more files than the registry holds, 32, are being written at once).
///
/// The first call installs the handler for each of the three signals that is not ignored. It
/// chains to the handler it replaces: a program's own handler runs first, and the files are
/// removed only if the process is then about to end by the signal's default action (the
/// handler reset it and raised the signal again, as `kerntime run`'s injection library does).
/// A handler that returns, so that the program carries on, leaves the files to their writers.
/// An ignored signal stays ignored (and so stays ignored in programs it starts: nohup).
int create_registered_temporary_file(std::string& path, int& slot);

/// Ends a registration made by create_registered_temporary_file(), once its file was renamed
/// or removed. A `slot` of -1 is ignored.
void unregister_temporary_file(int slot);

}  // namespace kerntime::io
