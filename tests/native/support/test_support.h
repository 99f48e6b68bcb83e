// Shared helpers of the native test suites: where the fixtures are, file reading, and the Error
// a bad block gives.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "validation/block_validation.h"
#include "validation/error.h"

namespace ibd::test {

/** The blocks-fixtures folder: $IBD_FIXTURES when set and non-empty, else the compile-time
 *  default IBD_DEFAULT_FIXTURES (../shared/blocks-fixtures beside the repo). No trailing slash. */
std::string FixturesDir();

/** FixturesDir() + "/" + relative. */
std::string FixturePath(const std::string& relative);

/** Whole file as bytes / text. Throw std::runtime_error naming the path when it cannot be read. */
std::vector<uint8_t> ReadFileBytes(const std::string& path);
std::string ReadFile(const std::string& path);

/** ReadFile + nlohmann::json::parse. */
nlohmann::json ReadJsonFile(const std::string& path);

/** Runs ValidateBlock (BlockValidation to the end) and returns its Error (a gtest failure, and a
 *  placeholder Error, if there is none). */
Error ValidationError(const std::vector<uint8_t>& raw, const std::vector<SpentOutputEntry>& spent,
                      const std::string& hash, int32_t height);

}  // namespace ibd::test

namespace ibd {
// The suites live in namespace ibd and call these unqualified.
using test::FixturePath;
using test::FixturesDir;
using test::ReadFile;
using test::ReadFileBytes;
using test::ReadJsonFile;
using test::ValidationError;
}  // namespace ibd
