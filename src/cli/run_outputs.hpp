// SPDX-License-Identifier: Apache-2.0
// `kerntime run`'s output files (-o, --timeline, --html). A program may run for hours, so a path
// that cannot be written is refused before it starts; and when writing still fails at the end (the
// disk filled up meanwhile), the file goes to a fallback path the message names, and the exit
// status stays the program's.
#pragma once

#include <functional>
#include <string>

namespace kerntime::cli {

/// Throws kerntime::Error (exit status 2, nothing run) when `path`, the value of `option`, could
/// not be written as the file writer writes it: a folder; a missing folder or one kerntime may
/// not create files in (checked by creating a temporary file beside the target and removing
/// it); a device or pipe it may not write. An empty path is not checked.
void check_output_path(const std::string& option, const std::string& path);

/// $TMPDIR/kerntime-run-PID-`what``extension` (/tmp without TMPDIR): where an output goes when
/// its own path cannot be written at the end.
std::string fallback_path(const std::string& what, const std::string& extension = ".json");

/// Calls `write(path)`; when it throws kerntime::Error, calls `write(fallback_path(what,
/// extension))` and says on standard error where the `what` ("report", "timeline", "page")
/// went, or that neither could be written. Never throws kerntime::Error; returns false when the
/// file was not written anywhere.
bool write_with_fallback(const std::string& option, const std::string& what,
                         const std::string& path,
                         const std::function<void(const std::string&)>& write,
                         const std::string& extension = ".json");

}  // namespace kerntime::cli
