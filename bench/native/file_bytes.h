// Whole-file reads for the native benchmark tools, failing with an ibd::Error that names the file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ibd::bench {

/** The bytes of the file at `path`. Throws ibd::Error (location: the file) when it is missing,
 *  a directory, or cannot be read to the end. */
std::vector<uint8_t> ReadFileBytes(const std::string& path);

}  // namespace ibd::bench
