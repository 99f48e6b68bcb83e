// Whole-file reads for the native fixture loader (fixture_set.h) and the native tools, failing
// with an ibd::Error that names the file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ibd::fixtures {

/** The bytes of the file at `path`. Throws ibd::Error (validation/error.h; location: the file,
 *  what() "cannot open <path> (at file <path>)", "cannot read <path>: is a directory", "cannot
 *  read <path>[: <reason>]") when it is missing, a directory, or cannot be read to the end.
 *  Allocation failure is let through as std::bad_alloc. */
std::vector<uint8_t> ReadFileBytes(const std::string& path);

}  // namespace ibd::fixtures
